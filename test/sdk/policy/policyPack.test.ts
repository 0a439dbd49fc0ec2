import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { resourceToken } from "../../../provider/plugin/tokens";
import { RESOURCE_KINDS } from "../../../model/kinds";
import { gpucloudPolicies, kindOfType, typeTokensOf } from "../../../sdk/policy";

const repoRoot = path.resolve(__dirname, "..", "..", "..");

describe("pulumi-gpucloud/policy", () => {
  it("recognises each kind by both type tokens: the dynamic resource's and the plugin's own", () => {
    for (const kind of RESOURCE_KINDS) {
      const tokens = typeTokensOf(kind);
      expect(tokens.plugin).toBe(resourceToken(kind));
      expect(tokens.dynamic).toMatch(/^pulumi-nodejs:dynamic\/gpucloud:/);
      expect(kindOfType(tokens.dynamic)).toBe(kind);
      expect(kindOfType(tokens.plugin)).toBe(kind);
    }
    expect(kindOfType("aws:s3/bucket:Bucket")).toBeUndefined();
    expect(kindOfType("gpucloud:index:JobRunner")).toBeUndefined();
  });

  it("gives every policy a unique name, a description, an enforcement level and a config schema", () => {
    const names = gpucloudPolicies.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const policy of gpucloudPolicies) {
      expect(policy.name).toMatch(/^gpucloud-[a-z-]+$/);
      expect(policy.description.length).toBeGreaterThan(20);
      expect(["advisory", "mandatory", "disabled"]).toContain(policy.enforcementLevel);
      expect(policy.configSchema?.properties).toBeDefined();
    }
  });

  it("ships a ready pack folder whose version is the package's", () => {
    const pack = path.join(repoRoot, "policy-pack");
    expect(fs.readFileSync(path.join(pack, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    const own = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
      files: string[];
      exports: Record<string, unknown>;
    };
    const packJson = JSON.parse(fs.readFileSync(path.join(pack, "package.json"), "utf8")) as { version: string; main: string };
    expect(packJson.version).toBe(own.version);
    expect(fs.existsSync(path.join(pack, packJson.main))).toBe(true);
    expect(own.files).toContain("policy-pack");
    expect(own.exports["./policy"]).toEqual({ types: "./dist/sdk/policy/index.d.ts", default: "./dist/sdk/policy/index.js" });
    expect(fs.statSync(path.join(pack, "bin", "pulumi-analyzer-policy-nodejs")).mode & 0o111).not.toBe(0);
  });

  it("is not loaded by the package's main entry", () => {
    const loaded = execFileSync(
      process.execPath,
      [
        "-e",
        "require('pulumi-gpucloud'); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((f) => /@pulumi[\\\\/]policy|sdk[\\\\/]policy/.test(f))))",
      ],
      { cwd: repoRoot, encoding: "utf8" },
    );
    expect(JSON.parse(loaded)).toEqual([]);
  });
});

describe("the ready pack's folder", () => {
  it("depends on the versions of @pulumi/policy and @pulumi/pulumi the package depends on (for a published copy)", () => {
    const own = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
      dependencies: Record<string, string>;
    };
    const pack = JSON.parse(fs.readFileSync(path.join(repoRoot, "policy-pack", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(pack.dependencies).toEqual({
      "@pulumi/policy": own.dependencies["@pulumi/policy"],
      "@pulumi/pulumi": own.dependencies["@pulumi/pulumi"],
      "pulumi-gpucloud": `^${own.version}`,
    });
  });
});
