/**
 * /api/v2/serverless over real HTTP with the real job side: shapes, create from a template as a
 * snapshot, PATCH as a new release, the rollout moving as workers are replaced, workers, the
 * load-balancing endpoint reached through {origin}/v2/<id>/<path>, DELETE, and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator();
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

const LB_ENDPOINT = {
  name: "lb",
  type: "LOAD_BALANCER",
  image: "example/lb:1",
  scaling: { type: "REQUEST_COUNT", requestCount: 4 },
  gpu: { pools: ["ADA_24"] },
  workers: { min: 1, max: 1 },
};

describe("POST /api/v2/serverless", () => {
  it("creates a queue endpoint (201) with the v2 shape and its job API request URLs", async () => {
    const res = await v2.post("/serverless", {
      ...V2_QUEUE_ENDPOINT,
      env: { MODEL: "m" },
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"], count: 2 },
    });
    expect(res.status).toBe(201);
    const endpoint = res.body;
    expect(endpoint).toMatchObject({
      name: "v2 endpoint",
      type: "QUEUE",
      image: "example/worker:1",
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"], count: 2, allowedCudaVersions: [], minCudaVersion: null },
      workers: { min: 0, max: 3, idleTimeout: 10 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      timeout: 300000,
      flashboot: "OFF",
      networkVolumes: [],
      registry: null,
    });
    expect(endpoint.env.MODEL).toBe("m");
    expect(endpoint.cpu).toBeUndefined();
    // No dataCenterIds: the scheduler chooses, answered as none.
    expect(endpoint.dataCenterIds).toEqual([]);
    const base = `${emu.serverlessUrl}/${endpoint.id}`;
    expect(endpoint.requestUrls).toEqual({
      run: `${base}/run`,
      runSync: `${base}/runsync`,
      status: `${base}/status`,
      stream: `${base}/stream`,
      cancel: `${base}/cancel`,
      retry: `${base}/retry`,
      purgeQueue: `${base}/purge-queue`,
      health: `${base}/health`,
    });
    expect((await v2.get(`/serverless/${endpoint.id}`)).body).toEqual(endpoint);
    const list = (await v2.get("/serverless")).body;
    expect(list.endpoints.map((e: { id: string }) => e.id)).toContain(endpoint.id);
  });

  it("creates a CPU endpoint with cpu [{id, vcpuCount, memory}] and no gpu", async () => {
    const res = await v2.post("/serverless", {
      ...V2_QUEUE_ENDPOINT,
      gpu: undefined,
      cpu: [{ id: "cpu3c", vcpuCount: 4 }],
      flashboot: "PRIORITY_FLASHBOOT",
    });
    expect(res.status).toBe(201);
    expect(res.body.cpu).toEqual([{ id: "cpu3c", vcpuCount: 4, memory: expect.any(Number) }]);
    expect(res.body.gpu ?? null).toBeNull();
    expect(res.body.flashboot).toBe("PRIORITY_FLASHBOOT");
  });

  it("takes a template's settings as a snapshot: later template edits do not reach the endpoint", async () => {
    const template = (await v2.post("/templates", { name: "sls-tpl", image: "tpl/worker:1", serverless: true, env: { FROM: "template" } }))
      .body;
    const endpoint = (
      await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, image: undefined, templateId: template.id, env: { EXTRA: "body" } })
    ).body;
    expect(endpoint.image).toBe("tpl/worker:1");
    expect(endpoint.env).toMatchObject({ FROM: "template", EXTRA: "body" });
    expect((await v2.patch(`/templates/${template.id}`, { image: "tpl/worker:2" })).status).toBe(200);
    expect((await v2.get(`/serverless/${endpoint.id}`)).body.image).toBe("tpl/worker:1");
  });

  it("answers 422 listing every field that does not fit the schema", async () => {
    const problem = expectProblem(
      await v2.post("/serverless", {
        name: "x",
        type: "FIFO",
        scaling: { type: "QUEUE_DELAY", queueDelay: 0.1 },
        flashboot: "ON",
        workers: { max: -1 },
      }),
      422,
    );
    expect(problem.errors?.length).toBeGreaterThanOrEqual(4);
    for (const field of ["type", "scaling", "flashboot", "workers.max"]) expect(problem.errors?.join("\n")).toContain(field);
  });

  it.each([
    [{ gpu: { pools: ["NOPE_1"] } }, /^invalid gpu\.pools\[0\]: unknown GPU pool "NOPE_1"/],
    [
      { gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA GeForce RTX 4090", "NVIDIA L4"] } },
      /^invalid gpu\.excludedTypes: excludes every GPU type/,
    ],
    [{ gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA Nope"] } }, /^invalid gpu\.excludedTypes\[0\]: unknown GPU type/],
    [{ gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } }, /^invalid gpu\.minCudaVersion/],
    [{ cpu: [{ id: "cpu3c", vcpuCount: 4 }] }, /exactly one of gpu .* or cpu/],
    [{ gpu: undefined, cpu: [{ id: "cpu9x", vcpuCount: 4 }] }, /^invalid cpu\[0\]\.id: unknown serverless CPU flavor "cpu9x"/],
    [{ gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 6 }] }, /^invalid cpu\[0\]\.vcpuCount: must be a power of two/],
    [{ dataCenterIds: ["MARS-1"] }, /^invalid dataCenterIds\[0\]: unknown data center "MARS-1"/],
    [{ networkVolumes: ["nope"] }, /networkVolumes/],
    [{ registry: "nope" }, /^invalid registry/],
    [{ image: undefined }, /^invalid image: image is required/],
    [{ workers: { min: 4, max: 2 } }, /^invalid workers\.min: must be <= workers\.max \(2\), got 4/],
    [{ scaling: { type: "REQUEST_COUNT", requestCount: 2 }, workers: { idleTimeout: 5 } }, /^invalid workers\.idleTimeout: does not apply/],
    [{ type: "LOAD_BALANCER" }, /^invalid scaling\.type: load-balancing endpoints scale on REQUEST_COUNT/],
  ])("answers 400 naming the field for %j", async (change, detail) => {
    const problem = expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, ...change }), 400);
    expect(problem.detail).toMatch(detail);
    expect(problem.errors?.[0]).toBe(problem.detail);
  });

  it("refuses a pod template for an endpoint (422 naming templateId) and an unknown one (404)", async () => {
    const podTemplate = (await v2.post("/templates", { name: "pod-only", image: "pod/image:1" })).body;
    expect(expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, templateId: podTemplate.id }), 422).detail).toMatch(
      /^invalid templateId: .* pod template/,
    );
    expect(expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, templateId: "nope" }), 404).detail).toMatch(
      /^invalid templateId/,
    );
  });
});

describe("PATCH /api/v2/serverless/{id} and releases", () => {
  it("a settings change is a new release with its diff; scaling and name changes are not", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    const first = (await v2.get(`/serverless/${endpoint.id}/releases`)).body;
    expect(first).toMatchObject({
      endpointVersion: 0,
      rollout: { inProgress: false, workersTotal: 0 },
      releases: [{ version: 0, source: "MANUAL", diff: [] }],
    });

    const renamed = await v2.patch(`/serverless/${endpoint.id}`, {
      name: "renamed",
      workers: { max: 5 },
      scaling: { type: "REQUEST_COUNT", requestCount: 3 },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "renamed", workers: { max: 5 }, scaling: { type: "REQUEST_COUNT", requestCount: 3 } });
    // A queue endpoint scaling on REQUEST_COUNT has no idle timeout: omitted.
    expect(renamed.body.workers.idleTimeout).toBeUndefined();
    expect((await v2.get(`/serverless/${endpoint.id}/releases`)).body.endpointVersion).toBe(0);

    const changed = await v2.patch(`/serverless/${endpoint.id}`, { image: "example/worker:2", env: { NEW: "1" } });
    expect(changed.body).toMatchObject({ image: "example/worker:2", env: { NEW: "1" } });
    const releases = (await v2.get(`/serverless/${endpoint.id}/releases`)).body;
    expect(releases.endpointVersion).toBe(1);
    expect(releases.releases.map((r: { version: number }) => r.version)).toEqual([1, 0]);
    expect(releases.releases[0].diff).toEqual(
      expect.arrayContaining([
        { field: "image", old: "example/worker:1", new: "example/worker:2" },
        expect.objectContaining({ field: "env", new: expect.objectContaining({ NEW: "1" }) }),
      ]),
    );
  });

  it("templateId on PATCH applies the template as a new release", async () => {
    const template = (await v2.post("/templates", { name: "sls-patch", image: "tpl/patched:1", serverless: true })).body;
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    const res = await v2.patch(`/serverless/${endpoint.id}`, { templateId: template.id });
    expect(res.status).toBe(200);
    expect(res.body.image).toBe("tpl/patched:1");
    expect((await v2.get(`/serverless/${endpoint.id}/releases`)).body.releases[0].diff).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: "image", new: "tpl/patched:1" })]),
    );
  });

  it("refuses another compute family, exclusions without pools and create-only fields", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    expect(expectProblem(await v2.patch(`/serverless/${endpoint.id}`, { cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), 400).detail).toMatch(
      /^invalid cpu: this is a GPU endpoint/,
    );
    expect(
      expectProblem(await v2.patch(`/serverless/${endpoint.id}`, { gpu: { excludedTypes: ["NVIDIA L4"] } }), 422).errors?.join("\n"),
    ).toMatch(/gpu\.excludedTypes.*needs gpu\.pools/);
    expect(expectProblem(await v2.patch(`/serverless/${endpoint.id}`, { type: "LOAD_BALANCER" }), 422).errors?.[0]).toMatch(/"type"/);
    expectProblem(await v2.patch("/serverless/nope", { name: "x" }), 404);
  });
});

describe("workers, rollouts and load-balancing endpoints", () => {
  it("a load-balancing endpoint is reached through {origin}/v2/<id>/<path>; a release rolls its workers onto the new version", async () => {
    const created = await v2.post("/serverless", LB_ENDPOINT);
    expect(created.status).toBe(201);
    const endpoint = created.body;
    const base = `${emu.serverlessUrl}/${endpoint.id}`;
    expect(endpoint.requestUrls).toEqual({ base, health: `${base}/ping` });

    const ready = await waitFor("an idle worker", async () => {
      const workers = (await v2.get(`/serverless/${endpoint.id}/workers`)).body;
      return workers.summary.idle === 1 ? workers : undefined;
    });
    expect(ready).toMatchObject({
      endpointVersion: 0,
      summary: { running: 0, idle: 1, initializing: 0, throttled: 0, unhealthy: 0, total: 1 },
    });
    expect(ready.workers[0]).toMatchObject({ status: "IDLE", isStale: false, version: 0, gpuCount: 1, image: "example/lb:1" });
    expect(["NVIDIA GeForce RTX 4090", "NVIDIA L4"]).toContain(ready.workers[0].gpuTypeId);

    const reply = await fetch(`${base}/hello/world?x=1`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ method: "GET", path: "/hello/world" });

    await v2.patch(`/serverless/${endpoint.id}`, { image: "example/lb:2" });
    const rolled = await waitFor(
      "the rollout to finish",
      async () => {
        const releases = (await v2.get(`/serverless/${endpoint.id}/releases`)).body;
        return releases.rollout.percentOnLatest === 100 ? releases : undefined;
      },
      15_000,
    );
    expect(rolled).toMatchObject({ endpointVersion: 1, rollout: { inProgress: false, workersOnLatest: 1, workersTotal: 1 } });
    expect(rolled.releases[0]).toMatchObject({ version: 1, workerCount: 1 });
    expect(rolled.releases[1]).toMatchObject({ version: 0, workerCount: 0 });
  });

  it("lists no workers for an endpoint scaled to zero, and 404s an unknown endpoint", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    expect((await v2.get(`/serverless/${endpoint.id}/workers`)).body).toEqual({
      workers: [],
      summary: { running: 0, idle: 0, initializing: 0, throttled: 0, unhealthy: 0, total: 0 },
      endpointVersion: 0,
    });
    expect(expectProblem(await v2.get("/serverless/nope/workers"), 404).detail).toMatch(/not found/);
    expectProblem(await v2.get("/serverless/nope/releases"), 404);
  });
});

describe("DELETE /api/v2/serverless/{id}", () => {
  it("answers 204, the endpoint is gone from v2 and the job API; a second delete is 404", async () => {
    const endpoint = (await v2.post("/serverless", V2_QUEUE_ENDPOINT)).body;
    expect((await v2.del(`/serverless/${endpoint.id}`)).status).toBe(204);
    expectProblem(await v2.get(`/serverless/${endpoint.id}`), 404);
    expectProblem(await v2.del(`/serverless/${endpoint.id}`), 404);
    const health = await fetch(`${emu.serverlessUrl}/${endpoint.id}/health`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    expect(health.status).toBe(404);
  });
});
