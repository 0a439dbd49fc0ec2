/**
 * `pulumi import` in a TypeScript project with the provider plugin: one resource of every kind,
 * made directly through the emulator's v2 API (outside any stack), imported by the CLI in a project
 * folder (`runtime: nodejs`), which prints the program to declare them. The printed file imports
 * `pulumi-gpucloud/plugin` (the schema's Node.js packageName) and compiles as printed with the
 * tsconfig a new TypeScript project starts with. Run as the stack's program, the kinds whose
 * arguments the service answers (Pod, Template, NetworkVolume, AccountSshKeys, and a v2 endpoint,
 * whose templateId is needed only to create one) plan no change; what the service never answers is
 * printed empty with a warning naming it, and once filled in, a secret's value is set by an update
 * in place. A registry
 * credential (whose username and password can only be set at create, so filling them in plans a
 * replacement) is imported on its own, and its printed file compiles too.
 *
 * The CLI built from Go modules has no Node.js language host, which prints the code:
 * scripts/gensdk/nodejs-host.sh builds a stand-in that generates programs with the CLI's own
 * TypeScript code generator (it needs Go, as `npm run sdk:generate` does).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { describe, inject, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { openManagementApi } from "../../model/backend/openApi";
import { secretsOf } from "../../model/backend/port";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { pluginProjectSettings } from "../support/pluginProgram";
import { emulatorConfig, marker } from "./provider-support";

const repoRoot = path.resolve(__dirname, "..", "..");

/** The tsconfig.json a new TypeScript project of the Pulumi CLI starts with. */
const STOCK_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** The directory of the stand-in Node.js language host (built on first use). */
function nodejsHostDir(): string {
  const out = execFileSync("bash", [path.join(repoRoot, "scripts", "gensdk", "nodejs-host.sh")], { encoding: "utf8" });
  return out.trim().split("\n").pop() ?? "";
}

describe("pulumi import in a TypeScript project, with the provider plugin", { timeout: 900_000 }, () => {
  it("on the v2 API, every kind: the printed program compiles as printed; what the service answers plans no change", async ({ expect }) => {
    const started = Date.now();
    const tag = marker();
    const emulator = await startEmulator({ port: 0, timeScale: 0.01 });
    const { api, close } = openManagementApi({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey });
    let program: (() => void) | undefined;
    const engine = await createEngineStack({
      projectName: "plugin-import-typescript",
      config: emulatorConfig(emulator, emulator.apiKey, "v2"),
      projectSettings: pluginProjectSettings(),
      program: async () => {
        program?.();
        return {};
      },
    });
    try {
      const registry = await api.registryAuths.create({ name: `ghcr-${tag}`, username: "robot", password: "registry-password" });
      const template = await api.templates.create({ name: `worker-${tag}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
      const volume = await api.networkVolumes.create({ name: `models-${tag}`, size: 10, dataCenterId: "EU-RO-1" });
      const endpoint = await api.endpoints.create({
        name: `inference-${tag}`,
        templateId: template.id,
        gpuTypeIds: ["NVIDIA L4"],
        workersMax: 2,
      });
      const pod = await api.pods.create({ name: `trainer-${tag}`, imageName: "ghcr.io/acme/trainer:1", gpuTypeIds: ["NVIDIA L4"] });
      const secret = await secretsOf(api).create({ name: `hf-token-${tag}`, value: "hf_imported" });
      await api.account?.replaceSshKeys(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIImport ci@import"]);
      const imports = [
        ["Template", "worker", template.id],
        ["NetworkVolume", "models", volume.id],
        ["Endpoint", "inference", endpoint.id],
        ["Pod", "trainer", pod.id],
        ["Secret", "token", secret.id],
        ["AccountSshKeys", "keys", "account-ssh-keys-imported"],
      ] as const;
      fs.writeFileSync(
        path.join(engine.workDir, "resources.json"),
        JSON.stringify({ resources: imports.map(([kind, name, id]) => ({ type: `gpucloud:index:${kind}`, name, id })) }),
      );

      // The CLI in the project folder, as a user runs it.
      const workspace = engine.stack.workspace as LocalWorkspace;
      const env = { ...process.env, ...workspace.envVars };
      env["PATH"] = [nodejsHostDir(), env["PATH"]].join(path.delimiter);
      const pulumi = path.join(inject("pulumiCli").binDir, "pulumi");
      // Not a synchronous spawn: the emulator serves the provider's reads from this process.
      const pulumiImport = async (args: string[], out: string): Promise<{ printed: string; code: string }> => {
        const flags = ["--out", out, "--yes", "--non-interactive", "--stack", "test"];
        const { stdout } = await promisify(execFile)(pulumi, ["import", ...args, ...flags], { cwd: engine.workDir, env, encoding: "utf8" });
        const code = fs.readFileSync(path.join(engine.workDir, out), "utf8");
        expect(code).toContain('import * as gpucloud from "pulumi-gpucloud/plugin";');
        return { printed: stdout, code };
      };
      const { printed, code } = await pulumiImport(["--file", "resources.json"], "index.ts");
      expect(printed).toMatch(/= 6 imported/);
      for (const [kind, name] of imports) expect(code).toContain(`new gpucloud.${kind}("${name}"`);
      // What the service never answers is printed empty, and the import says which field to set.
      expect(code).toMatch(/value: ""/);
      expect(printed).toMatch(/value: is required/);
      // A v2 endpoint reports no template: it is printed without one, which only a create needs.
      expect(code).not.toMatch(/templateId/);

      // Compiled as printed, with a new project's tsconfig, against the package as installed.
      const project = path.join(engine.workDir, "printed");
      fs.mkdirSync(project);
      fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(project, "node_modules"), "dir");
      fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(STOCK_TSCONFIG, null, 2));
      const compile = (source: string) => {
        fs.writeFileSync(path.join(project, "index.ts"), source);
        execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", project], { encoding: "utf8" });
      };
      compile(code);

      // The stack's program: the printed file with the unanswered values filled in.
      compile(code.replace('value: ""', 'value: pulumi.secret("hf_imported")'));
      const compiled = path.join(project, "bin", "index.js");
      program = () => {
        delete require.cache[compiled];
        require(compiled);
      };
      const steps: Record<string, string> = {};
      await engine.stack.preview({
        onEvent: (event) => {
          const step = event.resourcePreEvent?.metadata;
          if (step?.type.startsWith("gpucloud:index:")) steps[step.urn.split("::").pop() ?? ""] = step.op;
        },
      });
      expect(steps).toEqual({
        worker: "same",
        models: "same",
        trainer: "same",
        keys: "same",
        inference: "same",
        token: "update",
      });
      expect(
        declaredResources(await engine.exportState())
          .map((r) => r.id)
          .sort(),
      ).toEqual(imports.map(([, , id]) => id).sort());

      // A registry credential, imported after: its printed file compiles as printed too.
      const registryImport = await pulumiImport(["gpucloud:index:RegistryAuth", "registry", registry.id], "registry.ts");
      expect(registryImport.code).toContain('new gpucloud.RegistryAuth("registry"');
      for (const field of ["username", "password"]) expect(registryImport.code).toMatch(new RegExp(`${field}: ""`));
      compile(registryImport.code);
      console.log(`[plugin import, TypeScript] ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await close();
      await engine.dispose();
      await emulator.close();
    }
  });
});
