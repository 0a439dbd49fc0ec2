/**
 * Shared by the emulator's tests that go through its management API (/v1 and, with v2Helpers.ts,
 * /api/v2): an emulator on port 0 with fast time, a tiny JSON client over real HTTP, polling, and
 * a fake job side that records calls and reports usage.
 */
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator";
import type { EndpointSpec, ServerlessDeps, ServerlessService, WorkerView } from "../../emulator/serverless/contract";
import type { Json } from "./wireJson";
import { withV2Recorder } from "./v2Corpus";

export type { Json } from "./wireJson";

export interface ApiResponse {
  status: number;
  body: Json;
  text: string;
  headers: Headers;
}

export const KEY_A = "test-key-account-a";
export const KEY_B = "test-key-account-b";

/**
 * An emulator for a test, whose every v2 answer is checked against the described v2 wire
 * (v2Corpus.ts): a test during which one does not fit fails.
 */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ timeScale: 0.01, apiKeys: [KEY_A, KEY_B], ...options, onReply: withV2Recorder(options.onReply) });
}

export interface Api {
  get(path: string, query?: Record<string, string | string[]>): Promise<ApiResponse>;
  post(path: string, body?: unknown): Promise<ApiResponse>;
  patch(path: string, body?: unknown): Promise<ApiResponse>;
  put(path: string, body?: unknown): Promise<ApiResponse>;
  del(path: string): Promise<ApiResponse>;
  raw(method: string, path: string, init?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<ApiResponse>;
}

export function api(emu: RunningEmulator, key: string | null = emu.apiKey): Api {
  const raw: Api["raw"] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
    const res = await fetch(`${emu.apiUrl}${path}`, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
    const text = await res.text();
    let body: Json;
    if (text !== "" && (res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
    return { status: res.status, body, text, headers: res.headers };
  };
  const json = (method: string) => (path: string, body?: unknown) =>
    raw(method, path, body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return {
    get(path, query) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query ?? {}))
        for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
      const qs = params.toString();
      return raw("GET", qs ? `${path}?${qs}` : path);
    },
    post: json("POST"),
    patch: json("PATCH"),
    put: json("PUT"),
    del: (path) => raw("DELETE", path),
    raw,
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a pod has its public IP (and returns the pod). */
export function waitForBoot(client: Api, podId: string): Promise<Json> {
  return waitFor(`pod ${podId} to boot`, async () => {
    const res = await client.get(`/pods/${podId}`);
    return res.body?.publicIp ? res.body : undefined;
  });
}

export const GPU_POD = {
  name: "test pod",
  imageName: "example/app:1",
  gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
  ports: ["8888/http", "22/tcp"],
};

export async function createServerlessTemplate(client: Api, name = `tpl-${Math.random().toString(36).slice(2)}`): Promise<Json> {
  const res = await client.post("/templates", { name, imageName: "example/worker:1", isServerless: true, env: { MODEL: "small" } });
  if (res.status !== 200) throw new Error(`template create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A stand-in for the job side: records what management told it and can report worker usage. */
export class FakeServerless implements ServerlessService {
  deps: ServerlessDeps | undefined;
  changed: EndpointSpec[] = [];
  deleted: Array<{ accountId: string; endpointId: string }> = [];
  workerList = new Map<string, WorkerView[]>();
  closed = false;

  readonly factory = (deps: ServerlessDeps): ServerlessService => {
    this.deps = deps;
    return this;
  };

  async handle(_req: unknown, res: import("node:http").ServerResponse): Promise<void> {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ fake: true }));
  }
  endpointChanged(spec: EndpointSpec): void {
    this.changed.push(spec);
  }
  endpointDeleted(accountId: string, endpointId: string): void {
    this.deleted.push({ accountId, endpointId });
  }
  workers(endpointId: string): WorkerView[] {
    return this.workerList.get(endpointId) ?? [];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}
