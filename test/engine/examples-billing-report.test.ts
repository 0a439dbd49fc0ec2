/**
 * examples/billing-report through the real engine on the v2 URL its README gives: v2 has no billing
 * groupings, so the program asks for none there and groups the pods by GPU type itself (each pod's
 * type looked up once). A pod that ran for a while shows under its GPU type.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ManagementClient } from "../../client/management";
import { program } from "../../examples/billing-report/program";
import { createEngineStack, type EngineStack } from "../support/engineStack";

describe("examples/billing-report, through the real engine on the v2 API", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.001 });
    const client = new ManagementClient({ baseUrl: emu.apiUrl, apiKey: emu.apiKey });
    await client.createPod({ name: "trainer", imageName: "ghcr.io/acme/trainer:1", gpuTypeIds: ["NVIDIA L4"], gpuCount: 1 });
    await client.close();
    await emu.clock.sleep(30 * 60_000); // half an hour of service time running
    engine = await createEngineStack({
      projectName: "gpucloud-billing-report",
      stackName: "dev",
      program: async () => program(),
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrlV2 },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
        "gpucloud-billing-report:bucketSize": { value: "hour" },
      },
    });
  });

  afterAll(async () => {
    await engine?.dispose();
    await emu?.close();
  });

  it("runs as its README says, and groups the pods by GPU type on the client side", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const rows = up.outputs["podsByGpuType"]?.value as Array<{ gpuTypeId: string; usd: number }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.gpuTypeId))).toEqual(new Set(["NVIDIA L4"]));
    expect(rows.reduce((sum, r) => sum + r.usd, 0)).toBeGreaterThan(0);
    expect(up.outputs["podsUsd"]?.value).toBeGreaterThan(0);
  });
});
