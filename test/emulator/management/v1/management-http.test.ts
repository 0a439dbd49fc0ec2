import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import {
  type Api,
  FakeServerless,
  GPU_POD,
  KEY_A,
  api,
  createServerlessTemplate,
  startTestEmulator,
} from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ bodyLimitBytes: 64 * 1024 });
  client = api(emu);
});
afterAll(() => emu.close());

const json = { "content-type": "application/json" };

describe("errors", () => {
  test("malformed JSON and non-object bodies are 400", async () => {
    const bad = await client.raw("POST", "/pods", { headers: json, body: '{"imageName": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("not valid JSON");
    for (const body of ["[]", '"text"', "42", "null", "true"]) {
      const res = await client.raw("POST", "/templates", { headers: json, body });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toContain("must be a JSON object");
    }
  });

  test("an empty body counts as {} (so required fields are named)", async () => {
    const res = await client.raw("POST", "/networkvolumes", { headers: json, body: "" });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("dataCenterId");
  });

  test("413 JSON past the body limit", async () => {
    const big = JSON.stringify({ name: "x".repeat(70 * 1024), imageName: "i" });
    const res = await client.raw("POST", "/templates", { headers: json, body: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toContain("exceeds");
  });

  test("413 also for a chunked body without content-length", async () => {
    const url = new URL(`${emu.apiUrl}/templates`);
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        { method: "POST", headers: { ...json, authorization: `Bearer ${KEY_A}`, "transfer-encoding": "chunked" } },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", (error) => (error.message.includes("EPIPE") || error.message.includes("ECONNRESET") ? undefined : reject(error)));
      for (let i = 0; i < 80; i++) req.write("x".repeat(1024));
      req.end();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body).error).toContain("exceeds");
  });

  test("unknown route 404 JSON, wrong method 405 JSON with Allow, outside /v1 and /v2 404", async () => {
    const unknown = await client.get("/gpus");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("/v1/gpus");
    const method = await client.raw("PUT", "/pods");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST, GET");
    expect(method.body).toEqual({ error: expect.stringContaining("PUT"), status: 405 });
    const outside = await fetch(`${emu.apiUrl.replace(/\/v1$/, "")}/v3/pods`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: string }).error).toContain("/v1");
    expect((await client.get("/pods/")).status).toBe(200); // trailing slash tolerated
    const encoded = await client.get("/pods/%E0%A4%A");
    expect(encoded.status).toBe(400);
  });

  test("/v2 is routed to the job side with the path after /v2", async () => {
    const fake = new FakeServerless();
    const own = await startTestEmulator({ serverlessFactory: fake.factory });
    try {
      const res = await fetch(`${own.serverlessUrl}/abc/run`, { method: "POST" });
      expect(await res.json()).toEqual({ fake: true });
    } finally {
      await own.close();
    }
  });
});

describe("garbage never causes a 500", () => {
  const garbage: unknown[] = [
    {},
    { name: null },
    { name: 12, imageName: [], size: "big", templateId: {}, gpuCount: "2" },
    { env: "A=B" },
    { env: { "": "x" } },
    { env: [1, 2] },
    { ports: 22 },
    { ports: [null] },
    { dataCenterIds: 7 },
    { gpuTypeIds: "NVIDIA L4" },
    { size: Number.MAX_SAFE_INTEGER + 2 },
    { workersMin: 1.5, workersMax: "3" },
    { __proto__: { polluted: true } },
    { constructor: { prototype: { polluted: true } } },
    { name: "\u0000\uffff\ud800" },
    { templateId: "../../etc/passwd" },
    { networkVolumeIds: [{}] },
    { locked: "true" },
    { bucketSize: "day" },
  ];
  // A number too large for a double is only expressible as JSON text (JSON.stringify writes Infinity as null).
  const rawBodies = ["{", "}", "[", '{"a":}', "\u0000", '{"a":1}garbage', "a".repeat(1000), '{"__proto__":{"x":1}}', '{"size":1e309}'];

  test("every operation, every garbage body: a 4xx JSON answer", async () => {
    const pod = (await client.post("/pods", GPU_POD)).body;
    const tpl = await createServerlessTemplate(client);
    const endpoint = (await client.post("/endpoints", { templateId: tpl.id })).body;
    const volume = (await client.post("/networkvolumes", { name: "v", size: 1, dataCenterId: "EU-RO-1" })).body;
    const doc = (await client.get("/openapi.json")).body;
    const ids: Record<string, string> = {
      podId: pod.id,
      endpointId: endpoint.id,
      templateId: tpl.id,
      networkVolumeId: volume.id,
      containerRegistryAuthId: "cnope",
    };
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        if (method === "delete") continue; // deleting would just succeed
        const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? "x");
        const bodies = [...garbage.map((g) => JSON.stringify(g)), ...rawBodies];
        for (const body of bodies) {
          const res = await client.raw(method.toUpperCase(), concrete, method === "get" ? {} : { headers: json, body });
          expect(res.status, `${method} ${concrete} ${body.slice(0, 60)} -> ${res.text}`).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.body.error).toBe("string");
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("garbage query strings", async () => {
    for (const qs of [
      "?includeMachine=%",
      "?gpuTypeId=&gpuTypeId=",
      "?startTime[]=x",
      "?bucketSize=day&bucketSize=hour&bucketSize=",
      "?a=%E0%A4%A",
      "?&&&=&",
    ]) {
      for (const path of ["/pods", "/billing/pods", "/billing/endpoints", "/templates", "/endpoints"]) {
        const res = await client.raw("GET", `${path}${qs}`);
        expect(res.status, `${path}${qs} -> ${res.text}`).toBeLessThan(500);
      }
    }
  });

  test("an exception inside a handler is a JSON 500 (catch-all), not a dropped connection", async () => {
    const own = await startTestEmulator({
      routeInterceptor: ({ operationId }) => {
        if (operationId === "ListPods") throw new Error("boom");
        return false;
      },
    });
    try {
      const res = await api(own).get("/pods");
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: "internal error: boom", status: 500 });
    } finally {
      await own.close();
    }
  });
});

describe("route interceptor (fault-injection seam)", () => {
  test("sees the operation and account, and may answer itself", async () => {
    const seen: string[] = [];
    const own = await startTestEmulator({
      routeInterceptor: async ({ operationId, accountId, res }) => {
        seen.push(`${operationId}:${accountId === "" ? "public" : "acct"}`);
        if (operationId !== "GetPod") return false;
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "injected" }));
        return true;
      },
    });
    try {
      const c = api(own);
      expect((await c.get("/pods")).status).toBe(200);
      expect((await c.get("/pods/anything")).status).toBe(503);
      expect((await c.get("/openapi.json")).status).toBe(200);
      expect(seen).toEqual(["ListPods:acct", "GetPod:acct", "GetOpenAPI:public"]);
    } finally {
      await own.close();
    }
  });
});

describe("quirks (switchable live-service behaviours)", () => {
  test("defaults follow the description; each reported behaviour can be switched on", async () => {
    const own = await startTestEmulator({
      quirks: {
        unknownFieldStatus: 422,
        deleteStatus: 200,
        costPerHrAsString: true,
        endpointDataCenterIdsAsString: true,
        injectPodPublicKey: false,
        injectServerlessTemplatePorts: false,
      },
    });
    try {
      const c = api(own);
      expect((await c.post("/pods", { ...GPU_POD, extra: 1 })).status).toBe(422);
      const pod = (await c.post("/pods", GPU_POD)).body;
      expect(pod.costPerHr).toBe("0.69");
      expect(pod.env).toEqual({});
      const tpl = await createServerlessTemplate(c);
      expect(tpl.env).toEqual({ MODEL: "small" });
      const endpoint = (await c.post("/endpoints", { templateId: tpl.id, dataCenterIds: ["EU-RO-1", "US-TX-3"] })).body;
      expect(endpoint.dataCenterIds).toBe("EU-RO-1,US-TX-3");
      const deleted = await c.del(`/pods/${pod.id}`);
      expect(deleted.status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test("idle endpoints lose workersMax (2 after 3 days, 0 after 7) when the quirk is on", async () => {
    const fake = new FakeServerless();
    // 5e-6: one real millisecond is 200 service seconds: 3 days pass in 1.3 s, 7 days in 3.0 s.
    const own = await startTestEmulator({
      timeScale: 5e-6,
      quirks: { idleEndpointWorkersMaxDecay: true },
      serverlessFactory: fake.factory,
    });
    try {
      const c = api(own);
      const tpl = await createServerlessTemplate(c);
      const endpoint = (await c.post("/endpoints", { templateId: tpl.id, workersMin: 1, workersMax: 5 })).body;
      await new Promise((resolve) => setTimeout(resolve, 1400)); // > 3 days, with 1.6 s to spare before 7
      const after3 = (await c.get(`/endpoints/${endpoint.id}`)).body;
      expect(after3.workersMax).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1700)); // > 7 days
      const after7 = (await c.get(`/endpoints/${endpoint.id}`)).body;
      expect(after7).toMatchObject({ workersMax: 0, workersMin: 0 });
      expect(fake.changed.at(-1)).toMatchObject({ id: endpoint.id, workersMax: 0 });
    } finally {
      await own.close();
    }
  });
});
