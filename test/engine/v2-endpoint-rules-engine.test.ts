/**
 * The v2 endpoint rules through the real engine against the emulator, playing the live service's
 * PATCH defect (quirk endpointPatchRebuildsSelection, management-api-v2-today.md 6.1 #1): a GPU
 * endpoint whose types are part of a pool keeps its exclusions across an update that touches only
 * its workers, and refresh then finds nothing to change; a CPU endpoint without flavors fails
 * preview naming the field and the fix, before anything is created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ManagementClientV2 } from "../../client/managementV2";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

describe("v2 endpoint rules through the real engine", { timeout: 300_000 }, () => {
  const tag = marker();
  const phase = { workersMax: 2, cpuWithoutFlavors: false };

  let emulator: RunningEmulator;
  let engine: EngineStack;
  let clientV2: ManagementClientV2;

  beforeAll(async () => {
    emulator = await startEmulator({ timeScale: 0.02, quirks: { endpointPatchRebuildsSelection: true } });
    clientV2 = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey, maxRetries: 0 });
    engine = await createEngineStack({
      projectName: "v2-endpoint-rules",
      config: emulatorConfig(emulator, emulator.apiKey, "v2"),
      program: async () => {
        const template = new gpucloud.Template("worker", { name: `worker-${tag}`, imageName: "example/worker:1", isServerless: true });
        // ADA_24 holds the RTX 4090 and the L4: the L4 alone is the pool minus the 4090.
        const endpoint = new gpucloud.Endpoint("inference", {
          templateId: template.id,
          name: `inference-${tag}`,
          gpuTypeIds: ["NVIDIA L4"],
          workersMax: phase.workersMax,
        });
        if (phase.cpuWithoutFlavors) new gpucloud.Endpoint("cpu", { templateId: template.id, name: `cpu-${tag}`, computeType: "CPU" });
        return { endpointId: endpoint.id };
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && accountOf(emulator).endpoints.length > 0) await engine.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await clientV2?.close();
      await emulator?.close();
    }
  });

  it("an update of the workers keeps the endpoint's GPU exclusions; refresh finds no drift", async () => {
    const up = await engine.stack.up();
    const id = String(up.outputs["endpointId"]?.value);
    expect((await clientV2.endpoints.get(id)).gpu).toMatchObject({ pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] });

    phase.workersMax = 3;
    expect((await engine.stack.up()).summary.resourceChanges).toMatchObject({ update: 1 });
    const live = await clientV2.endpoints.get(id);
    expect(live.workers?.max).toBe(3);
    expect(live.gpu).toMatchObject({ pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090"] });

    await engine.stack.refresh();
    const preview = await engine.stack.preview();
    expect(preview.changeSummary).not.toHaveProperty("update");
  });

  it("a CPU endpoint without flavors fails preview naming cpuFlavorIds and the fix", async () => {
    phase.cpuWithoutFlavors = true;
    const endpointsBefore = accountOf(emulator).endpoints.length;
    let message = "";
    try {
      await engine.stack.preview();
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toMatch(/cpuFlavorIds.*needs at least one CPU flavor.*set cpuFlavorIds, e\.g\. \["cpu3c"\]/s);
    expect(accountOf(emulator).endpoints.length).toBe(endpointsBefore);
    phase.cpuWithoutFlavors = false;
  });
});
