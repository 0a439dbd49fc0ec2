/**
 * Clusters with the rest of the emulator: GET /api/v2/billing/clusters (every member billed, once,
 * per cluster per bucket), the spend cap, API key scopes, the state file (a cluster and its members
 * survive a restart) and fault injection (hidden creates, failing members).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, type Json, api, sleep, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { apiV2, expectProblem } from "../../../support/v2Helpers";

const CLUSTER = {
  name: "billed",
  type: "TRAINING",
  compute: { gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCountPerPod: 2, podCount: 3 },
  image: "example/trainer:1",
};

async function create(client: Api, body: Record<string, unknown> = CLUSTER): Promise<Json> {
  const res = await client.post("/clusters", body);
  if (res.status !== 201) throw new Error(`create cluster: ${res.status} ${res.text}`);
  return res.body;
}

describe("GET /api/v2/billing/clusters", () => {
  let emu: RunningEmulator;
  let v2: Api;
  beforeAll(async () => {
    emu = await startTestEmulator({ bootDelayMs: 0 });
    v2 = apiV2(emu);
  });
  afterAll(() => emu.close());

  it("bills every member pod to its cluster (the sum of the members' pod billing), not as pods, and keeps it after the delete", async () => {
    const cluster = await create(v2);
    const other = await create(v2, { ...CLUSTER, name: "other", compute: { ...CLUSTER.compute, podCount: 2 } });
    const members = ((await v2.get(`/clusters/${cluster.id}/pods`)).body.pods as Json[]).map((pod) => pod.id as string);
    await sleep(100); // 10 s of service time
    expect((await v2.del(`/clusters/${cluster.id}`)).status).toBe(204);
    expect((await v2.del(`/clusters/${other.id}`)).status).toBe(204);

    const res = await v2.get("/billing/clusters", { clusterId: cluster.id, bucketSize: "year" });
    expect(res.status).toBe(200);
    const { records, metadata } = res.body;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ clusterId: cluster.id, diskAmount: 0, networkingAmount: 0 });
    expect(records[0].gpuAmount).toBeGreaterThan(0);
    expect(records[0].totalAmount).toBe(records[0].gpuAmount);
    expect(metadata).toMatchObject({
      query: { bucketSize: "year", clusterId: cluster.id },
      recordCount: 1,
      uniqueClusterCount: 1,
      totals: { totalAmount: records[0].totalAmount, gpuAmount: records[0].gpuAmount, diskAmount: 0, networkingAmount: 0 },
    });
    // /v1 knows no clusters and bills each member as the pod it is: their sum is the cluster's amount.
    const v1 = api(emu);
    let membersBilled = 0;
    for (const podId of members) {
      const v1Records = (await v1.get("/billing/pods", { grouping: "podId", podId, bucketSize: "year" })).body as Array<{ amount: number }>;
      expect(v1Records.length).toBeGreaterThan(0);
      membersBilled += v1Records.reduce((sum, r) => sum + r.amount, 0);
    }
    expect(records[0].totalAmount).toBeCloseTo(membersBilled, 5);
    // Billed once: the pod report of /api/v2 leaves members out.
    const podRecords = (await v2.get("/billing/pods", { bucketSize: "year" })).body.records as Json[];
    expect(podRecords.filter((r) => members.includes(r.podId))).toEqual([]);

    const all = (await v2.get("/billing/clusters", { bucketSize: "year" })).body;
    expect((all.records as Json[]).map((r) => r.clusterId).sort()).toEqual([cluster.id, other.id].sort());
    expect(all.metadata).toMatchObject({ recordCount: 2, uniqueClusterCount: 2, query: { clusterId: null } });
    expect(expectProblem(await v2.get("/billing/clusters", { bucketSize: "fortnight" }), 400).errors?.[0]).toMatch(/bucketSize/);
  });

  it("refuses a cluster over the hourly spend cap as a whole (402), making no member", async () => {
    const capped = await startTestEmulator({ spendCapPerHour: 5 });
    try {
      const client = apiV2(capped);
      // 3 pods x 2 RTX 4090 at 0.69 each: 4.14 per hour fits; 4 pods (5.52) do not.
      await create(client);
      const problem = expectProblem(await client.post("/clusters", { ...CLUSTER, compute: { ...CLUSTER.compute, podCount: 4 } }), 402);
      expect(problem.detail).toMatch(/cluster "billed" \(4 pods\)/);
      expect((await client.get("/pods", { includeClusterPods: "true", limit: "1000" })).body.pods).toHaveLength(2);
    } finally {
      await capped.close();
    }
  });

  it("needs the clusters scopes (403 for a key without them)", async () => {
    const scoped = await startTestEmulator({ apiKeys: [{ key: "pods-only", scopes: ["pods:read", "pods:write"] }] });
    try {
      const client = apiV2(scoped, "pods-only");
      expect(expectProblem(await client.get("/clusters"), 403).detail).toMatch(/clusters:read/);
      expect(expectProblem(await client.post("/clusters", CLUSTER), 403).detail).toMatch(/clusters:write/);
    } finally {
      await scoped.close();
    }
  });
});

describe("the state file", () => {
  it("a cluster and its members survive a restart: same records, members RUNNING again, still billed as the cluster's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gpucloud-clusters-state-"));
    const statePath = join(dir, "state.json");
    try {
      const first = await startTestEmulator({ statePath, bootDelayMs: 0 });
      const v2 = apiV2(first);
      const cluster = await create(v2, { ...CLUSTER, type: "SLURM" });
      await v2.patch(`/clusters/${cluster.id}`, { name: "kept" });
      const before = (await v2.get(`/clusters/${cluster.id}`)).body;
      const members = (await v2.get(`/clusters/${cluster.id}/pods`)).body.pods as Json[];
      await first.close();

      const second = await startTestEmulator({ statePath, bootDelayMs: 0 });
      try {
        const again = apiV2(second);
        expect((await again.get(`/clusters/${cluster.id}`)).body).toEqual(before);
        const restored = (await again.get(`/clusters/${cluster.id}/pods`)).body.pods as Json[];
        expect(restored.map((pod) => [pod.id, pod.name, pod.cluster, pod.status])).toEqual(
          members.map((pod) => [pod.id, pod.name, pod.cluster, "RUNNING"]),
        );
        expect((await again.get("/clusters")).body.clusters).toEqual([before]);
        // Restored members are still hidden from the pod list and still refused there.
        expect((await again.get("/pods")).body.pods).toEqual([]);
        expectProblem(await again.del(`/pods/${members[0]?.id}`), 409);
        await sleep(50);
        const billed = (await again.get("/billing/clusters", { bucketSize: "year" })).body;
        expect(billed.metadata.uniqueClusterCount).toBe(1);
        expect((await again.get("/billing/pods", { bucketSize: "year" })).body.records).toEqual([]);
        // Its GPUs are held again (6 of the 16 of its data center): a cluster wanting all 16 there waits for the delete.
        const whole = { ...CLUSTER, compute: { ...CLUSTER.compute, gpuCountPerPod: 8, podCount: 2 }, dataCenterIds: [before.dataCenterId] };
        expectProblem(await again.post("/clusters", whole), 400);
        expect((await again.del(`/clusters/${cluster.id}`)).status).toBe(204);
        expect((await again.post("/clusters", whole)).status).toBe(201);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("faults", () => {
  it("hidden=P@D keeps a new cluster out of GET /clusters for a while; GET by id finds it at once", async () => {
    const emu = await startTestEmulator({ faults: "seed=1; createCluster: hidden=1@60s" });
    try {
      const v2 = apiV2(emu);
      const cluster = await create(v2);
      expect((await v2.get("/clusters")).body.clusters).toEqual([]);
      expect((await v2.get(`/clusters/${cluster.id}`)).status).toBe(200);
      expect(emu.faultStats().injected.hidden).toBe(1);
    } finally {
      await emu.close();
    }
  });

  it("a pod fault fails members by name: the summary counts them in ERROR, and only the cluster's delete removes them", async () => {
    const emu = await startTestEmulator({ faults: "seed=1; pod doomed-*: error=1", bootDelayMs: 0 });
    try {
      const v2 = apiV2(emu);
      const cluster = await create(v2, { ...CLUSTER, name: "doomed" });
      const failed = await waitFor("every member in ERROR", async () => {
        const body = (await v2.get(`/clusters/${cluster.id}`)).body;
        return body.pods.byStatus.ERROR === 3 ? body : undefined;
      });
      expect(failed.pods).toEqual({ total: 3, byStatus: { ERROR: 3 } });
      expect(failed.primary).toMatchObject({ status: "ERROR" });
      expect(failed.primary.sshEndpoint).toBeUndefined();
      const [member] = (await v2.get(`/clusters/${cluster.id}/pods`)).body.pods as Json[];
      expectProblem(await v2.post(`/pods/${member?.id}/action`, { action: "start" }), 409);
      expect((await v2.del(`/clusters/${cluster.id}`)).status).toBe(204);
      expectProblem(await v2.get(`/pods/${member?.id}`), 404);
    } finally {
      await emu.close();
    }
  });
});
