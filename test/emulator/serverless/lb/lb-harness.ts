/**
 * Helpers for the load-balancing endpoint tests, on top of test/support/jobsHarness.ts (a port-0 server routing
 * /v2 to the job side with a fake management side): LB endpoint specs, raw HTTP calls with any
 * body and headers, and the fixture server modules (fixtures/ beside this file) with their state.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { EndpointSpec } from "../../../../emulator/serverless/contract";
import { KEY, spec, type Harness } from "../../../support/jobsHarness";
import type { Json } from "../../../support/wireJson";

export const FIXTURES = path.join(__dirname, "fixtures");

export function fixture(file: string): string {
  return path.join(FIXTURES, file);
}

/**
 * The state a fixture module exports. Loaded with Node's own require, which shares its module
 * cache with the emulator's loader: the test and the workers see the same object.
 */
export function fixtureState<T>(file: string): T {
  const req = createRequire(path.join(FIXTURES, "noop.js"));
  return (req(fixture(file)) as { state: T }).state;
}

export function lbSpec(over: Partial<EndpointSpec> = {}): EndpointSpec {
  return spec({ type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", scalerValue: 1, workersMin: 1, workersMax: 2, ...over });
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON (loosely typed so assertions stay short), undefined when the body is not JSON. */
  json: Json;
  /** The X-Service-Worker-Id header, or null. */
  workerId: string | null;
}

export async function send(
  h: Harness,
  method: string,
  urlPath: string,
  o: { body?: string; headers?: Record<string, string>; key?: string | null } = {},
): Promise<RawReply> {
  const headers: Record<string, string> = { ...o.headers };
  const key = o.key === undefined ? KEY : o.key;
  if (key !== null) headers["authorization"] = `Bearer ${key}`;
  const res = await fetch(h.url + urlPath, { method, headers, ...(o.body !== undefined ? { body: o.body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, workerId: res.headers.get("x-service-worker-id") };
}

/** Worker views of an endpoint with the given statuses (default: any but unhealthy). */
export function workersOf(h: Harness, id: string, statuses: string[] = ["initializing", "idle", "running"]) {
  return h.svc.workers(id).filter((w) => statuses.includes(w.status));
}

/** Waits until the endpoint has `n` healthy (idle or running) workers; returns their ids. */
export async function healthy(h: Harness, id: string, n: number): Promise<string[]> {
  return h.until(
    () => {
      const ws = workersOf(h, id, ["idle", "running"]);
      return ws.length === n ? ws.map((w) => w.id) : undefined;
    },
    15_000,
    `${n} healthy workers on ${id}`,
  );
}
