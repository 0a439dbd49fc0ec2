/**
 * Lookups through the real engine, once per management API version: one stack makes a pod and an
 * endpoint; a second stack, given only their ids (as its config, the way a user passes another
 * stack's outputs), reads them with getPodOutput and getEndpoint and exports what it read. A
 * lookup of an id that does not exist fails the second stack's update, naming the kind and the id.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { API_VERSIONS, emulatorConfig, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

describe.each(API_VERSIONS)("lookups through the real engine on the %s API", { timeout: 300_000 }, (api) => {
  const tag = marker();
  const apiKey = `gpc_emu_lookups_key_${tag}`;
  let emulator: RunningEmulator;
  let maker: EngineStack;
  let reader: EngineStack;
  let made: { podId: string; endpointId: string; podImage: string } = { podId: "", endpointId: "", podImage: "" };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    maker = await createEngineStack({
      projectName: `lookups-maker-${api}`,
      config: emulatorConfig(emulator, apiKey, api),
      program: async () => {
        const pod = new gpucloud.Pod("trainer", {
          imageName: "ghcr.io/acme/trainer:1",
          gpuTypeIds: ["NVIDIA L4"],
          ports: ["8888/http", "22/tcp"],
          env: { LOG_LEVEL: "info" },
        });
        const template = new gpucloud.Template("worker", { name: `worker-${tag}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
        const endpoint = new gpucloud.Endpoint("inference", {
          name: `inference-${tag}`,
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: 3,
        });
        return { podId: pod.id, endpointId: endpoint.id, podImage: pod.imageName };
      },
    });
    reader = await createEngineStack({
      projectName: `lookups-reader-${api}`,
      config: emulatorConfig(emulator, apiKey, api),
      program: async () => {
        const config = new pulumi.Config();
        const pod = gpucloud.getPodOutput({ id: config.require("podId") });
        const endpoint = await gpucloud.getEndpoint({ id: config.require("endpointId") });
        return {
          podId: pod.id,
          podImage: pod.imageName,
          podStatus: pod.desiredStatus,
          podPublicIp: pod.publicIp,
          podEnv: pod.env,
          endpointId: endpoint.id,
          endpointName: endpoint.name,
          endpointWorkersMax: endpoint.workersMax,
        };
      },
    });
  });

  afterAll(async () => {
    try {
      await maker?.stack.destroy().catch(() => undefined);
    } finally {
      await maker?.dispose();
      await reader?.dispose();
      await emulator?.close();
    }
  });

  it("a second stack reads the first stack's pod and endpoint by id", async () => {
    const up = await maker.stack.up();
    expect(up.summary.result).toBe("succeeded");
    made = {
      podId: String(up.outputs["podId"]?.value),
      endpointId: String(up.outputs["endpointId"]?.value),
      podImage: String(up.outputs["podImage"]?.value),
    };
    expect(made.podId).not.toBe("");

    await reader.stack.setConfig("podId", { value: made.podId });
    await reader.stack.setConfig("endpointId", { value: made.endpointId });
    const read = await reader.stack.up();
    expect(read.summary.result).toBe("succeeded");
    const out = (name: string): unknown => read.outputs[name]?.value;
    expect(out("podId")).toBe(made.podId);
    expect(out("podImage")).toBe("ghcr.io/acme/trainer:1");
    expect(out("podStatus")).toBe("RUNNING");
    expect(out("podPublicIp")).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // The pod reports env, so the Output form's whole result is secret; the Promise form's is not.
    expect(read.outputs["podEnv"]?.secret).toBe(true);
    expect(read.outputs["podId"]?.secret).toBe(true);
    expect(read.outputs["endpointId"]?.secret).toBe(false);
    expect(out("podEnv")).toMatchObject({ LOG_LEVEL: "info" });
    expect(out("endpointId")).toBe(made.endpointId);
    expect(out("endpointName")).toBe(`inference-${tag}`);
    expect(out("endpointWorkersMax")).toBe(3);
  });

  it("a lookup of a missing id fails the update, naming the kind and the id", async () => {
    await reader.stack.setConfig("podId", { value: "no-such-pod" });
    const failure = await reader.stack.up().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain('getPod: no pod with id "no-such-pod"');
    // Printed as its one line: no "Unhandled exception" dump with a stack trace.
    expect(reader.output()).toContain('error: getPod: no pod with id "no-such-pod"');
    expect(reader.output()).not.toContain("Unhandled exception");
  });
});
