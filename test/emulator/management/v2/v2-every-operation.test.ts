/**
 * Every operation of the service's management API v2, as the project's description of the wire
 * lists them (test/support/fixtures/v2-wire.json: the reference's paths and what the live API
 * gained since, held against both by scripts/check-v2-wire.ts), is served by the emulator: a
 * request to its method and path reaches that very operation (the route interceptor names the
 * operation the router chose) and is answered with something other than "no such operation" or
 * 405, whatever its parameters are worth (a made-up id may well be a 404 of the resource).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, startTestEmulator } from "../../../support/managementHelpers";
import { apiV2 } from "../../../support/v2Helpers";
import { type WireOperation, loadV2Wire } from "../../../support/v2Wire";

/** Operations of the reference: the August description's paths and the addendum's (sandboxes and organisations aside). */
const REFERENCE_OPERATION_COUNT = 67;

const operations = loadV2Wire().operations;
let emu: RunningEmulator;
let v2: Api;
/** The operation the router chose for the request in flight (requests are sent one at a time). */
let reached: string | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({
    rateLimit: false,
    routeInterceptor: ({ operationId }) => {
      reached = operationId;
      return false;
    },
  });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

/** Sends a request to the operation's method and path (made-up path parameters, an empty JSON body): who answered it, and how. */
async function walk(method: string, path: string): Promise<{ reached: string | undefined; status: number; detail: string }> {
  reached = undefined;
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => `walk-${name}`);
  const withBody = method === "POST" || method === "PUT" || method === "PATCH";
  const res = await v2.raw(method, concrete, withBody ? { headers: { "content-type": "application/json" }, body: "{}" } : {});
  return { reached, status: res.status, detail: typeof res.body?.detail === "string" ? res.body.detail : "" };
}

const missing = (answer: { status: number; detail: string }) =>
  answer.status === 405 || (answer.status === 404 && answer.detail.startsWith("no such operation"));

describe("every v2 operation of the reference", () => {
  it("is in the project's list once", () => {
    expect(operations).toHaveLength(REFERENCE_OPERATION_COUNT);
    expect(new Set(operations.map((op) => `${op.method} ${op.path}`)).size).toBe(REFERENCE_OPERATION_COUNT);
  });

  it("tells a missing operation from a served one (a removed path is 'no such operation')", async () => {
    // The service removed /v2/tags (management-api-v2-today.md 6.1 #14); the emulator never had it.
    const removed = await walk("GET", "/tags");
    expect(removed.reached).toBeUndefined();
    expect(missing(removed)).toBe(true);
    expect(missing(await walk("PUT", "/pods/{id}"))).toBe(true);
  });

  it.each(operations.map((op): [string, WireOperation] => [`${op.method} ${op.path} (${op.operationId})`, op]))(
    "%s reaches its operation and is answered",
    async (_, op) => {
      const answer = await walk(op.method, op.path);
      expect(answer.reached, `${op.method} ${op.path} answered ${answer.status} ${answer.detail}`).toBe(op.operationId);
      expect(missing(answer)).toBe(false);
    },
  );
});
