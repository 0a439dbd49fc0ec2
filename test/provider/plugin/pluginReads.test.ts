// The plugin's read functions (what Python and Go programs call through the generated SDKs),
// spoken to as the engine does, against the emulator: an endpoint's workers and releases, public
// templates, a pod's log, billing; the v1 refusal and bad arguments as errors the engine shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { closeClients } from "../../../model/connection";
import { SECRET_SIG, SECRET_SIG_KEY } from "../../../provider/plugin/protocol";
import { waitFor } from "../../support/managementHelpers";
import { V2_GPU_POD, V2_ONE_WORKER_LB_ENDPOINT, apiV2, waitForIdleWorker } from "../../support/v2Helpers";
import { startPluginClient, type PluginClient } from "./pluginClient";

const secret = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, value });
const fn = (name: string) => `gpucloud:index:${name}`;

let emulator: RunningEmulator;
let plugin: PluginClient;
beforeAll(async () => {
  for (const key of ["PULUMI_CONFIG", "GPUCLOUD_API_KEY", "GPUCLOUD_API_URL"]) delete process.env[key];
  emulator = await startEmulator({ port: 0, timeScale: 0.01 });
  plugin = await startPluginClient();
});
afterAll(async () => {
  await plugin?.close();
  await closeClients();
  await emulator?.close();
});

describe("the plugin's read functions", () => {
  it("serve the workers, releases, public templates, a pod's log and billing on v2", async () => {
    await plugin.configure({ apiUrl: emulator.apiUrlV2, apiKey: secret(emulator.apiKey) });
    const v2 = apiV2(emulator);
    const endpoint = (await v2.post("/serverless", { ...V2_ONE_WORKER_LB_ENDPOINT, workers: { min: 1, max: 1 } })).body;
    await waitForIdleWorker(v2, endpoint.id);
    const workers = await plugin.invoke(fn("getEndpointWorkers"), { endpointId: endpoint.id });
    expect(workers).toMatchObject({ endpointVersion: 0, summary: { idle: 1, total: 1 }, workers: [{ status: "IDLE", isStale: false }] });
    const releases = await plugin.invoke(fn("getEndpointReleases"), { endpointId: endpoint.id });
    expect(releases).toMatchObject({ endpointVersion: 0, rollout: { workersTotal: 1 }, releases: [{ version: 0 }] });
    const templates = (await plugin.invoke(fn("getPublicTemplates"), {})) as { templates: Array<{ id: string }> };
    expect(templates.templates.map((t) => t.id)).toContain("svcpytorch");

    const pod = (await v2.post("/pods", { ...V2_GPU_POD, name: "plugin-log" })).body;
    emulator.writePodLog(pod.id, "ready");
    const log = await plugin.invoke(fn("getPodLog"), { podId: pod.id, lines: 1, source: "container" });
    expect(log).toMatchObject({ lines: [{ line: "ready", source: "container" }], url: `${emulator.apiUrlV2}/pods/${pod.id}/logs` });

    const bill = await waitFor("a pod bill", async () => {
      const read = (await plugin.invoke(fn("getPodBilling"), { podId: pod.id, bucketSize: "hour", lastN: 1 })) as {
        records: Array<{ podId: string; totalAmount: number }>;
      };
      return read.records.length > 0 ? read : undefined;
    });
    expect(bill.records[0]?.podId).toBe(pod.id);
    const account = await plugin.invoke(fn("getAccountBilling"), { bucketSize: "year", lastN: 1 });
    expect(account).toMatchObject({ metadata: { recordCount: 1 } });
  });

  it("refuse bad arguments with the argument, the value and the fix", async () => {
    await plugin.configure({ apiUrl: emulator.apiUrlV2, apiKey: secret(emulator.apiKey) });
    await expect(plugin.invoke(fn("getClusterBilling"), { lastN: 2, endTime: "2026-01-01T00:00:00Z" })).rejects.toThrow(
      /invalid getClusterBilling arguments: lastN \(2\) counts back from now and cannot be combined with startTime or endTime/,
    );
    await expect(plugin.invoke(fn("getEndpointWorkers"), {})).rejects.toThrow(
      /invalid getEndpointWorkers arguments: endpointId is required/,
    );
  });

  it("refuse the v1 API, saying to give the /v2 URL", async () => {
    await plugin.configure({ apiUrl: emulator.apiUrl, apiKey: secret(emulator.apiKey) });
    await expect(plugin.invoke(fn("getEndpointReleases"), { endpointId: "e" })).rejects.toThrow(
      /getEndpointReleases needs the service's v2 API, .* to the \/v2 URL/,
    );
    await expect(plugin.invoke(fn("getNetworkVolumeBilling"), {})).rejects.toThrow(/getNetworkVolumeBilling needs the service's v2 API/);
  });
});
