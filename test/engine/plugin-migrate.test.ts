/**
 * A stack of the TypeScript SDK's (dynamic) resources moving to the provider plugin: the program
 * declares the same resources as `gpucloud:index:*` with an alias of their old type, and the engine
 * plans no change at all (no replacement, no update), before and after a refresh, which also
 * drops the dynamic provider's text from the state. On each management API.
 */
import { describe, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";
import { API_VERSIONS, accountOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();

describe("moving a stack from the dynamic resources to the provider plugin", { timeout: 600_000 }, () => {
  it.concurrent.for(API_VERSIONS)("on the %s API: an alias of the old type, and nothing changes", async (api, { expect }) => {
    const emulator = await startEmulator({ port: 0, timeScale: 0.01 });
    let plugin = false;
    const templateArgs = { name: `migrated-${api}`, imageName: "ghcr.io/acme/worker:1", env: { MODEL: "m" } };
    const podArgs = { imageName: "ghcr.io/acme/trainer:1", gpuTypeIds: ["NVIDIA L4"], containerDiskInGb: 30 };
    const engine = await createEngineStack({
      projectName: `plugin-migrate-${api}`,
      config: emulatorConfig(emulator, emulator.apiKey, api),
      projectSettings: pluginProjectSettings(),
      program: async () => {
        if (!plugin) {
          new gpucloud.Template("worker", templateArgs);
          new gpucloud.Pod("trainer", podArgs);
        } else {
          new PluginResource("Template", "worker", templateArgs, { aliases: [{ type: "pulumi-nodejs:dynamic/gpucloud:Template" }] });
          new PluginResource("Pod", "trainer", podArgs, { aliases: [{ type: "pulumi-nodejs:dynamic/gpucloud:Pod" }] });
        }
        return {};
      },
    });
    try {
      expect((await engine.stack.up()).summary.resourceChanges).toEqual({ create: 3 });
      const ids = accountOf(emulator).pods.map((p) => p.id);
      plugin = true;
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 3 });
      expect((await engine.stack.up()).summary.resourceChanges).toEqual({ same: 3 });
      expect(
        declaredResources(await engine.exportState())
          .map((r) => r.type)
          .sort(),
      ).toEqual(["gpucloud:index:Pod", "gpucloud:index:Template"]);
      await engine.stack.refresh();
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 3 });
      for (const resource of declaredResources(await engine.exportState())) expect(resource.outputs?.["__provider"]).toBeUndefined();
      // The same pod all along.
      expect(accountOf(emulator).pods.map((p) => p.id)).toEqual(ids);
      await engine.stack.destroy();
      expect(accountOf(emulator).pods.filter((p) => p.desiredStatus !== "TERMINATED")).toEqual([]);
    } finally {
      await engine.dispose();
      await emulator.close();
    }
  });
});
