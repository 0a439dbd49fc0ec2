/** Shared by the emulator's /api/v2 tests: the JSON client of managementHelpers.ts pointed at /api/v2. */
import type { RunningEmulator } from "../../emulator";
import { type Api, type ApiResponse, api, waitFor } from "./managementHelpers";

/** A client of `{origin}/api/v2` (same port, same store as /v1). */
export function apiV2(emu: RunningEmulator, key: string | null = emu.apiKey): Api {
  return api({ ...emu, apiUrl: emu.apiUrlV2 }, key);
}

export const V2_GPU_POD = {
  name: "v2 pod",
  image: "example/app:1",
  gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
  ports: ["8888/http", "22/tcp"],
};

export const V2_QUEUE_ENDPOINT = {
  name: "v2 endpoint",
  type: "QUEUE",
  image: "example/worker:1",
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  gpu: { pools: ["ADA_24"] },
};

/** A load-balancing endpoint whose one worker starts at once and stops 1 s (service time) after its minimum is lowered to 0. */
export const V2_ONE_WORKER_LB_ENDPOINT = {
  name: "billed-lb",
  type: "LOAD_BALANCER",
  image: "example/lb:1",
  scaling: { type: "REQUEST_COUNT", requestCount: 4 },
  gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] },
  workers: { min: 1, max: 1, idleTimeout: 1 },
};

/** Waits until the endpoint's one worker is idle (up and billed from its start). */
export function waitForIdleWorker(client: Api, endpointId: string): Promise<true> {
  return waitFor("a worker", async () =>
    (await client.get(`/serverless/${endpointId}/workers`)).body.summary.idle === 1 ? true : undefined,
  );
}

/** Asserts an RFC 9457 problem and returns it. */
export function expectProblem(res: ApiResponse, status: number): { title: string; status: number; detail: string; errors?: string[] } {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  const type = res.headers.get("content-type") ?? "";
  if (!type.startsWith("application/problem+json")) throw new Error(`expected application/problem+json, got ${type}`);
  const body = JSON.parse(res.text) as { title: string; status: number; detail: string; errors?: string[] };
  if (body.status !== status || typeof body.title !== "string" || typeof body.detail !== "string")
    throw new Error(`not a problem body: ${res.text}`);
  return body;
}

export function waitForStatus(client: Api, podId: string, status: string): Promise<Record<string, unknown>> {
  return waitFor(`pod ${podId} to be ${status}`, async () => {
    const res = await client.get(`/pods/${podId}`);
    return res.body?.status === status ? res.body : undefined;
  });
}
