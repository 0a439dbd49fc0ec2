/**
 * Load-balancing requests follow the endpoint's v2 `requestUrls.base`: the live service serves each
 * such endpoint on a host of its own, so JobClient.request (and the JobRunner's HTTP cases) must go
 * there, not to `<serverlessUrl>/<id>`. Two real servers stand in for the job API and for one
 * endpoint's host; the recorded requests show which one was reached, on which path, with the key.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { JobClient, JobRequestError } from "../../client/jobClient";
import { closeClients } from "../../model/connection";
import { smokeTestProvider } from "../../provider/smoke/provider";
import { json, startScriptedServer, type ScriptedServer } from "../support/scriptedServer";

const KEY = "test-key-lb-urls";

let jobApi: ScriptedServer;
let endpointHost: ScriptedServer;
let client: JobClient;

beforeAll(async () => {
  jobApi = await startScriptedServer(json(200, { via: "job api" }));
  endpointHost = await startScriptedServer(json(200, { via: "endpoint host" }, { "x-service-worker-id": "w-7" }));
  client = new JobClient({ apiKey: KEY, serverlessUrl: `${jobApi.origin}/v2`, maxRetries: 0 });
});

afterAll(async () => {
  await client.close();
  await Promise.all([jobApi.close(), endpointHost.close()]);
});

afterEach(() => {
  jobApi.requests.length = 0;
  endpointHost.requests.length = 0;
});

describe("JobClient.request", () => {
  it("goes to requestUrls.base (a host of the endpoint's own), with the API key and the query", async () => {
    const endpoint = { id: "ep-lb", requestUrls: { base: `${endpointHost.origin}/`, health: `${endpointHost.origin}/ping` } };
    const answer = await client.request(endpoint, { method: "POST", path: "/v1/generate", query: { n: 2 }, body: { prompt: "hi" } });
    expect(answer.json).toEqual({ via: "endpoint host" });
    expect(answer.workerId).toBe("w-7");
    expect(jobApi.requests).toEqual([]);
    expect(endpointHost.requests).toHaveLength(1);
    const [sent] = endpointHost.requests;
    expect(sent?.url).toBe("/v1/generate?n=2");
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(sent?.body ?? "")).toEqual({ prompt: "hi" });
  });

  it("keeps a base URL's path (the emulator's path form, {origin}/v2/<id>)", async () => {
    await client.request({ id: "ep-lb", requestUrls: { base: `${endpointHost.origin}/v2/ep-lb` } }, { method: "GET", path: "/ping" });
    expect(endpointHost.requests.map((r) => r.url)).toEqual(["/v2/ep-lb/ping"]);
  });

  it("falls back to <serverlessUrl>/<id> for an id, or requestUrls without a base (v1, queue endpoints)", async () => {
    await client.request("ep-1", { method: "GET", path: "/ping" });
    await client.request({ id: "ep-2", requestUrls: { run: `${endpointHost.origin}/run` } }, { method: "GET", path: "/ping" });
    await client.request({ id: "ep-3", requestUrls: null }, { method: "GET", path: "/ping" });
    expect(jobApi.requests.map((r) => r.url)).toEqual(["/v2/ep-1/ping", "/v2/ep-2/ping", "/v2/ep-3/ping"]);
    expect(endpointHost.requests).toEqual([]);
  });

  it("refuses a base that is not an http(s) URL, naming it and the fix, before sending anything", async () => {
    const attempt = client.request({ id: "ep-lb", requestUrls: { base: "ftp://lb.example/ep" } }, { method: "GET", path: "/ping" });
    await expect(attempt).rejects.toBeInstanceOf(JobRequestError);
    await expect(attempt).rejects.toThrow(/requestUrls\.base must be an http\(s\) URL \(got "ftp:\/\/lb\.example\/ep"\).*only its id/);
    expect(jobApi.requests.length + endpointHost.requests.length).toBe(0);
  });
});

describe("JobRunner HTTP cases", () => {
  const env = { GPUCLOUD_API_KEY: process.env.GPUCLOUD_API_KEY, GPUCLOUD_SERVERLESS_URL: process.env.GPUCLOUD_SERVERLESS_URL };
  beforeAll(() => {
    process.env.GPUCLOUD_API_KEY = KEY;
    process.env.GPUCLOUD_SERVERLESS_URL = `${jobApi.origin}/v2`;
  });
  afterAll(async () => {
    await closeClients();
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  const cases = [
    { name: "generate", request: { method: "POST", path: "/v1/generate", body: {} }, expect: { bodySubset: { via: "endpoint host" } } },
  ];

  it("reach the endpoint's requestUrls.base when the runner has it (as requestBase)", async () => {
    const { outs } = await smokeTestProvider.create!({ endpointId: "ep-lb", requestBase: endpointHost.origin, cases });
    expect(outs.results).toMatchObject([{ name: "generate", passed: true, httpStatus: 200, workerId: "w-7" }]);
    expect(endpointHost.requests.map((r) => r.url)).toEqual(["/v1/generate"]);
    expect(jobApi.requests).toEqual([]);
  });

  it("go to <serverlessUrl>/<id> without requestBase (and fail there, as the job API answers otherwise)", async () => {
    await expect(smokeTestProvider.create!({ endpointId: "ep-lb", cases })).rejects.toThrow(/generate/);
    expect(jobApi.requests.map((r) => r.url)).toEqual(["/v2/ep-lb/v1/generate"]);
    expect(endpointHost.requests).toEqual([]);
  });
});
