/**
 * The provider plugin as users get it: `npm pack` of this checkout installed into a project outside
 * the repo. The package ships the plugin's launcher, schema and compiled code; the engine finds it
 * two ways, each running a resource through up, a preview with no changes and destroy:
 * - Pulumi.yaml pointing at the package's plugin directory (`./node_modules/pulumi-gpucloud/plugin`);
 * - the tarball `gpucloud-plugin-tarball` makes, installed with `pulumi plugin install --file`,
 *   whose launcher runs the package installed in the project.
 * Needs a current dist/ (`npx tsc -p tsconfig.json`): that is what `npm pack` ships.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, type ExpectStatic, inject, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { installPackedCopy } from "../../scripts/lib/packedInstall";
import { createEngineStack } from "../support/engineStack";
import { PluginResource } from "../support/pluginProgram";
import { accountOf, emulatorConfig } from "./provider-support";

describe("the provider plugin installed from npm pack", { timeout: 600_000 }, () => {
  let base: string;
  let projectDir: string;
  let installed: string;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-plugin-packed-"));
    ({ projectDir } = installPackedCopy(base));
    installed = path.join(projectDir, "node_modules", "pulumi-gpucloud");
    emulator = await startEmulator({ port: 0, timeScale: 0.01 });
  });
  afterAll(async () => {
    await emulator?.close();
    if (base) await fs.promises.rm(base, { recursive: true, force: true });
  });

  it("ships the launcher (executable), the schema and the compiled plugin", ({ expect }) => {
    const launcher = path.join(installed, "plugin", "pulumi-resource-gpucloud");
    expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(installed, "plugin", "schema.json"), "utf8"))).toMatchObject({ name: "gpucloud" });
    expect(fs.existsSync(path.join(installed, "dist", "provider", "plugin", "main.js"))).toBe(true);
  });

  /** A template through up, a preview with no changes and destroy, with the plugin found as `settings` say. */
  async function roundTrip(
    expect: ExpectStatic,
    name: string,
    workDir: string,
    settings: Record<string, unknown>,
    install?: (home: string) => void,
  ): Promise<void> {
    const engine = await createEngineStack({
      projectName: name,
      workDir,
      config: emulatorConfig(emulator, emulator.apiKey, "v2"),
      projectSettings: settings,
      program: async () => {
        const template = new PluginResource("Template", "worker", { name, imageName: "ghcr.io/acme/worker:1" });
        return { templateId: template.id };
      },
    });
    try {
      install?.(engine.stack.workspace.pulumiHome ?? "");
      const up = await engine.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
      expect(accountOf(emulator).templates.map((t) => t.name)).toContain(name);
      // The engine took the plugin from where it was pointed (no warning about $PATH).
      expect(engine.output()).not.toContain("from $PATH");
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 2 });
      await engine.stack.destroy();
      expect(accountOf(emulator).templates.map((t) => t.name)).not.toContain(name);
    } finally {
      await engine.dispose();
    }
  }

  it.concurrent("runs from the package's plugin directory, named relative to the project in Pulumi.yaml", async ({ expect }) => {
    await roundTrip(expect, "plugin-packed-path", projectDir, {
      plugins: { providers: [{ name: "gpucloud", path: "./node_modules/pulumi-gpucloud/plugin" }] },
    });
  });

  it.concurrent("runs as an installed plugin from the tarball, with the package the project has", async ({ expect }) => {
    const version = (JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as { version: string }).version;
    const out = execFileSync(
      process.execPath,
      [path.join(installed, "dist", "provider", "plugin", "tarball.js"), path.join(base, "tarball")],
      {
        encoding: "utf8",
      },
    );
    const tarball = out.split("\n")[0] ?? "";
    expect(path.basename(tarball)).toBe(
      `pulumi-resource-gpucloud-v${version}-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}.tar.gz`,
    );
    // A second project using the same installed package, without any plugin setting.
    const otherProject = path.join(base, "other-project");
    fs.mkdirSync(otherProject);
    fs.symlinkSync(path.join(projectDir, "node_modules"), path.join(otherProject, "node_modules"), "dir");
    await roundTrip(expect, "plugin-packed-installed", otherProject, {}, (home) => {
      execFileSync(
        path.join(inject("pulumiCli").binDir, "pulumi"),
        ["plugin", "install", "resource", "gpucloud", version, "--file", tarball],
        {
          env: { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" },
          encoding: "utf8",
        },
      );
    });
  });
});
