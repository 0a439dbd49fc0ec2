/**
 * /api/v2/clusters over real HTTP: create (homogeneous members in one data center, roles, overlay,
 * primary), list, get, rename only, delete with its members, the members' list, and the members in
 * the pod routes (hidden from GET /pods unless asked, after the page is cut; not changed there).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, type Json, api, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { V2_GPU_POD, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  // 60 s of boot is 600 ms real at this time scale: a new cluster's members are PROVISIONING when its
  // create answers, even on a loaded machine. The test suite's page size is 2 (vitest.config.mts),
  // so walking every page makes many reads: the account's rate limit (60 a minute on v2) is not
  // what this file tests, and would answer 429 to a slow run.
  emu = await startTestEmulator({ bootDelayMs: 60_000, rateLimit: false });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

/** A two-pod cluster of one RTX 4090 each, with SSH exposed. */
const CLUSTER = {
  name: "train",
  type: "TRAINING",
  compute: { gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCountPerPod: 1, podCount: 2 },
  image: "example/trainer:1",
  ports: ["22/tcp"],
  env: { EPOCHS: "3" },
};

async function createCluster(body: Record<string, unknown>): Promise<Json> {
  const res = await v2.post("/clusters", body);
  if (res.status !== 201) throw new Error(`create cluster: ${res.status} ${res.text}`);
  return res.body;
}

/** Every pod of the account, members included, over all pages. */
async function everyPodId(): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = (await v2.get("/pods", { includeClusterPods: "true", ...(cursor ? { cursor } : {}) })).body;
    ids.push(...(page.pods as Json[]).map((pod) => pod.id as string));
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return ids.sort();
}

async function membersOf(id: string): Promise<Json[]> {
  const res = await v2.get(`/clusters/${id}/pods`);
  expect(res.status).toBe(200);
  return res.body.pods as Json[];
}

describe("POST /api/v2/clusters", () => {
  it("creates the cluster (201) and one member pod per podCount, identical, in one data center, ranked, on one overlay", async () => {
    const cluster = await createCluster({
      ...CLUSTER,
      compute: { ...CLUSTER.compute, podCount: 3 },
      dataCenterIds: ["EU-SE-1", "US-TX-3"],
    });
    expect(cluster).toMatchObject({
      name: "train",
      type: "TRAINING",
      compute: { gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCountPerPod: 1, podCount: 3 },
      dataCenterId: "EU-SE-1",
      pods: { total: 3, byStatus: { PROVISIONING: 3 } },
      network: { cidr: "10.65.0.0/24", vxlanId: expect.any(Number), vxlanPort: 4789 },
      primary: { status: "PROVISIONING" },
    });
    expect(cluster.template).toBeUndefined();
    expect(cluster.primary.sshEndpoint).toBeUndefined();

    const members = await membersOf(cluster.id);
    expect(members.map((pod) => pod.cluster)).toEqual([
      { id: cluster.id, rank: 0, ip: "10.65.0.1" },
      { id: cluster.id, rank: 1, ip: "10.65.0.2" },
      { id: cluster.id, rank: 2, ip: "10.65.0.3" },
    ]);
    expect(cluster.primary.podId).toBe(members[0]?.id);
    for (const pod of members) {
      expect(pod).toMatchObject({
        gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
        dataCenterId: "EU-SE-1",
        image: "example/trainer:1",
        ports: ["22/tcp"],
        env: { EPOCHS: "3" },
        template: null,
      });
    }
    expect(members.map((pod) => pod.name)).toEqual(["train-0", "train-1", "train-2"]);
  });

  it("walks the members to RUNNING; the summary counts them by status and the primary gets its SSH endpoint", async () => {
    const cluster = await createCluster(CLUSTER);
    const running = await waitFor("every member RUNNING", async () => {
      const res = await v2.get(`/clusters/${cluster.id}`);
      return res.body.pods.byStatus.RUNNING === 2 ? res.body : undefined;
    });
    expect(running.pods).toEqual({ total: 2, byStatus: { RUNNING: 2 } });
    const [primary] = await membersOf(cluster.id);
    const direct = primary?.ssh.direct as { host: string; port: number };
    expect(running.primary).toEqual({ podId: primary?.id, status: "RUNNING", sshEndpoint: `${direct.host}:${direct.port}` });
  });

  it("assigns SLURM and RAY roles (rank 0 the controller or head) and none to TRAINING or APPLICATION members", async () => {
    const roles = async (type: string) =>
      (await membersOf((await createCluster({ ...CLUSTER, type, compute: { ...CLUSTER.compute, gpuTypeId: "NVIDIA L4" } })).id)).map(
        (pod) => pod.cluster.role ?? null,
      );
    expect(await roles("SLURM")).toEqual(["SLURM_CONTROLLER", "SLURM_COMPUTE"]);
    expect(await roles("RAY")).toEqual(["RAY_HEAD", "RAY_WORKER"]);
    expect(await roles("APPLICATION")).toEqual([null, null]);
  });

  it("refuses a podCount outside 2..250, a gpuCountPerPod under 1 and unknown fields with 422, every one named", async () => {
    for (const podCount of [1, 251]) {
      const problem = expectProblem(await v2.post("/clusters", { ...CLUSTER, compute: { ...CLUSTER.compute, podCount } }), 422);
      expect(problem.errors?.join("\n")).toMatch(/compute\.podCount/);
    }
    const problem = expectProblem(
      await v2.post("/clusters", { ...CLUSTER, compute: { ...CLUSTER.compute, gpuCountPerPod: 0 }, registry: "r1", type: "BATCH" }),
      422,
    );
    const errors = problem.errors?.join("\n") ?? "";
    expect(errors).toMatch(/compute\.gpuCountPerPod/);
    // today 5.4: "a bare `registry` on the cluster body is rejected".
    expect(errors).toMatch(/registry/);
    expect(errors).toMatch(/type/);
    expectProblem(await v2.post("/clusters", { name: "x", type: "TRAINING", image: "i" }), 422);
  });

  it("refuses with 400 what the catalog rejects: an unknown GPU type, more GPUs per pod than its maxCount, an unknown data center, no image", async () => {
    const unknown = expectProblem(await v2.post("/clusters", { ...CLUSTER, compute: { ...CLUSTER.compute, gpuTypeId: "cpu3c" } }), 400);
    expect(unknown.errors?.[0]).toMatch(/compute\.gpuTypeId.*cpu3c/);
    const tooMany = expectProblem(await v2.post("/clusters", { ...CLUSTER, compute: { ...CLUSTER.compute, gpuCountPerPod: 9 } }), 400);
    expect(tooMany.detail).toMatch(/compute\.gpuCountPerPod: at most 8 GPUs .* got 9/);
    expectProblem(await v2.post("/clusters", { ...CLUSTER, dataCenterIds: ["XX-NOPE-1"] }), 400);
    const { image: _image, ...noImage } = CLUSTER;
    expect(expectProblem(await v2.post("/clusters", noImage), 400).detail).toMatch(/image is required unless templateId/);
  });

  it("places the whole cluster in one data center or refuses it (400), making no member", async () => {
    const before = await everyPodId();
    // 16 A40s are free per data center: 3 pods x 8 do not fit in any one, though 24 are free across two.
    const problem = expectProblem(
      await v2.post("/clusters", { ...CLUSTER, compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 8, podCount: 3 } }),
      400,
    );
    expect(problem.detail).toMatch(
      /compute: no instances available for compute\.gpuTypeId x compute\.podCount x compute\.gpuCountPerPod = 24/,
    );
    expect(await everyPodId()).toEqual(before);
    // Two pods of 8 fit exactly in one data center.
    const fits = await createCluster({ ...CLUSTER, compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 8, podCount: 2 } });
    expect(fits.pods.total).toBe(2);
  });

  it("places it in the data center of its network volume, which dataCenterIds must allow", async () => {
    const volume = (await v2.post("/network-volumes", { name: "data", size: 10, dataCenter: "EU-RO-1" })).body;
    const mounts = { network: [{ volumeId: volume.id, path: "/data" }] };
    const cluster = await createCluster({ ...CLUSTER, mounts });
    expect(cluster.dataCenterId).toBe("EU-RO-1");
    for (const pod of await membersOf(cluster.id)) expect(pod.mounts).toEqual(mounts);
    const refused = expectProblem(await v2.post("/clusters", { ...CLUSTER, mounts, dataCenterIds: ["US-TX-3"] }), 400);
    expect(refused.detail).toMatch(/network volume .* is in EU-RO-1, which is not in dataCenterIds/);
  });

  it("provisions every member from a pod template (with its registry) and keeps the link; templateId excludes the container fields", async () => {
    const registry = (await v2.post("/registries", { name: "private", username: "u", password: "p" })).body;
    const template = (
      await v2.post("/templates", {
        name: "trainer",
        image: "example/private:2",
        registry: registry.id,
        ports: ["22/tcp"],
        env: { T: "1" },
      })
    ).body;
    const { image: _image, ports: _ports, env: _env, ...shape } = CLUSTER;
    const cluster = await createCluster({ ...shape, templateId: template.id });
    expect(cluster.template).toBe(template.id);
    for (const pod of await membersOf(cluster.id)) {
      expect(pod).toMatchObject({ image: "example/private:2", registry: registry.id, ports: ["22/tcp"], env: { T: "1" } });
    }

    const mixed = expectProblem(await v2.post("/clusters", { ...shape, templateId: template.id, image: "x", env: {} }), 400);
    expect(mixed.detail).toMatch(/templateId cannot be combined with image, env/);
    const unknown = expectProblem(await v2.post("/clusters", { ...shape, templateId: "nosuchtemplate" }), 400);
    expect(unknown.detail).toMatch(/template "nosuchtemplate" does not exist/);
    const serverless = (await v2.post("/templates", { name: "worker", image: "example/worker:1", serverless: true })).body;
    const wrongKind = expectProblem(await v2.post("/clusters", { ...shape, templateId: serverless.id }), 400);
    expect(wrongKind.detail).toMatch(/serverless template; a cluster needs a pod template/);
  });
});

describe("GET, PATCH, DELETE /api/v2/clusters/{id} and GET /api/v2/clusters", () => {
  it("lists every cluster (bare, newest first) and gets one; an unknown id is 404", async () => {
    const older = await createCluster({ ...CLUSTER, name: "older", compute: { ...CLUSTER.compute, gpuTypeId: "NVIDIA RTX A5000" } });
    const newer = await createCluster({ ...CLUSTER, name: "newer", compute: { ...CLUSTER.compute, gpuTypeId: "NVIDIA RTX A5000" } });
    const list = await v2.get("/clusters");
    expect(list.status).toBe(200);
    expect(list.body.pagination).toBeUndefined();
    const ids = (list.body.clusters as Json[]).map((c) => c.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect((await v2.get(`/clusters/${older.id}`)).body).toMatchObject({ id: older.id, name: "older" });
    expectProblem(await v2.get("/clusters/nosuchcluster"), 404);
    expectProblem(await v2.get("/clusters/nosuchcluster/pods"), 404);
  });

  it("renames (200) and changes nothing else: an empty body, a compute or type change and an unknown id are refused", async () => {
    const cluster = await createCluster({ ...CLUSTER, compute: { ...CLUSTER.compute, gpuTypeId: "NVIDIA RTX A4000" } });
    const renamed = await v2.patch(`/clusters/${cluster.id}`, { name: "renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: cluster.id, name: "renamed", compute: cluster.compute, type: "TRAINING" });
    expect((await v2.get(`/clusters/${cluster.id}`)).body.name).toBe("renamed");
    expectProblem(await v2.patch(`/clusters/${cluster.id}`, {}), 422);
    const fixed = expectProblem(
      await v2.patch(`/clusters/${cluster.id}`, { compute: { ...CLUSTER.compute, podCount: 4 }, type: "RAY" }),
      422,
    );
    expect(fixed.errors?.join("\n")).toMatch(/compute/);
    expectProblem(await v2.patch(`/clusters/${cluster.id}`, { name: "" }), 422);
    expectProblem(await v2.patch("/clusters/nosuchcluster", { name: "x" }), 404);
    expect((await v2.get(`/clusters/${cluster.id}`)).body.compute.podCount).toBe(2);
  });

  it("deletes the cluster (204) and terminates every member, releasing their GPUs", async () => {
    // 16 H100s per data center: a cluster of 2 x 8 in one, again once the first is gone.
    const shape = {
      ...CLUSTER,
      compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 2 },
      dataCenterIds: ["EU-SE-1"],
    };
    const cluster = await createCluster(shape);
    const members = await membersOf(cluster.id);
    expectProblem(await v2.post("/clusters", shape), 400);
    expect((await v2.del(`/clusters/${cluster.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/clusters/${cluster.id}`), 404);
    for (const pod of members) expectProblem(await v2.get(`/pods/${pod.id}`), 404);
    expectProblem(await v2.del(`/clusters/${cluster.id}`), 404);
    expect((await v2.post("/clusters", shape)).status).toBe(201);
  });
});

describe("members in the pod routes", () => {
  it("GET /pods leaves members out after the page is cut; includeClusterPods=true keeps them, each with its cluster block", async () => {
    const own = apiV2(emu, "test-key-account-b");
    const standalone = (await own.post("/pods", V2_GPU_POD)).body;
    const cluster = (await own.post("/clusters", CLUSTER)).body;
    // Pages of two, newest first: the first holds the two members, so it answers no pod and a next page.
    const first = (await own.get("/pods")).body;
    expect(first.pods).toEqual([]);
    expect(first.pagination.hasNextPage).toBe(true);
    const second = (await own.get("/pods", { cursor: first.pagination.nextCursor })).body;
    expect((second.pods as Json[]).map((pod) => pod.id)).toEqual([standalone.id]);
    expect(second.pods[0].cluster).toBeUndefined();

    const all = (await own.get("/pods", { includeClusterPods: "true" })).body;
    expect((all.pods as Json[]).map((pod) => pod.cluster?.id)).toEqual([cluster.id, cluster.id]);
    const member = all.pods[0];
    expect((await own.get(`/pods/${member.id}`)).body.cluster).toEqual(member.cluster);
    // /v1 has no clusters: its pod list leaves members out too.
    const v1 = api(emu, "test-key-account-b");
    expect(((await v1.get("/pods")).body as Json[]).map((pod) => pod.id)).toEqual([standalone.id]);
  });

  it("a member cannot be updated, deleted or acted on through /pods (409, naming its cluster), on either API", async () => {
    const cluster = await createCluster({ ...CLUSTER, compute: { ...CLUSTER.compute, gpuTypeId: "NVIDIA RTX A6000" } });
    const [member] = await membersOf(cluster.id);
    const id = member?.id as string;
    for (const res of [
      await v2.patch(`/pods/${id}`, { name: "mine" }),
      await v2.del(`/pods/${id}`),
      await v2.post(`/pods/${id}/action`, { action: "stop" }),
      await v2.post(`/pods/${id}/action`, { action: "terminate" }),
    ]) {
      expect(expectProblem(res, 409).detail).toMatch(new RegExp(`member of cluster ${cluster.id}.*/api/v2/clusters/${cluster.id}`));
    }
    const v1 = api(emu);
    for (const res of [await v1.del(`/pods/${id}`), await v1.post(`/pods/${id}/stop`, {}), await v1.patch(`/pods/${id}`, { name: "x" })]) {
      expect(res.status).toBe(409);
    }
    expect((await v2.get(`/pods/${id}`)).body).toMatchObject({ name: member?.name, cluster: { id: cluster.id } });
  });
});
