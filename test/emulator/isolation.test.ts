/**
 * Account isolation: every id of account A, used with account B's key, is a 404 on every operation
 * that takes an id (GET, PATCH and its POST synonym, DELETE, pod start/stop/reset/restart, and the
 * job API for A's endpoint and job), B's lists and billing are empty while A's are not, and nothing
 * B did changed A's resources.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { type Api, type Json, KEY_A, KEY_B, api, startTestEmulator, waitFor, waitForBoot } from "../support/managementHelpers";

interface Owned {
  collection: "pods" | "endpoints" | "templates" | "networkvolumes" | "containerregistryauth";
  id: string;
  name: string;
  /** A body PATCH (and POST .../update) would accept from the owner; undefined: no update operation. */
  patch: Record<string, unknown> | undefined;
}

describe("account isolation (two API keys)", () => {
  let emulator: RunningEmulator;
  let a: Api;
  let b: Api;
  const owned: Owned[] = [];
  let endpointId = "";
  let jobId = "";

  async function v2(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${emulator.serverlessUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  }

  beforeAll(async () => {
    emulator = await startTestEmulator();
    a = api(emulator, KEY_A);
    b = api(emulator, KEY_B);
    const auth = await a.post("/containerregistryauth", { name: "a-creds", username: "a-user", password: "a-password" });
    const template = await a.post("/templates", {
      name: "a-worker",
      imageName: "example/echo:1",
      isServerless: true,
      containerRegistryAuthId: auth.body.id,
    });
    const volume = await a.post("/networkvolumes", { name: "a-models", size: 10, dataCenterId: "EU-RO-1" });
    const pod = await a.post("/pods", {
      name: "a-pod",
      imageName: "example/app:1",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      networkVolumeId: volume.body.id,
      dataCenterIds: ["EU-RO-1"],
    });
    const endpoint = await a.post("/endpoints", {
      name: "a-endpoint",
      templateId: template.body.id,
      gpuTypeIds: ["NVIDIA L4"],
      workersMax: 1,
    });
    for (const [res, what] of [
      [auth, "auth"],
      [template, "template"],
      [volume, "volume"],
      [pod, "pod"],
      [endpoint, "endpoint"],
    ] as const) {
      expect(res.status, `${what}: ${res.text}`).toBeLessThan(300);
    }
    owned.push(
      { collection: "containerregistryauth", id: auth.body.id, name: "a-creds", patch: undefined },
      { collection: "templates", id: template.body.id, name: "a-worker", patch: { readme: "changed by B" } },
      { collection: "networkvolumes", id: volume.body.id, name: "a-models", patch: { name: "renamed-by-b", size: 20 } },
      { collection: "pods", id: pod.body.id, name: "a-pod", patch: { name: "renamed-by-b" } },
      { collection: "endpoints", id: endpoint.body.id, name: "a-endpoint", patch: { workersMax: 3, name: "renamed-by-b" } },
    );
    endpointId = endpoint.body.id;
    await waitForBoot(a, pod.body.id);
    // A job on A's endpoint, finished, so that the worker's time is billed to A.
    const run = await v2(KEY_A, "POST", `/${endpointId}/run`, { input: { prompt: "hello" } });
    expect(run.status).toBe(200);
    jobId = run.body.id;
    await waitFor(
      "A's job to complete",
      async () => {
        const s = await v2(KEY_A, "GET", `/${endpointId}/status/${jobId}`);
        return s.body?.status === "COMPLETED" ? s : undefined;
      },
      20_000,
    );
  }, 60_000);
  afterAll(async () => emulator?.close());

  it("GET, PATCH, POST .../update and DELETE of A's ids with B's key are 404", async () => {
    let calls = 0;
    for (const r of owned) {
      const path = `/${r.collection}/${r.id}`;
      const attempts: [string, () => Promise<{ status: number; text: string }>][] = [
        ["GET", () => b.get(path)],
        ["DELETE", () => b.del(path)],
      ];
      if (r.patch) {
        attempts.push(["PATCH", () => b.patch(path, r.patch)], ["POST update", () => b.post(`${path}/update`, r.patch)]);
      }
      for (const [what, call] of attempts) {
        const res = await call();
        calls++;
        expect(res.status, `${what} ${path} with B's key: ${res.text}`).toBe(404);
        expect(res.text).not.toContain(r.name);
      }
    }
    expect(calls).toBe(18);
  });

  it("pod start, stop, reset and restart of A's pod with B's key are 404", async () => {
    const pod = owned.find((r) => r.collection === "pods");
    for (const action of ["stop", "start", "reset", "restart"]) {
      const res = await b.post(`/pods/${pod?.id}/${action}`);
      expect(res.status, `${action}: ${res.text}`).toBe(404);
    }
    // Still running for A: B's stop did nothing.
    expect((await a.get(`/pods/${pod?.id}`)).body.desiredStatus).toBe("RUNNING");
  });

  it("the job API: A's endpoint and A's job are 404 for B, on every operation", async () => {
    const attempts: [string, string, unknown][] = [
      ["GET", `/${endpointId}/status/${jobId}`, undefined],
      ["POST", `/${endpointId}/status/${jobId}`, undefined],
      ["GET", `/${endpointId}/status-sync/${jobId}?wait=1000`, undefined],
      ["GET", `/${endpointId}/stream/${jobId}`, undefined],
      ["POST", `/${endpointId}/cancel/${jobId}`, undefined],
      ["POST", `/${endpointId}/retry/${jobId}`, undefined],
      ["POST", `/${endpointId}/run`, { input: { prompt: "from B" } }],
      ["POST", `/${endpointId}/runsync?wait=1000`, { input: { prompt: "from B" } }],
      ["POST", `/${endpointId}/purge-queue`, undefined],
      ["GET", `/${endpointId}/health`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await v2(KEY_B, method, path, body);
      expect(res.status, `${method} /v2${path} with B's key: ${JSON.stringify(res.body)}`).toBe(404);
    }
    // A's job id on an endpoint of B's own is unknown there too.
    const bTemplate = await b.post("/templates", { name: "b-worker", imageName: "example/echo:1", isServerless: true });
    const bEndpoint = await b.post("/endpoints", { name: "b-endpoint", templateId: bTemplate.body.id, gpuTypeIds: ["NVIDIA L4"] });
    expect(bEndpoint.status).toBeLessThan(300);
    const viaOwn = await v2(KEY_B, "GET", `/${bEndpoint.body.id}/status/${jobId}`);
    expect(viaOwn.status).toBe(404);
    // A still sees its own job, unchanged (B's cancel did nothing).
    const mine = await v2(KEY_A, "GET", `/${endpointId}/status/${jobId}`);
    expect(mine.status).toBe(200);
    expect(mine.body.status).toBe("COMPLETED");
    await b.del(`/endpoints/${bEndpoint.body.id}`);
    await b.del(`/templates/${bTemplate.body.id}`);
  });

  it("B's lists and billing are empty, also when filtered by A's ids; A's are not", async () => {
    const pod = owned.find((r) => r.collection === "pods");
    const endpoint = owned.find((r) => r.collection === "endpoints");
    const volume = owned.find((r) => r.collection === "networkvolumes");
    const lists: [string, Record<string, string>][] = [
      ["/pods", {}],
      ["/pods", { id: pod?.id ?? "", includeMachine: "true", includeNetworkVolume: "true" }],
      ["/pods", { name: "a-pod" }],
      ["/endpoints", { includeTemplate: "true", includeWorkers: "true" }],
      ["/templates", { includeEndpointBoundTemplates: "true" }],
      ["/networkvolumes", {}],
      ["/containerregistryauth", {}],
    ];
    for (const [path, query] of lists) {
      const mine = await a.get(path, query);
      const theirs = await b.get(path, query);
      expect(theirs.status, path).toBe(200);
      expect(theirs.body, `${path} ${JSON.stringify(query)} for B`).toEqual([]);
      expect(mine.body.length, `${path} ${JSON.stringify(query)} for A`).toBeGreaterThan(0);
    }
    // Public and service templates are shared by design; A's private template is never among them.
    const shared = await b.get("/templates", { includePublicTemplates: "true", includeServiceTemplates: "true" });
    expect(shared.status).toBe(200);
    expect(JSON.stringify(shared.body)).not.toContain("a-worker");

    const billing: [string, Record<string, string>][] = [
      ["/billing/pods", {}],
      ["/billing/pods", { podId: pod?.id ?? "", bucketSize: "hour" }],
      ["/billing/endpoints", {}],
      ["/billing/endpoints", { endpointId: endpoint?.id ?? "", bucketSize: "hour" }],
      ["/billing/networkvolumes", {}],
      ["/billing/networkvolumes", { bucketSize: "hour" }],
    ];
    for (const [path, query] of billing) {
      const mine = await a.get(path, query);
      const theirs = await b.get(path, query);
      expect(theirs.status, `${path}: ${theirs.text}`).toBe(200);
      expect(theirs.body, `${path} ${JSON.stringify(query)} for B`).toEqual([]);
      expect(mine.body.length, `${path} ${JSON.stringify(query)} for A (the test is not vacuous)`).toBeGreaterThan(0);
    }
    expect(volume?.id).toBeDefined();
  });

  it("after all of B's attempts, A's resources are all there, unchanged, and B owns nothing of A's", async () => {
    for (const r of owned) {
      const res = await a.get(`/${r.collection}/${r.id}`);
      expect(res.status, `${r.collection} ${r.id}`).toBe(200);
      expect(res.body.name).toBe(r.name);
    }
    const template = await a.get(`/templates/${owned.find((r) => r.collection === "templates")?.id}`);
    expect(template.body.readme ?? "").not.toContain("changed by B");
    const byAccount = new Map(emulator.inspect().map((acct) => [acct.accountId, acct]));
    const accountA = byAccount.get(emulator.accountIdOf(KEY_A));
    const accountB = byAccount.get(emulator.accountIdOf(KEY_B));
    expect(accountA?.pods.map((p) => p.id)).toEqual([owned.find((r) => r.collection === "pods")?.id]);
    for (const list of [accountB?.pods, accountB?.endpoints, accountB?.templates, accountB?.networkVolumes, accountB?.registryAuths])
      expect(list ?? []).toEqual([]);
  });
});
