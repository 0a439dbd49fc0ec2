/**
 * A stack moving between the TypeScript SDK's (dynamic) resources and the provider plugin, with no
 * replacement either way. To the plugin: the program declares the same resources as
 * `gpucloud:index:*` with an alias of their old type (`pulumi-nodejs:dynamic/gpucloud:<Kind>`), and
 * the engine plans no change at all, before and after a refresh, which also drops the dynamic
 * provider's text from the state. Both ways of declaring them: the typed classes of
 * `pulumi-gpucloud/plugin`, every kind the API serves, and resources declared by type token. Back
 * to the dynamic resources: the alias names the plugin's type (`gpucloud:index:<Kind>`); the
 * provider text returns to the state as an update in place, and nothing is replaced.
 * Docs: docs/plugin-typescript.md, "Moving a stack between the two".
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";
import { API_VERSIONS, type ApiVersion, accountOf, emulatorConfig, loadPluginSdk, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();
const typed = loadPluginSdk();

type Path = "dynamic" | "typed" | "by token";

/** The alias a resource declared on one path writes to keep the state it had on the other. */
const aliasFrom = (from: Path, kind: string): pulumi.Alias =>
  from === "dynamic" ? { type: `pulumi-nodejs:dynamic/gpucloud:${kind}` } : { type: `gpucloud:index:${kind}` };

/**
 * The resources, declared on `path`, aliased to `from` when it differs: every kind the API serves,
 * or (for the stack that moves to resources declared by type token) a template and a pod. The
 * classes of both paths take the same arguments, so one set of arguments serves both.
 */
function declareResources(api: ApiVersion, tag: string, path: Path, from: Path, everyKind: boolean): void {
  const opts = (kind: string): pulumi.CustomResourceOptions => (from === path ? {} : { aliases: [aliasFrom(from, kind)] });
  const classes = path === "dynamic" ? gpucloud : typed;
  const registryArgs = { name: `ghcr-${tag}`, username: "robot", password: pulumi.secret("registry-password") };
  const templateArgs = { name: `migrated-${tag}`, imageName: "ghcr.io/acme/worker:1", env: { MODEL: "m" }, isServerless: true };
  const volumeArgs = { name: `models-${tag}`, size: 10, dataCenterId: "EU-RO-1" };
  const podArgs = { imageName: "ghcr.io/acme/trainer:1", gpuTypeIds: ["NVIDIA L4"], containerDiskInGb: 30 };
  if (path === "by token") {
    new PluginResource("Template", "worker", templateArgs, opts("Template"));
    new PluginResource("Pod", "trainer", podArgs, opts("Pod"));
    return;
  }
  if (!everyKind) {
    new classes.Template("worker", templateArgs, opts("Template"));
    new classes.Pod("trainer", podArgs, opts("Pod"));
    return;
  }
  const registry = new classes.RegistryAuth("registry", registryArgs, opts("RegistryAuth"));
  const template = new classes.Template("worker", { ...templateArgs, containerRegistryAuthId: registry.id }, opts("Template"));
  new classes.NetworkVolume("models", volumeArgs, opts("NetworkVolume"));
  new classes.Endpoint("inference", { templateId: template.id, gpuTypeIds: ["NVIDIA L4"], workersMax: 2 }, opts("Endpoint"));
  new classes.Pod("trainer", podArgs, opts("Pod"));
  if (api === "v2") {
    new classes.Secret("token", { name: `hf-token-${tag}`, value: pulumi.secret("hf_migrated") }, opts("Secret"));
    new classes.AccountSshKeys("keys", { keys: ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMigrate ci@migrate"] }, opts("AccountSshKeys"));
  }
}

describe("moving a stack between the dynamic resources and the provider plugin", { timeout: 600_000 }, () => {
  const cases = API_VERSIONS.flatMap((api) => (["typed", "by token"] as const).map((to) => ({ api, to })));
  it.concurrent.for(cases)(
    "on the $api API, to the plugin $to: an alias of the old type, and nothing is replaced",
    async ({ api, to }, { expect }) => {
      const emulator = await startEmulator({ port: 0, timeScale: 0.01 });
      const tag = marker();
      const steps: { path: Path; from: Path } = { path: "dynamic", from: "dynamic" };
      const engine = await createEngineStack({
        projectName: `plugin-migrate-${api}-${to.replace(" ", "-")}`,
        config: emulatorConfig(emulator, emulator.apiKey, api),
        projectSettings: pluginProjectSettings(),
        program: async () => {
          declareResources(api, tag, steps.path, steps.from, to === "typed");
          return {};
        },
      });
      const idsOf = async () => declaredResources(await engine.exportState()).map((r) => `${r.urn.split("::").pop()}=${r.id}`);
      try {
        const created = await engine.stack.up();
        const count = Object.values(created.summary.resourceChanges ?? {}).reduce((a, b) => a + b, 0);
        expect(created.summary.resourceChanges).toEqual({ create: count });
        expect(count).toBe(to === "by token" ? 3 : api === "v2" ? 8 : 6);
        const ids = (await idsOf()).sort();

        Object.assign(steps, { path: to, from: "dynamic" });
        expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: count });
        expect((await engine.stack.up()).summary.resourceChanges).toEqual({ same: count });
        expect(new Set(declaredResources(await engine.exportState()).map((r) => r.type.split(":")[0]))).toEqual(new Set(["gpucloud"]));
        await engine.stack.refresh();
        expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: count });
        for (const resource of declaredResources(await engine.exportState())) expect(resource.outputs?.["__provider"]).toBeUndefined();
        expect((await idsOf()).sort()).toEqual(ids);

        if (to === "typed") {
          // And back: the dynamic provider's text returns to each resource's state as an update, nothing else.
          Object.assign(steps, { path: "dynamic", from: to });
          const back = await engine.stack.up();
          expect(back.summary.resourceChanges).not.toHaveProperty("replace");
          expect(back.summary.resourceChanges).not.toHaveProperty("create");
          expect(back.summary.resourceChanges).not.toHaveProperty("delete");
          Object.assign(steps, { from: "dynamic" });
          expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: count });
          for (const resource of declaredResources(await engine.exportState())) expect(resource.outputs?.["__provider"]).toBeDefined();
          expect((await idsOf()).sort()).toEqual(ids);
        }
        await engine.stack.destroy();
        expect(accountOf(emulator).pods.filter((p) => p.desiredStatus !== "TERMINATED")).toEqual([]);
        expect(accountOf(emulator).endpoints).toEqual([]);
        expect(accountOf(emulator).registryAuths).toEqual([]);
      } finally {
        await engine.dispose();
        await emulator.close();
      }
    },
  );
});
