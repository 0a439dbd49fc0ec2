/**
 * The SDKs in sdks/ (Python, Go and Node.js, generated from plugin/schema.json by `npm run sdk:generate`)
 * must come from the schema as it is: the generator records the schema's SHA-256 in
 * sdks/.schema-sha256, and a schema changed without regenerating fails here, naming the fix. No Go
 * needed: only the record is compared.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_SUBPATH } from "../../scripts/lib/pluginSchema/build";

const root = path.resolve(__dirname, "..", "..");
const REGENERATE =
  "run `npm run sdk:generate` (it needs Go >= 1.25.11; after `npm run generate` when the schema is stale too) and commit sdks/";

describe("the generated SDKs in sdks/", () => {
  it("were generated from plugin/schema.json as it is", () => {
    const schema = fs.readFileSync(path.join(root, "plugin", "schema.json"));
    const record = fs.readFileSync(path.join(root, "sdks", ".schema-sha256"), "utf8");
    const [recorded, source] = record.trim().split(/\s+/);
    expect(source).toBe("plugin/schema.json");
    const current = createHash("sha256").update(schema).digest("hex");
    expect(recorded === current, `sdks/ was generated from another plugin/schema.json: ${REGENERATE}`).toBe(true);
  });

  it("carry the package's version and are complete", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    const read = (file: string) => fs.readFileSync(path.join(root, "sdks", file), "utf8");
    expect(read("python/setup.py"), REGENERATE).toContain(`VERSION = "${version}"`);
    for (const plugin of ["python/pulumi_gpucloud/pulumi-plugin.json", "go/gpucloud/pulumi-plugin.json"])
      expect(JSON.parse(read(plugin)), `${plugin}: ${REGENERATE}`).toMatchObject({ resource: true, name: "gpucloud", version });
    expect(read("go/go.mod")).toMatch(/^module example\.com\/pulumi-gpucloud\/sdk\/go$/m);
    expect(JSON.parse(read("nodejs/package.json")), `nodejs/package.json: ${REGENERATE}`).toMatchObject({
      name: `pulumi-gpucloud/${PLUGIN_SUBPATH}`,
      version,
      pulumi: { resource: true, name: "gpucloud", version },
    });
    for (const kind of ["Pod", "Endpoint", "NetworkVolume", "Template", "RegistryAuth", "Secret", "AccountSshKeys", "Provider"])
      expect(read("nodejs/index.ts"), `nodejs/index.ts lacks ${kind}: ${REGENERATE}`).toMatch(
        new RegExp(`export const ${kind}: typeof import\\("\\./`),
      );
  });

  it("ship the Node.js SDK as the subpath the schema names, the one `pulumi import` prints", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
      typesVersions: Record<string, Record<string, string[]>>;
      files: string[];
    };
    const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as {
      language: { nodejs: { packageName: string } };
    };
    expect(schema.language.nodejs.packageName).toBe(`pulumi-gpucloud/${PLUGIN_SUBPATH}`);
    expect(manifest.exports[`./${PLUGIN_SUBPATH}`]).toEqual({
      types: "./dist/sdks/nodejs/index.d.ts",
      default: "./dist/sdks/nodejs/index.js",
    });
    expect(manifest.typesVersions["*"]?.[PLUGIN_SUBPATH]).toEqual(["dist/sdks/nodejs/index.d.ts"]);
    expect(manifest.files).toContain("dist/sdks");
  });
});
