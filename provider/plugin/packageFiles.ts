// The package files the plugin serves from: its version (package.json) and its schema
// (plugin/schema.json, generated from the field tables and the SDK's documentation by
// scripts/generate.ts). Both sit at the package's root: the nearest directory above this file
// with the package's package.json (dist/provider/plugin/ compiled, provider/plugin/ as source).

import * as fs from "node:fs";
import * as path from "node:path";

const PACKAGE_NAME = "pulumi-gpucloud";

function manifestOf(dir: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (manifestOf(dir)?.name === PACKAGE_NAME) return dir;
    if (path.dirname(dir) === dir) throw new Error(`${PACKAGE_NAME}: no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

/** The package's root directory. */
export const PACKAGE_ROOT = findRoot(__dirname);

/** The directory the engine is pointed at: the plugin's executable and its schema. */
export const PLUGIN_DIR = path.join(PACKAGE_ROOT, "plugin");

export const SCHEMA_FILE = path.join(PLUGIN_DIR, "schema.json");

/** The plugin's version: the package's. */
export function packageVersion(): string {
  const version = manifestOf(PACKAGE_ROOT)?.version;
  if (typeof version !== "string") throw new Error(`${PACKAGE_NAME}: no version in ${path.join(PACKAGE_ROOT, "package.json")}`);
  return version;
}

/** The package schema, as served by GetSchema. */
export function schemaText(): string {
  return fs.readFileSync(SCHEMA_FILE, "utf8");
}
