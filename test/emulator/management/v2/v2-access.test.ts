/**
 * Access rules around every operation: API-key scopes (403 naming the missing scope), 405 with
 * `Allow` on every surface (CONNECT included) and with the rate-limit state when authenticated,
 * and the retired v1 API (--v1-retired: 410 naming the v2 URL).
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { parseCliArgs } from "../../../../emulator/cliArgs";
import { KEY_A, api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

const READ_ONLY = "key-pods-read-only";
const NO_SCOPES = "key-without-scopes";

/** A CONNECT with a path target (fetch cannot send one): status and headers of the answer. */
function connect(
  emu: RunningEmulator,
  path: string,
  key?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: emu.host,
      port: emu.port,
      method: "CONNECT",
      path,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    req.on("connect", (res, socket) => {
      let body = "";
      socket.on("data", (chunk: Buffer) => (body += chunk.toString()));
      socket.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      socket.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("API key scopes", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({
      apiKeys: [KEY_A, { key: READ_ONLY, scopes: ["pods:read", "account:read"] }, { key: NO_SCOPES, scopes: [] }],
    });
  });
  afterAll(() => emu.close());

  it("refuses an operation outside the key's scopes with a 403 problem naming the operation and the missing scope", async () => {
    const reader = apiV2(emu, READ_ONLY);
    expect((await reader.get("/pods")).status).toBe(200);
    expect((await reader.get("/account/limits")).status).toBe(200);
    const create = await reader.post("/pods", V2_GPU_POD);
    const problem = expectProblem(create, 403);
    expect(problem.detail).toMatch(
      /createPod \(POST \/pods\) needs the API key scope "pods:write", which this key lacks \(its scopes: pods:read, account:read\)/,
    );
    // Counted and reported like any authenticated answer.
    expect(create.headers.get("ratelimit")).toMatch(/"minute";r=\d+/);
    expect(emu.inspect().flatMap((a) => a.pods)).toEqual([]);
    expect(expectProblem(await reader.get("/serverless"), 403).detail).toMatch(/"serverless:read"/);
    expect(expectProblem(await reader.get("/account/secrets"), 403).detail).toMatch(/"secrets:read"/);
    expect(expectProblem(await apiV2(emu, NO_SCOPES).get("/account/limits"), 403).detail).toMatch(
      /needs the API key scope "account:read", which this key lacks \(its scopes: none\)/,
    );
    // A key given as a bare string has every scope.
    expect((await apiV2(emu, KEY_A).post("/serverless", V2_QUEUE_ENDPOINT)).status).toBe(201);
    // The public document needs no key, so no scope.
    expect((await fetch(`${emu.apiUrlV2}/openapi.json`)).status).toBe(200);
  });

  it("--api-key KEY:scope,scope restricts a key; an unknown scope is refused", () => {
    const parsed = parseCliArgs(["--api-key", "open", "--api-key", "narrow:pods:read,account:read"]);
    expect(parsed.help ? undefined : parsed.options.apiKeys).toEqual(["open", { key: "narrow", scopes: ["pods:read", "account:read"] }]);
    expect(() => parseCliArgs(["--api-key", "k:pods:rread"])).toThrow(/unknown scope "pods:rread"; known scopes: pods:read/);
  });
});

describe("405 and Allow on every surface", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu.close());

  it("a v2 405 carries Allow and, for a known key, the rate-limit state", async () => {
    const res = await apiV2(emu).raw("PUT", "/pods");
    expectProblem(res, 405);
    expect(res.headers.get("allow")).toBe("GET, POST");
    expect(res.headers.get("ratelimit")).toMatch(/"minute";r=\d+;t=\d+/);
    expect(res.headers.get("ratelimit-policy")).toMatch(/"minute";q=60;w=60/);
    const anonymous = await apiV2(emu, null).raw("PUT", "/pods");
    expect(anonymous.status).toBe(405);
    expect(anonymous.headers.get("allow")).toBe("GET, POST");
  });

  it("CONNECT gets 405 with Allow on /api/v2, /v1 and the job API", async () => {
    const v2 = await connect(emu, "/api/v2/pods", KEY_A);
    expect(v2.status).toBe(405);
    expect(v2.headers.allow).toBe("GET, POST");
    expect(v2.headers.ratelimit).toMatch(/"minute";r=\d+/);
    const v1 = await connect(emu, "/v1/pods", KEY_A);
    expect(v1.status).toBe(405);
    expect(String(v1.headers.allow).split(", ").sort()).toEqual(["GET", "POST"]);
    const endpoint = await api(emu).post("/endpoints", {
      name: "e",
      templateId: (await api(emu).post("/templates", { name: "t", imageName: "example/w:1", isServerless: true, containerDiskInGb: 5 }))
        .body.id,
      gpuTypeIds: ["NVIDIA L4"],
    });
    expect(endpoint.status).toBe(200);
    const job = await connect(emu, `/v2/${String(endpoint.body.id)}/run`, KEY_A);
    expect(job.status).toBe(405);
    expect(job.headers.allow).toBe("POST");
    const proxy = await new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
      const req = request({ host: emu.host, port: emu.port, method: "CONNECT", path: "example.com:443" });
      req.on("connect", (res, socket) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, allow: res.headers.allow });
      });
      req.on("error", reject);
      req.end();
    });
    expect(proxy).toEqual({ status: 405, allow: "GET, POST, PUT, PATCH, DELETE" });
  });

  it("a job API 405 carries Allow", async () => {
    const tpl = await api(emu).post("/templates", { name: "t2", imageName: "example/w:1", isServerless: true, containerDiskInGb: 5 });
    const endpoint = await api(emu).post("/endpoints", { name: "e2", templateId: tpl.body.id, gpuTypeIds: ["NVIDIA L4"] });
    const res = await fetch(`${emu.serverlessUrl}/${String(endpoint.body.id)}/run`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("--v1-retired", () => {
  it("answers every /v1 call 410 with a problem naming the v2 URL; /api/v2 and the job API keep working", async () => {
    const emu = await startTestEmulator({ v1Retired: true });
    try {
      for (const [method, path] of [
        ["GET", "/pods"],
        ["POST", "/pods"],
        ["GET", "/endpoints/abc"],
        ["DELETE", "/templates/x"],
      ] as const) {
        const res = await api(emu).raw(method, path);
        const problem = expectProblem(res, 410);
        expect(problem.title).toBe("Gone");
        expect(problem.detail).toContain(`the REST v1 API is retired (since 2026-11-15) and no longer serves ${method} /v1${path}`);
        expect(problem.detail).toContain(`use the management API v2 at ${emu.apiUrlV2}`);
      }
      expect((await apiV2(emu).get("/pods")).status).toBe(200);
      expect((await fetch(`${emu.serverlessUrl}/nope/health`, { headers: { authorization: `Bearer ${KEY_A}` } })).status).toBe(404);
      expect(parseCliArgs(["--v1-retired"])).toMatchObject({ options: { v1Retired: true } });
    } finally {
      await emu.close();
    }
  });

  it("is off by default", async () => {
    const emu = await startTestEmulator();
    try {
      expect((await api(emu).get("/pods")).status).toBe(200);
    } finally {
      await emu.close();
    }
  });
});
