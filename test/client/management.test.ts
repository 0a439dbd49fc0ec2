import { GpuCloudError } from "../../client/gpuCloudError";
import { afterEach, describe, expect, it } from "vitest";
import { createWithoutDuplicates } from "../../provider/resources/createOnce";
import { ResourceInitError } from "../../provider/resources/partialCreate";
import type { ResourceTable } from "../../model/fields/fieldTable";
import { ConnectionError, isNotFound, NotFoundError, TimeoutError, type ApiError } from "../../client/errors";
import { ManagementClient } from "../../client/management";
import type { Pod } from "../../client/schemas";
import { json, startScriptedServer, type RecordedRequest, type ScriptedServer, type Step } from "../support/scriptedServer";

const KEY = "mgmt-key-SECRET-42";

let server: ScriptedServer | undefined;
let client: ManagementClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(steps: Step[] | Step, timeoutMs = 5_000, createTimeoutMs = timeoutMs) {
  server = await startScriptedServer(steps);
  const delays: number[] = [];
  client = new ManagementClient({
    baseUrl: `${server.origin}/v1/`,
    apiKey: KEY,
    timeoutMs,
    createTimeoutMs,
    sleep: async (ms) => void delays.push(ms),
    random: () => 0,
  });
  return { server, client, delays };
}

const body = (r: RecordedRequest | undefined): unknown => JSON.parse(r?.body ?? "null");

describe("ManagementClient calls", () => {
  it("createPod sends the body it is given and reads the tolerant answer", async () => {
    const { server, client } = await setup(json(201, { id: "p1", image: "img:1", costPerHr: "0.74", publicIp: null }));
    const input = { name: "n", imageName: "img:1", gpuCount: 1, gpuTypeIds: ["NVIDIA A40"], env: { A: "1" }, volumeInGb: undefined };
    const pod = await client.createPod(input);
    expect(pod).toMatchObject({ id: "p1", imageName: "img:1", costPerHr: 0.74 });
    expect(pod.publicIp).toBeUndefined();
    expect(server.requests[0]!.method).toBe("POST");
    expect(server.requests[0]!.url).toBe("/v1/pods");
    expect(body(server.requests[0])).toEqual({ name: "n", imageName: "img:1", gpuCount: 1, gpuTypeIds: ["NVIDIA A40"], env: { A: "1" } });
  });

  it("updatePod PATCHes the fields given", async () => {
    const { server, client } = await setup(json(200, { id: "p1", name: "m" }));
    await client.updatePod("p1", { name: "m", env: { B: "2" } });
    expect(server.requests[0]!.method).toBe("PATCH");
    expect(server.requests[0]!.url).toBe("/v1/pods/p1");
    expect(body(server.requests[0])).toEqual({ name: "m", env: { B: "2" } });
  });

  it("listPods sends filters as query parameters (arrays repeated)", async () => {
    const { server, client } = await setup(json(200, [{ id: "a" }, { id: "b" }]));
    const pods = await client.listPods({ name: "x", dataCenterId: ["EU-RO-1", "US-TX-3"], includeMachine: true });
    expect(pods.map((p) => p.id)).toEqual(["a", "b"]);
    expect(server.requests[0]!.url).toBe("/v1/pods?name=x&dataCenterId=EU-RO-1&dataCenterId=US-TX-3&includeMachine=true");
  });

  it("getPod encodes the id; 404 is a NotFoundError with the service's message", async () => {
    const { server, client } = await setup(json(404, { error: "pod not found", status: 404 }));
    const e = await client.getPod("a/b c").catch((x: unknown) => x as ApiError);
    expect(e).toBeInstanceOf(NotFoundError);
    expect(isNotFound(e)).toBe(true);
    expect(e.serviceMessage).toBe("pod not found");
    expect(e.operation).toBe("GetPod");
    expect(server.requests[0]!.url).toBe("/v1/pods/a%2Fb%20c");
  });

  it("deletes accept 200 and 204; start/stop/reset/restart are POSTs to the action paths", async () => {
    const { server, client } = await setup([json(200, {}), json(204), json(200, {}), json(200, {}), json(200, {}), json(200, {})]);
    await client.deletePod("p1");
    await client.deleteEndpoint("e1");
    await client.startPod("p1");
    await client.stopPod("p1");
    await client.resetPod("p1");
    await client.restartPod("p1");
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "DELETE /v1/pods/p1",
      "DELETE /v1/endpoints/e1",
      "POST /v1/pods/p1/start",
      "POST /v1/pods/p1/stop",
      "POST /v1/pods/p1/reset",
      "POST /v1/pods/p1/restart",
    ]);
  });

  it("stopPod is retried on 503 (idempotent action)", async () => {
    const { server, client } = await setup([json(503), json(200, {})]);
    await client.stopPod("p1");
    expect(server.requests).toHaveLength(2);
  });

  it("an empty id is refused locally (never turns into a list or a collection DELETE)", async () => {
    const { server, client } = await setup(json(200, {}));
    await expect(client.deletePod("")).rejects.toThrow(GpuCloudError);
    await expect(client.getEndpoint(" ")).rejects.toThrow(/non-empty/);
    expect(server.requests).toHaveLength(0);
  });

  it("endpoints: include flags, comma-string dataCenterIds, update", async () => {
    const { server, client } = await setup([
      json(200, { id: "e1", dataCenterIds: "EU-RO-1,US-TX-3", template: { id: "t1", imageName: "i" }, workers: [] }),
      json(200, { id: "e1", workersMax: 2 }),
    ]);
    const ep = await client.getEndpoint("e1", { includeTemplate: true, includeWorkers: true });
    expect(ep.dataCenterIds).toEqual(["EU-RO-1", "US-TX-3"]);
    expect(ep.template?.id).toBe("t1");
    expect(server.requests[0]!.url).toBe("/v1/endpoints/e1?includeTemplate=true&includeWorkers=true");
    await client.updateEndpoint("e1", { workersMax: 2 });
    expect(body(server.requests[1])).toEqual({ workersMax: 2 });
  });

  it("templates, network volumes, registry auths and billing hit the reference paths", async () => {
    const { server, client } = await setup([
      json(200, { id: "t1", name: "tpl" }),
      json(200, [{ id: "t1", name: "tpl" }]),
      json(200, { id: "t1" }),
      json(204),
      json(200, { id: "v1", size: 10 }),
      json(200, [{ id: "v1" }]),
      json(200, { id: "v1", size: 20 }),
      json(200, { id: "c1", name: "creds" }),
      json(200, [{ id: "c1", name: "creds" }]),
      json(200, { id: "c1", name: "creds" }),
      json(200, [{ amount: "1.5", time: "2023-01-01T00:00:00Z" }]),
      json(200, []),
      json(200, [{ amount: 2 }]),
    ]);
    await client.createTemplate({ name: "tpl", imageName: "img", isServerless: true, category: "NVIDIA" });
    expect((await client.listTemplates()).find((t) => t.name === "tpl")).toMatchObject({ id: "t1" });
    await client.updateTemplate("t1", { readme: "r" });
    await client.deleteTemplate("t1");
    await client.createNetworkVolume({ name: "v", size: 10, dataCenterId: "EU-RO-1" });
    await client.listNetworkVolumes();
    await client.updateNetworkVolume("v1", { size: 20 });
    await client.createRegistryAuth({ name: "creds", username: "u", password: "pw" });
    expect((await client.listRegistryAuths()).find((a) => a.name === "creds")).toMatchObject({ id: "c1" });
    await client.getRegistryAuth("c1");
    const bill = await client.podBilling({ bucketSize: "day", startTime: new Date("2023-01-01T00:00:00Z"), grouping: "podId" });
    expect(bill).toEqual([{ amount: 1.5, time: "2023-01-01T00:00:00Z" }]);
    await client.endpointBilling({ dataCenterId: ["EU-RO-1", "CA-MTL-1"], endpointId: "e1" });
    await client.networkVolumeBilling();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /v1/templates",
      "GET /v1/templates",
      "PATCH /v1/templates/t1",
      "DELETE /v1/templates/t1",
      "POST /v1/networkvolumes",
      "GET /v1/networkvolumes",
      "PATCH /v1/networkvolumes/v1",
      "POST /v1/containerregistryauth",
      "GET /v1/containerregistryauth",
      "GET /v1/containerregistryauth/c1",
      "GET /v1/billing/pods?bucketSize=day&startTime=2023-01-01T00%3A00%3A00.000Z&grouping=podId",
      "GET /v1/billing/endpoints?dataCenterId=EU-RO-1&dataCenterId=CA-MTL-1&endpointId=e1",
      "GET /v1/billing/networkvolumes",
    ]);
    expect(body(server.requests[2])).toEqual({ readme: "r" });
    expect(body(server.requests[7])).toEqual({ name: "creds", username: "u", password: "pw" });
  });
});

/**
 * A tiny stateful service: POST /v1/pods creates a pod, then misbehaves according to `afterCreate`
 * for the first `failures` creates (drop the connection, answer 503, or never answer); GET /v1/pods
 * lists what exists, filtered by name.
 */
async function statefulPods(afterCreate: "drop" | "503" | "hang", failures = 1, { persist = true } = {}) {
  const pods: Pod[] = [];
  let creates = 0;
  const step: Step = (req, res) => {
    if (req.method === "POST" && req.url === "/v1/pods") {
      creates++;
      const input = JSON.parse(req.body) as { name: string };
      const pod = { id: `pod-${creates}`, name: input.name, desiredStatus: "RUNNING" };
      if (persist || creates > failures) pods.push(pod);
      if (creates <= failures) {
        if (afterCreate === "drop") res.socket?.destroy();
        else if (afterCreate === "503") json(503, { error: "upstream timeout" })(req, res);
        return; // "hang": the pod exists, the answer never comes
      }
      json(201, pod)(req, res);
      return;
    }
    if (req.method === "GET" && req.url.startsWith("/v1/pods")) {
      const name = new URL(req.url, "http://x").searchParams.get("name");
      json(
        200,
        pods.filter((p) => name === null || p.name === name),
      )(req, res);
      return;
    }
    json(404, { error: "no route" })(req, res);
  };
  const ctx = await setup(step, 300);
  return { ...ctx, pods, creates: () => creates };
}

// The client sends a create once; the provider's createOnce resolves a lost answer over it by
// looking (never by sending it again).
describe("ambiguous creates over the real client", () => {
  const once = (c: ManagementClient, name: string) => {
    let clock = 0;
    return createWithoutDuplicates<Pod>({
      subject: `pod "${name}"`,
      table: { noun: "pod", fields: {} } as unknown as ResourceTable<Pod>,
      inputs: { name },
      list: () => c.listPods({ name }),
      snapshot: () => c.listPods({ name }),
      matches: (p) => p.name === name,
      create: () => c.createPod({ name, imageName: "img" }),
      log: { info: () => undefined, warn: () => undefined },
      sleep: async (ms) => {
        clock += ms;
      },
      now: () => clock,
      held: new Set(),
      createWindowMs: 10_000,
      adoptHint: (id) => `adoptId: "${id}"`,
    });
  };

  it("the service creates the pod but drops the answer: the lookup finds it, no duplicate", async () => {
    const { client, pods, creates } = await statefulPods("drop");
    const { resource } = await once(client, "unique-1");
    expect(resource).toMatchObject({ id: "pod-1", name: "unique-1" });
    expect(creates()).toBe(1);
    expect(pods).toHaveLength(1);
  });

  it("the same after a 503 and after a timeout", async () => {
    for (const mode of ["503", "hang"] as const) {
      const { client, pods, creates } = await statefulPods(mode);
      const { resource } = await once(client, "unique-2");
      expect(resource.id).toBe("pod-1");
      expect(creates()).toBe(1);
      expect(pods).toHaveLength(1);
      await client.close();
      await server?.close();
    }
    client = undefined;
    server = undefined;
  });

  it("the create really failed (nothing stored): it is not sent again but recorded as pending", async () => {
    const { client, pods, creates } = await statefulPods("503", 1, { persist: false });
    const error = await once(client, "unique-3").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceInitError);
    expect((error as Error).message).toContain("It was not sent again.");
    expect(creates()).toBe(1);
    expect(pods).toHaveLength(0);
  });
});

describe("a create's timeout", () => {
  it("fits the service's creates (createTimeoutMs), while reads keep the short timeout", async () => {
    const slow: Step = (req, res) => {
      setTimeout(() => json(req.method === "POST" ? 201 : 200, req.method === "POST" ? { id: "p1", name: "slow" } : [])(req, res), 600);
    };
    const { client } = await setup(slow, 200, 5_000);
    await expect(client.createPod({ name: "slow", imageName: "img" })).resolves.toMatchObject({ id: "p1" });
    await expect(client.listPods()).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe("a create is sent once", () => {
  it("an ambiguous failure surfaces and the create is not repeated", async () => {
    const { client, creates } = await statefulPods("drop");
    const e = await client.createPod({ name: "unique-5", imageName: "img" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectionError);
    expect(creates()).toBe(1);
  });

  it("a timeout is a TimeoutError, not repeated", async () => {
    const { client, creates } = await statefulPods("hang");
    const e = await client.createPod({ name: "unique-6", imageName: "img" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(creates()).toBe(1);
  });
});
