/**
 * Failure paths through the real engine against the emulator: a pod that is not ready by its
 * deadline stays in the state (partial create) and the next up finishes it without a duplicate;
 * bad inputs fail at preview, naming the property.
 *
 * The emulator boots pods slowly here (5 service minutes = 3 s real at timeScale 0.01), so a pod
 * with a sub-second readyTimeoutSeconds is certain to miss its deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { accountOf, countsOf, emulatorConfig, loadSdk, resourceOfType } from "./provider-support";

const gpucloud = loadSdk();

interface Phase {
  readyTimeoutSeconds: number;
  volumeSize: number;
  /** When set, the program also declares a template with these ports. */
  templatePorts?: string[];
}

describe("provider failures through the real engine", { timeout: 300_000 }, () => {
  const phase: Phase = { readyTimeoutSeconds: 0.5, volumeSize: 20 };
  let emulator: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, bootDelayMs: 300_000 });
    engine = await createEngineStack({
      projectName: "provider-failures",
      config: emulatorConfig(emulator),
      program: async () => {
        const volume = new gpucloud.NetworkVolume("scratch", { name: "scratch", size: phase.volumeSize, dataCenterId: "EU-RO-1" });
        const pod = new gpucloud.Pod("slow", {
          imageName: "ghcr.io/acme/slow-boot:1",
          gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L40S", "NVIDIA A40"],
          readyTimeoutSeconds: phase.readyTimeoutSeconds,
        });
        if (phase.templatePorts !== undefined) {
          new gpucloud.Template("bad-ports", { name: "bad-ports", imageName: "ghcr.io/acme/worker:1", ports: phase.templatePorts });
        }
        return { volumeId: volume.id, podId: pod.id };
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && countsOf(accountOf(emulator)).pods + countsOf(accountOf(emulator)).networkVolumes > 0) {
        await engine.stack.destroy().catch(() => undefined);
      }
    } finally {
      await engine?.dispose();
      await emulator?.close();
    }
  });

  let partialPodId: string | undefined;

  it("keeps a pod that missed its readiness deadline in the state (partial create)", async () => {
    await expect(engine.stack.up()).rejects.toThrow(/readyTimeoutSeconds: 0\.5/);
    expect(engine.output()).toMatch(/pod "slow" \(id \w+\) is not RUNNING with a public IP and a port mapping for each tcp port after/);

    const account = accountOf(emulator);
    expect(account.pods).toHaveLength(1);
    partialPodId = account.pods[0]?.id;
    expect(account.pods[0]?.publicIp).toBeNull();

    const state = declaredResources(await engine.exportState());
    const pod = resourceOfType(state, "Pod") as (ReturnType<typeof resourceOfType> & { initErrors?: string[] }) | undefined;
    expect(pod?.id).toBe(partialPodId);
    expect(pod?.initErrors?.join("\n")).toContain("readyTimeoutSeconds");
    expect(typeof pod?.outputs?.["__provider"]).toBe("string");
    expect(resourceOfType(state, "NetworkVolume")?.id).toBe(account.networkVolumes[0]?.id);
  });

  it("fails preview on a shrinking volume and on a malformed port, naming each property", async () => {
    // The engine stops at the first resource whose check fails, so each bad input gets a preview.
    phase.volumeSize = 5;
    await expect(engine.stack.preview()).rejects.toThrow(/size: 5 GB is smaller than the current size 20 GB/);
    expect(engine.output()).toMatch(
      /NetworkVolume resource 'scratch': property size value \{5\} has a problem: size: 5 GB is smaller than the current size 20 GB; a network volume can only grow/,
    );

    phase.volumeSize = 20;
    phase.templatePorts = ["8888/udp"];
    await expect(engine.stack.preview()).rejects.toThrow(/ports\[0\]/);
    expect(engine.output()).toMatch(
      /Template resource 'bad-ports': property ports\[0\] value \{.*\} has a problem: ports\[0\]: .*8888\/udp.* is not a valid port/,
    );

    // Neither preview changed anything.
    expect(countsOf(accountOf(emulator))).toMatchObject({ pods: 1, networkVolumes: 1, templates: 0 });
    expect(accountOf(emulator).networkVolumes[0]?.size).toBe(20);
  });

  it("finishes the partially created pod on the next up, creating no duplicate", async () => {
    delete phase.templatePorts;
    phase.readyTimeoutSeconds = 60;
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 2 });
    expect(up.outputs["podId"]?.value).toBe(partialPodId);

    const account = accountOf(emulator);
    expect(account.pods.map((p) => p.id)).toEqual([partialPodId]);
    expect(account.pods[0]).toMatchObject({ desiredStatus: "RUNNING", publicIp: expect.any(String) });
    const pod = resourceOfType(declaredResources(await engine.exportState()), "Pod") as
      | (ReturnType<typeof resourceOfType> & { initErrors?: string[] })
      | undefined;
    expect(pod?.initErrors ?? []).toEqual([]);
    expect(pod?.outputs?.["publicIp"]).toBe(account.pods[0]?.publicIp);

    const destroy = await engine.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(countsOf(accountOf(emulator))).toEqual({ pods: 0, endpoints: 0, templates: 0, networkVolumes: 0, registryAuths: 0 });
  });
});
