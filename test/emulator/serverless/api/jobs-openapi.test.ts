/**
 * GET {serverlessUrl}/openapi.json: the job API's description, generated from its route table.
 * It is a valid OpenAPI 3.0 document, lists every route of the job API (callers', workers',
 * load-balancing) with every method it answers, and agrees with what is served (a method it does
 * not list is a 405 whose Allow is the listed methods).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Json, api, createServerlessTemplate, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let doc: Json;
let endpointId: string;

const ANY = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

// Every route of the job API (NOTES.md job API section, WORKER-PROTOCOL.md, load-balancing
// endpoints), as METHOD path under /v2.
const JOB_API_ROUTES = [
  "GET /openapi.json",
  "POST /{endpoint_id}/run",
  "POST /{endpoint_id}/runsync",
  "GET /{endpoint_id}/status/{job_id}",
  "POST /{endpoint_id}/status/{job_id}",
  "GET /{endpoint_id}/status-sync/{job_id}",
  "POST /{endpoint_id}/status-sync/{job_id}",
  "GET /{endpoint_id}/stream/{job_id}",
  "POST /{endpoint_id}/stream/{job_id}",
  "POST /{endpoint_id}/cancel/{job_id}",
  "POST /{endpoint_id}/retry/{job_id}",
  "POST /{endpoint_id}/purge-queue",
  "GET /{endpoint_id}/health",
  "GET /{endpoint_id}/requests",
  ...ANY.map((method) => `${method} /{endpoint_id}/openai/{openai_route}`),
  "GET /{endpoint_id}/job-take/{worker_id}",
  "GET /{endpoint_id}/job-take-batch/{worker_id}",
  "POST /{endpoint_id}/job-done/{worker_id}/{job_id}",
  "POST /{endpoint_id}/job-stream/{worker_id}/{job_id}",
  "GET /{endpoint_id}/ping/{worker_id}",
  "GET /{endpoint_id}/job-stop/{worker_id}",
  ...ANY.map((method) => `${method} /{endpoint_id}/{path}`),
];

const OPENAPI_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

function operations(d: Json): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(d.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
}

/** Every `$ref` in a JSON value. */
function refs(value: Json, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  const res = await fetch(`${emu.serverlessUrl}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json");
  doc = await res.json();
  const client = api(emu);
  const template = await createServerlessTemplate(client);
  const endpoint = await client.post("/endpoints", { name: "described", templateId: template.id, gpuTypeIds: ["NVIDIA L4"] });
  expect(endpoint.status).toBe(200);
  endpointId = endpoint.body.id;
});
afterAll(() => emu.close());

describe("GET /v2/openapi.json", () => {
  test("needs no key and is served at the job API's base", async () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(doc.servers).toEqual([{ url: "/v2" }]);
    expect(doc.paths["/openapi.json"].get.security).toEqual([]);
  });

  test("lists every job API route with every method it answers, and nothing else", () => {
    const listed = operations(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(listed.sort()).toEqual([...JOB_API_ROUTES].sort());
  });

  test("is a valid OpenAPI 3.0 document", async () => {
    expect(typeof doc.info.title).toBe("string");
    expect(typeof doc.info.version).toBe("string");
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const requirement of doc.security) for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
    const tags = new Set((doc.tags as Array<{ name: string }>).map((t) => t.name));
    const ids: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      expect(OPENAPI_METHODS.has(method), `${method} ${path}`).toBe(true);
      expect(path.startsWith("/"), path).toBe(true);
      if (op.operationId !== undefined) ids.push(op.operationId);
      else expect(op.description, `${method} ${path} names the operation it belongs to`).toMatch(/^The same operation as /);
      for (const tag of op.tags) expect(tags.has(tag), `${method} ${path}: tag ${tag}`).toBe(true);
      const statuses = Object.keys(op.responses);
      expect(statuses.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const status of statuses) {
        expect(status, `${method} ${path}`).toMatch(/^[1-5]\d\d$/);
        expect(typeof op.responses[status].description).toBe("string");
      }
      // Each template parameter once, required, in the path; no path parameter the template lacks.
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters as Array<{ name: string; in: string; required?: boolean }>).filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(templated);
      for (const p of declared) expect(p.required).toBe(true);
      for (const p of op.parameters as Array<{ name: string; in: string; schema?: Json }>) {
        expect(["path", "query", "header", "cookie"]).toContain(p.in);
        expect(p.schema, `${method} ${path} ${p.name}`).toBeDefined();
      }
      if (op.requestBody !== undefined) expect(Object.keys(op.requestBody.content)).toEqual(["application/json"]);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const ref of refs(doc)) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
      expect(name !== undefined && doc.components.schemas[name] !== undefined, ref).toBe(true);
    }
  });

  test("its operation ids are unique across the three surfaces, so a fault selector names one operation", async () => {
    const v1 = await (await fetch(`${emu.apiUrl}/openapi.json`)).json();
    const v2 = await (await fetch(`${emu.apiUrlV2}/openapi.json`)).json();
    const ids = (d: Json): string[] => operations(d).flatMap(({ op }) => (op.operationId === undefined ? [] : [op.operationId]));
    const job = ids(doc);
    const management = new Set([...ids(v1), ...ids(v2)]);
    expect(job.filter((id) => management.has(id))).toEqual([]);
  });

  test("states the request schemas, the query parameters and the limit each operation counts against", () => {
    const run = doc.paths["/{endpoint_id}/run"].post;
    expect(run.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/JobRequest" });
    expect(doc.components.schemas.JobRequest.required).toEqual(["input"]);
    expect(Object.keys(doc.components.schemas.JobRequest.properties).sort()).toEqual(["input", "policy", "s3Config", "webhook"]);
    expect(run["x-limit"]).toBe("run");
    const runsync = doc.paths["/{endpoint_id}/runsync"].post;
    expect(runsync.parameters.find((p: Json) => p.in === "query")).toMatchObject({ name: "wait", required: false });
    expect(runsync["x-limit"]).toBe("runsync");
    expect(doc.paths["/{endpoint_id}/status-sync/{job_id}"].get["x-limit"]).toBe("status");
    expect(doc.paths["/{endpoint_id}/purge-queue"].post["x-limit"]).toBe("purgeQueue");
    expect(doc.paths["/{endpoint_id}/{path}"].get["x-limit"]).toBe("lb");
    expect(doc.paths["/{endpoint_id}/job-take/{worker_id}"].get["x-limit"]).toBeUndefined();
    expect(doc.paths["/{endpoint_id}/job-take/{worker_id}"].get.responses["204"]).toBeDefined();
    expect(doc.paths["/{endpoint_id}/status/{job_id}"].get.operationId).toBe("getJobStatus");
    expect(doc.paths["/{endpoint_id}/status/{job_id}"].post.description).toContain("getJobStatus");
    expect(doc.components.schemas.EndpointHealth.properties.workers.required).toEqual([
      "idle",
      "initializing",
      "ready",
      "running",
      "throttled",
      "unhealthy",
    ]);
  });

  test("agrees with what is served: a method an operation does not list is a 405 whose Allow lists its methods", async () => {
    const byPath = new Map<string, string[]>();
    for (const { method, path } of operations(doc)) byPath.set(path, [...(byPath.get(path) ?? []), method.toUpperCase()]);
    let checked = 0;
    for (const [path, methods] of byPath) {
      const other = ["GET", "POST", "PUT", "DELETE"].find((m) => !methods.includes(m));
      if (other === undefined) continue; // answers every method (OpenAI requests, load balancing)
      const url = path.replace("{endpoint_id}", endpointId).replace(/\{(job_id|worker_id)\}/g, "x");
      const res = await fetch(`${emu.serverlessUrl}${url}`, { method: other, headers: { authorization: `Bearer ${emu.apiKey}` } });
      expect(res.status, `${other} ${path}`).toBe(405);
      expect(res.headers.get("allow")?.split(", ").sort(), `${other} ${path}`).toEqual([...methods].sort());
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });
});
