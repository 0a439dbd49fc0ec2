/**
 * The live service's reported quirks through the real engine: with every switchable quirk of the
 * emulator on at once (dataCenterIds sorted and as one string, " -fb" on FlashBoot endpoint names,
 * costPerHr as a string, PUBLIC_KEY and PORT injected, DELETE 200, 422 for unknown fields), an
 * `up` is followed by a clean `preview --expect-no-changes` and a refresh that changes nothing, and a
 * FlashBoot endpoint whose create answer is lost is found again instead of created twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();

describe("live quirks through the real engine", { timeout: 300_000 }, () => {
  const phase = { secondEndpoint: false };
  let emulator: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      timeScale: 0.001,
      quirks: {
        endpointDataCenterIdsSorted: true,
        endpointDataCenterIdsAsString: true,
        flashBootNameSuffix: true,
        costPerHrAsString: true,
        deleteStatus: 200,
        unknownFieldStatus: 422,
        idleEndpointWorkersMaxDecay: false,
      },
    });
    engine = await createEngineStack({
      projectName: "live-quirks",
      config: emulatorConfig(emulator),
      program: async () => {
        const template = new gpucloud.Template("worker", {
          name: "quirks-worker",
          imageName: "ghcr.io/acme/worker:1",
          isServerless: true,
          env: { MODE: "fast" },
        });
        const endpoint = new gpucloud.Endpoint("inference", {
          name: "quirks-inference",
          templateId: template.id,
          flashboot: true,
          dataCenterIds: ["US-TX-3", "EU-RO-1"],
          gpuTypeIds: ["NVIDIA L4"],
          workersMax: 2,
        });
        const notebook = new gpucloud.Pod("notebook", {
          name: "quirks-notebook",
          imageName: "jupyter/base:1",
          ports: ["8888/http"],
          env: { TOKEN: "t" },
          gpuTypeIds: ["NVIDIA L4"],
        });
        const outputs: Record<string, unknown> = { endpointName: endpoint.name, podCost: notebook.costPerHr };
        if (phase.secondEndpoint) {
          const second = new gpucloud.Endpoint("second", {
            name: "quirks-second",
            templateId: template.id,
            flashboot: true,
            dataCenterIds: ["US-TX-3", "EU-RO-1"],
            workersMax: 1,
          });
          outputs["secondId"] = second.id;
        }
        return outputs;
      },
    });
  });

  afterAll(async () => {
    try {
      await engine?.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await emulator?.close();
    }
  });

  it("up, then preview --expect-no-changes is clean and refresh changes nothing", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    // The quirks are really on: the service reports what the provider has to see through.
    const live = accountOf(emulator).endpoints.find((e) => e.name.startsWith("quirks-inference"));
    expect(live?.name).toBe("quirks-inference -fb");
    expect(live?.dataCenterIds).toBe("EU-RO-1,US-TX-3");
    expect(up.outputs["endpointName"]?.value).toBe("quirks-inference");
    expect(typeof up.outputs["podCost"]?.value).toBe("number");

    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 4 });
    const refresh = await engine.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 4 });
    const again = await engine.stack.preview({ expectNoChanges: true });
    expect(again.changeSummary).toEqual({ same: 4 });
  });

  it("a FlashBoot endpoint whose create answer is lost is found again, never created twice", async () => {
    phase.secondEndpoint = true;
    emulator.setFaults("CreateEndpoint: lost=1");
    try {
      const up = await engine.stack.up();
      expect(up.summary.result).toBe("succeeded");
    } finally {
      emulator.setFaults(undefined);
    }
    const named = accountOf(emulator).endpoints.filter((e) => e.name === "quirks-second -fb");
    expect(named).toHaveLength(1);
    const state = declaredResources(await engine.exportState());
    expect(state.find((r) => r.urn.endsWith("::second"))?.id).toBe(named[0]?.id);
    expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 5 });
  });
});
