/**
 * Shared pieces of the provider's engine tests (test/engine/provider-*.test.ts): loading the
 * compiled package the way a user's program does, stack config that points at an emulator, and
 * readers for what the state and the emulator hold.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import type { AccountInspection, RunningEmulator } from "../../emulator/index";
import type { ExportedResource } from "../support/engineStack";

/** The package's public module (`import * as gpucloud from "pulumi-gpucloud"`). */
export type GpucloudSdk = typeof import("../../sdk/index");

/**
 * Loads `pulumi-gpucloud` with Node's own require, resolved from `fromDir` (default: this checkout,
 * where node_modules/pulumi-gpucloud links back to the repo, i.e. the compiled dist/). The program
 * must use the compiled package, not the TypeScript sources the test runner transforms: the engine
 * serializes the resources' provider objects, and the provider process loads dist/ by name.
 */
export function loadSdk(fromDir: string = path.resolve(__dirname, "..", "..")): GpucloudSdk {
  return createRequire(path.join(fromDir, "index.js"))("pulumi-gpucloud") as GpucloudSdk;
}

/** The typed classes over the provider plugin (`import * as gpucloud from "pulumi-gpucloud/plugin"`). */
export type GpucloudPluginSdk = typeof import("pulumi-gpucloud/plugin");

/** Loads `pulumi-gpucloud/plugin`, the compiled typed classes over the plugin, as {@link loadSdk} loads the package. */
export function loadPluginSdk(fromDir: string = path.resolve(__dirname, "..", "..")): GpucloudPluginSdk {
  return createRequire(path.join(fromDir, "index.js"))("pulumi-gpucloud/plugin") as GpucloudPluginSdk;
}

/** The management API versions engine tests run the provider on. */
export const API_VERSIONS = ["v1", "v2"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Stack config that points the provider at the emulator's v1 or v2 API, the API key as a secret. */
export function emulatorConfig(emulator: RunningEmulator, apiKey: string = emulator.apiKey, api: ApiVersion = "v1"): ConfigMap {
  return {
    "gpucloud:apiUrl": { value: api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl },
    "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
    "gpucloud:apiKey": { value: apiKey, secret: true },
  };
}

/** Everything the emulator holds for one API key's account (empty lists when it holds nothing). */
export function accountOf(emulator: RunningEmulator, apiKey: string = emulator.apiKey): AccountInspection {
  const accountId = emulator.accountIdOf(apiKey);
  return (
    emulator.inspect().find((a) => a.accountId === accountId) ?? {
      accountId,
      pods: [],
      endpoints: [],
      templates: [],
      networkVolumes: [],
      registryAuths: [],
      workerLogs: [],
      podBootEnv: {},
    }
  );
}

/** Counts of every resource kind in an account, for one-line assertions. */
export function countsOf(
  account: AccountInspection,
): Record<"pods" | "endpoints" | "templates" | "networkVolumes" | "registryAuths", number> {
  return {
    pods: account.pods.length,
    endpoints: account.endpoints.length,
    templates: account.templates.length,
    networkVolumes: account.networkVolumes.length,
    registryAuths: account.registryAuths.length,
  };
}

/** The declared resource of a type (`"Pod"`, `"Endpoint"`, ...) in an exported state, if any. */
export function resourceOfType(resources: ExportedResource[], type: string): ExportedResource | undefined {
  return resources.find((r) => r.type === `pulumi-nodejs:dynamic/gpucloud:${type}`);
}

/** The serialized provider text a dynamic resource carries in its state. */
export function providerTextOf(resource: ExportedResource | undefined): string {
  const text = resource?.outputs?.["__provider"] ?? resource?.inputs?.["__provider"];
  if (typeof text !== "string") throw new Error(`resource ${resource?.urn ?? "(missing)"} has no __provider in state`);
  return text;
}

/** Pulumi's marker of a secret value in a checkpoint (`{"4dabf18193072939515e22adb298388d": "1b47...", ciphertext}`). */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** True when a raw checkpoint value is a secret stored as ciphertext. */
export function isCiphertext(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return record[SECRET_SIG_KEY] === SECRET_SIG_VALUE && typeof record["ciphertext"] === "string" && record["plaintext"] === undefined;
}

/** The resources of a raw checkpoint file (the file backend's JSON). */
export function rawResources(rawStateFile: string): ExportedResource[] {
  const parsed = JSON.parse(rawStateFile) as { checkpoint?: { latest?: { resources?: ExportedResource[] } } };
  return parsed.checkpoint?.latest?.resources ?? [];
}

/** A short random suffix, so that secrets planted by a test are unmistakable when searched for. */
export function marker(): string {
  return Math.random().toString(36).slice(2, 10);
}
