/**
 * The package as a user gets it: `npm pack` of this checkout, extracted into the node_modules of a
 * separate Pulumi project outside the repo, its program loading `pulumi-gpucloud` from there. Up,
 * preview (no changes) and destroy go through the real engine against the emulator, and the state
 * must carry a bare `require("pulumi-gpucloud/provider/shims/...")` as each resource's provider.
 *
 * Needs a current dist/ (`npx tsc -p tsconfig.json`): that is what `npm pack` ships.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources, type AutomationModule, type EngineStack } from "../support/engineStack";
import { installPackedCopy } from "../../scripts/lib/packedInstall";
import { accountOf, countsOf, emulatorConfig, loadSdk, providerTextOf, resourceOfType } from "./provider-support";

const repoRoot = path.resolve(__dirname, "..", "..");

describe("the package installed from npm pack into a project outside the repo", { timeout: 300_000 }, () => {
  let base: string;
  let projectDir: string;
  let tarball: string;
  let emulator: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-packed-"));
    ({ projectDir, tarball } = installPackedCopy(base));
    const gpucloud = loadSdk(projectDir);
    emulator = await startEmulator({ port: 0, timeScale: 0.01 });
    engine = await createEngineStack({
      projectName: "packed-consumer",
      workDir: projectDir,
      // The project's own @pulumi/pulumi runs the program, as `pulumi up` in that project would.
      automation: createRequire(path.join(projectDir, "index.js"))("@pulumi/pulumi/automation") as AutomationModule,
      config: emulatorConfig(emulator),
      program: async () => {
        const volume = new gpucloud.NetworkVolume("models", { name: "models", size: 25, dataCenterId: "EU-SE-1" });
        const template = new gpucloud.Template("worker", {
          name: "packed-worker",
          imageName: "ghcr.io/acme/worker:2",
          isServerless: true,
          env: { MODEL: "m" },
        });
        return { volumeId: volume.id, templateId: template.id };
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && countsOf(accountOf(emulator)).networkVolumes + countsOf(accountOf(emulator)).templates > 0) {
        await engine.stack.destroy().catch(() => undefined);
      }
    } finally {
      await engine?.dispose();
      await emulator?.close();
      if (base) await fs.promises.rm(base, { recursive: true, force: true });
    }
  });

  it("is a real copy outside the checkout, and the program loads it from there", () => {
    expect(path.relative(repoRoot, projectDir).startsWith("..")).toBe(true);
    const installed = path.join(projectDir, "node_modules", "pulumi-gpucloud");
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(installed, "dist", "provider", "shims", "networkVolume.js"))).toBe(true);
    // Only what `files` ships: no sources, no tests.
    expect(fs.existsSync(path.join(installed, "test"))).toBe(false);
    expect(fs.existsSync(path.join(installed, "sdk"))).toBe(false);
    // No source maps either: they would point stack traces at those unshipped sources.
    const shipped = fs.readdirSync(path.join(installed, "dist"), { recursive: true, encoding: "utf8" });
    expect(shipped.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(
      shipped.filter((f) => f.endsWith(".js") && fs.readFileSync(path.join(installed, "dist", f), "utf8").includes("sourceMappingURL")),
    ).toEqual([]);
    const resolved = createRequire(path.join(projectDir, "index.js")).resolve("pulumi-gpucloud");
    expect(fs.realpathSync(resolved)).toBe(fs.realpathSync(path.join(installed, "dist", "sdk", "index.js")));
    // The package's own @pulumi/pulumi is the project's, so the serializer sees the installed copy.
    const pulumiOfPackage = createRequire(resolved).resolve("@pulumi/pulumi");
    expect(fs.realpathSync(pulumiOfPackage).startsWith(fs.realpathSync(projectDir) + path.sep)).toBe(true);
    expect(fs.statSync(tarball).size).toBeGreaterThan(1_000);
  });

  it("deploys, previews no changes and destroys; the state's provider is a bare require", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const account = accountOf(emulator);
    expect(account.networkVolumes.map((v) => [v.id, v.name, v.size, v.dataCenterId])).toEqual([
      [up.outputs["volumeId"]?.value, "models", 25, "EU-SE-1"],
    ]);
    expect(account.templates.map((t) => [t.id, t.name, t.imageName])).toEqual([
      [up.outputs["templateId"]?.value, "packed-worker", "ghcr.io/acme/worker:2"],
    ]);

    const state = declaredResources(await engine.exportState());
    const sizes: Record<string, number> = {};
    for (const [type, shim] of [
      ["NetworkVolume", "networkVolume"],
      ["Template", "template"],
    ] as const) {
      const text = providerTextOf(resourceOfType(state, type));
      sizes[type] = Buffer.byteLength(text);
      expect(text).toContain(`require("pulumi-gpucloud/provider/shims/${shim}")`);
      // Nothing serialized by value: no function bodies of the shim, no paths, no connection settings.
      expect(text).not.toContain('pulumi-gpucloud/provider")');
      expect(text).not.toMatch(/function \/\*(check|diff|create)\*\//);
      expect(text).not.toContain(base);
      expect(text).not.toContain(emulator.apiUrl);
      expect(sizes[type]).toBeLessThan(2_048);
    }
    console.log(
      `__provider sizes (installed from npm pack): ${JSON.stringify(sizes)}; NetworkVolume's:\n${providerTextOf(resourceOfType(state, "NetworkVolume"))}`,
    );

    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 3 });

    const destroy = await engine.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(countsOf(accountOf(emulator))).toEqual({ pods: 0, endpoints: 0, templates: 0, networkVolumes: 0, registryAuths: 0 });
  });
});
