/**
 * Test harness for the job side: a real http server on port 0 routing /v2/* to the service, with a
 * fake management side (fixed accounts and keys, endpoint specs the test owns, a fixed placement,
 * collected worker usage).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { createClock } from "../../emulator/clock";
import type { EndpointSpec, Placement, ServerlessDeps, ServerlessService, WorkerUsage } from "../../emulator/serverless/contract";
import { createServerlessService, type ServerlessOptions } from "../../emulator/serverless";
import type { Json } from "./wireJson";

export const KEYS: Record<string, string> = { "key-one": "acct1", "key-two": "acct2" };
export const KEY = "key-one";
export const PLACEMENT: Placement = { gpuTypeId: "NVIDIA A40", cpuFlavorId: null, dataCenterId: "EU-RO-1", costPerHr: 0.5 };

export function spec(over: Partial<EndpointSpec> = {}): EndpointSpec {
  return {
    id: "ep1",
    accountId: "acct1",
    name: "echo",
    templateId: "tpl1",
    imageName: "example/echo:1.0",
    env: {},
    computeType: "GPU",
    gpuTypeIds: ["NVIDIA A40"],
    gpuCount: 1,
    cpuFlavorIds: [],
    dataCenterIds: ["EU-RO-1"],
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 5,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    executionTimeoutMs: 600_000,
    version: 1,
    type: "QUEUE",
    ...over,
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON; loosely typed so assertions stay short (test-only). */
  body: Json;
}

export interface Harness {
  url: string;
  svc: ServerlessService;
  specs: Map<string, EndpointSpec>;
  usage: WorkerUsage[];
  placeError: { value: string | undefined };
  timeScale: number;
  /** Real ms for a service-time duration. */
  real(serviceMs: number): number;
  call(method: string, path: string, body?: unknown, opts?: { key?: string | null; auth?: string; raw?: string | Buffer }): Promise<Reply>;
  /** Polls `fn` until it returns a truthy value (real-time deadline). */
  until<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs?: number, what?: string): Promise<T>;
  setSpec(s: EndpointSpec): void;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { timeScale?: number; endpoints?: EndpointSpec[]; options?: ServerlessOptions } = {},
): Promise<Harness> {
  const timeScale = opts.timeScale ?? 0.01;
  const clock = createClock(timeScale);
  const specs = new Map<string, EndpointSpec>();
  for (const s of opts.endpoints ?? [spec()]) specs.set(s.id, s);
  const usage: WorkerUsage[] = [];
  const placeError: { value: string | undefined } = { value: undefined };
  const deps: ServerlessDeps = {
    clock,
    resolveAccount(authorization) {
      if (!authorization) return undefined;
      const key = authorization.startsWith("Bearer ") ? authorization.slice(7).trim() : authorization.trim();
      return KEYS[key];
    },
    getEndpoint(accountId, endpointId) {
      const s = specs.get(endpointId);
      if (!s) return undefined;
      return s.accountId === accountId || s.accountId === "public" ? s : undefined;
    },
    place: () => (placeError.value ? { error: placeError.value } : PLACEMENT),
    recordWorkerUsage: (u) => usage.push(u),
  };
  const svc = createServerlessService(deps, { coldStartMs: 1500, ...opts.options });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (path.startsWith("/v2/")) void svc.handle(req, res, path.slice(3));
    else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":"not found"}');
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const h: Harness = {
    url,
    svc,
    specs,
    usage,
    placeError,
    timeScale,
    real: (ms) => ms * timeScale,
    async call(method, path, body, o = {}) {
      const headers: Record<string, string> = {};
      const key = o.key === undefined ? KEY : o.key;
      if (o.auth !== undefined) headers["authorization"] = o.auth;
      else if (key !== null) headers["authorization"] = `Bearer ${key}`;
      let payload: string | Buffer | undefined;
      if (o.raw !== undefined) payload = o.raw;
      else if (body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(url + path, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`non-JSON answer ${res.status} for ${method} ${path}: ${text.slice(0, 200)}`);
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async until(fn, timeoutMs = 15_000, what = "condition") {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const v = await fn();
        if (v) return v as never;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 3));
      }
    },
    setSpec(s) {
      specs.set(s.id, s);
      svc.endpointChanged(s);
    },
    async close() {
      await svc.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  // The management side announces its endpoints (starts workersMin).
  for (const s of specs.values()) svc.endpointChanged(s);
  return h;
}
