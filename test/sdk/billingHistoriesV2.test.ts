// The v2 billing reads of sdk/billingV2.ts against the emulator over HTTP: every history of the
// reference (the aggregate, pods, serverless, public endpoints, network volumes, clusters) with its
// filter, in the service's field names; the v1 API refused with the fix; bad arguments refused
// before any request, naming the argument, the value and the fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  BillingQueryError,
  ConfigError,
  getAccountBilling,
  getClusterBilling,
  getNetworkVolumeBilling,
  getPodBilling,
  getPublicEndpointBilling,
  getServerlessBilling,
} from "../../sdk/index";
import { type Api, sleep, startTestEmulator } from "../support/managementHelpers";
import { V2_GPU_POD, V2_ONE_WORKER_LB_ENDPOINT, apiV2, waitForIdleWorker } from "../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;
let options: { apiUrl: string; apiKey: string };
const ids: Record<"pod" | "endpoint" | "volume" | "cluster", string> = { pod: "", endpoint: "", volume: "", cluster: "" };

beforeAll(async () => {
  emu = await startTestEmulator({ bootDelayMs: 0 });
  v2 = apiV2(emu);
  options = { apiUrl: emu.apiUrlV2, apiKey: emu.apiKey };
  ids.pod = (await v2.post("/pods", { ...V2_GPU_POD, name: "billed" })).body.id;
  ids.endpoint = (await v2.post("/serverless", { ...V2_ONE_WORKER_LB_ENDPOINT, workers: { min: 1, max: 1 } })).body.id;
  ids.volume = (await v2.post("/network-volumes", { name: "billed", size: 10, dataCenter: "EU-RO-1" })).body.id;
  const cluster = await v2.post("/clusters", {
    name: "billed",
    type: "TRAINING",
    compute: { gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCountPerPod: 1, podCount: 2 },
    image: "example/trainer:1",
  });
  ids.cluster = cluster.body.id;
  await waitForIdleWorker(v2, ids.endpoint);
  await sleep(200); // service time passes: every resource has a bill
});
afterAll(() => emu.close());

describe("v2 billing reads", () => {
  it("getPodBilling: the pod's records in the service's names, filtered by podId, with metadata", async () => {
    const bill = await getPodBilling({ podId: ids.pod, bucketSize: "hour", lastN: 2 }, options);
    expect(bill.records.length).toBeGreaterThan(0);
    expect(bill.records.every((r) => r.podId === ids.pod && r.totalAmount > 0 && typeof r.gpuAmount === "number")).toBe(true);
    expect(bill.metadata).toMatchObject({
      query: { podId: ids.pod, bucketSize: "hour" },
      recordCount: bill.records.length,
      uniquePodCount: 1,
    });
  });

  it("getServerlessBilling, getNetworkVolumeBilling and getClusterBilling filter by their own id", async () => {
    const serverless = await getServerlessBilling({ serverlessId: ids.endpoint }, options);
    expect(serverless.records.length).toBeGreaterThan(0);
    expect(serverless.records.every((r) => r.serverlessId === ids.endpoint && typeof r.feeAmount === "number")).toBe(true);
    const volumes = await getNetworkVolumeBilling({ networkVolumeId: ids.volume }, options);
    expect(volumes.records.every((r) => r.networkVolumeId === ids.volume && typeof r.standardAmount === "number")).toBe(true);
    expect(volumes.metadata?.uniqueNetworkVolumeCount).toBe(1);
    const clusters = await getClusterBilling({ clusterId: ids.cluster, startTime: new Date(Date.now() - 86_400_000) }, options);
    expect(clusters.records.length).toBeGreaterThan(0);
    expect(clusters.records.every((r) => r.clusterId === ids.cluster && typeof r.networkingAmount === "number")).toBe(true);
  });

  it("getAccountBilling sums every history per bucket; getPublicEndpointBilling answers its own history", async () => {
    const account = await getAccountBilling({ bucketSize: "year", lastN: 1 }, options);
    expect(account.records).toHaveLength(1);
    const [bucket] = account.records;
    expect(bucket?.podGpuAmount).toBeGreaterThan(0);
    expect(bucket?.clusterGpuAmount).toBeGreaterThan(0);
    expect(bucket?.serverlessGpuAmount).toBeGreaterThan(0);
    expect(account.metadata?.totals?.["totalAmount"]).toBe(bucket?.totalAmount);
    const publicEndpoints = await getPublicEndpointBilling({}, options);
    expect(Array.isArray(publicEndpoints.records)).toBe(true);
    expect(publicEndpoints.metadata?.query?.bucketSize).toBe("day");
  });

  it("refuse the v1 API, naming the setting and the /v2 fix", async () => {
    const v1 = { apiUrl: emu.apiUrl, apiKey: emu.apiKey };
    for (const read of [
      getAccountBilling,
      getPodBilling,
      getServerlessBilling,
      getPublicEndpointBilling,
      getNetworkVolumeBilling,
      getClusterBilling,
    ]) {
      const error = await read({}, v1).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^get\w+Billing needs the service's v2 API, .* to the \/v2 URL\.$/);
    }
  });

  it("refuse bad arguments before any request, naming the argument, the value and the fix", async () => {
    const nowhere = { apiUrl: "http://127.0.0.1:1/v2", apiKey: "k" };
    const cases: Array<[Promise<unknown>, string]> = [
      [
        getPodBilling({ lastN: 0 }, nowhere),
        "invalid getPodBilling arguments: lastN must be a whole number of buckets, at least 1 (got 0)",
      ],
      [
        getAccountBilling({ lastN: 3, startTime: "2026-01-01T00:00:00Z" }, nowhere),
        "invalid getAccountBilling arguments: lastN (3) counts back from now and cannot be combined with startTime or endTime: give lastN alone, or startTime/endTime",
      ],
      [
        getClusterBilling({ startTime: "2026-02-01T00:00:00Z", endTime: "2026-01-01T00:00:00Z" }, nowhere),
        "invalid getClusterBilling arguments: endTime (2026-01-01T00:00:00.000Z) must be after startTime (2026-02-01T00:00:00.000Z)",
      ],
      [
        getNetworkVolumeBilling({ startTime: "2026-02-30" }, nowhere),
        'invalid getNetworkVolumeBilling arguments: startTime must be an ISO 8601 date-time such as "2026-01-31T00:00:00Z" (got "2026-02-30")',
      ],
      [
        getPublicEndpointBilling({ bucketSize: "minute" as "hour" }, nowhere),
        'invalid getPublicEndpointBilling arguments: bucketSize must be one of hour, day, week, month, year (got "minute")',
      ],
      [
        getServerlessBilling({ podId: "p" } as unknown as { serverlessId: string }, nowhere),
        "invalid getServerlessBilling arguments: podId is not an argument of getServerlessBilling; remove it (getServerlessBilling takes startTime, endTime, bucketSize, lastN, serverlessId)",
      ],
      [
        getPodBilling({ gpuTypeId: "NVIDIA L4" } as unknown as { podId: string }, nowhere),
        "invalid getPodBilling arguments: gpuTypeId is not a filter of the v2 billing histories (they filter by one resource id only); remove it (getPodBilling takes startTime, endTime, bucketSize, lastN, podId)",
      ],
      [
        getPodBilling({ podId: "" }, nowhere),
        'invalid getPodBilling arguments: podId must be a non-empty id string (got ""); omit it for every record',
      ],
    ];
    for (const [call, message] of cases) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BillingQueryError);
      expect((error as Error).message).toBe(message);
    }
  });
});
