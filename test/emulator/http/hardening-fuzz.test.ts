/**
 * Fuzzing below and beside the management API's schemas: the job API (valid jobs, wrong fields,
 * malformed and deeply nested bodies, bad job ids) and raw requests on every surface (malformed
 * HTTP, oversized bodies written in full before reading). 0 5xx, 0 empty error bodies, 0 dropped
 * connections.
 */
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobApiFuzzer, Rng, rawFuzzRequest } from "../../support/openapiFuzz";
import { type EmulatorWithEndpoint, emulatorWithEndpoint, errorMessageOf, httpSend, rawExchange } from "./hardening-helpers";
import { KEY_A } from "../../support/managementHelpers";

const JOB_REQUESTS = 1_500;
const RAW_REQUESTS = 120;
const SEED = 20_261_124;
const CONCURRENCY = 6;

let h: EmulatorWithEndpoint;
beforeAll(async () => {
  // A small /v1 limit keeps the oversized bodies small; the job API keeps its 10 / 20 MB limits.
  h = await emulatorWithEndpoint({ bodyLimitBytes: 64_000 });
});
afterAll(async () => {
  await h.emu.close();
});

function tally(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

describe("job API fuzzing", () => {
  it(`${JOB_REQUESTS} seeded requests: no 5xx, every error a JSON message, every request answered`, { timeout: 120_000 }, async () => {
    const fuzz = new JobApiFuzzer(SEED, KEY_A);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const byStatus: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    const problems: string[] = [];
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (sent < JOB_REQUESTS) {
        sent++;
        const request = fuzz.next();
        const path = `/v2/${h.endpointId}${request.path}`;
        const outcome = await httpSend(h.emu.port, agent, { ...request, path });
        tally(byStatus, String(outcome.status ?? "none"));
        tally(byKind, request.kind);
        const what = `${request.method} ${path.slice(0, 120)} [${request.kind}]`;
        if (outcome.status === undefined) problems.push(`${what}: no answer (${outcome.error})`);
        else if (outcome.status >= 500) problems.push(`${what}: ${outcome.status} ${outcome.text.slice(0, 200)}`);
        else if (outcome.status >= 400 && errorMessageOf(outcome.text) === undefined)
          problems.push(`${what}: ${outcome.status} without a JSON error message`);
        else if (outcome.status < 300) fuzz.learn(JSON.parse(outcome.text) as unknown);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
    agent.destroy();
    console.log(`[fuzz-jobs] by status ${JSON.stringify(byStatus)}; by kind ${JSON.stringify(byKind)}`);
    expect(problems).toEqual([]);
    // The stream reached the handlers, and the deep bodies were refused as such.
    expect(byStatus["200"] ?? 0).toBeGreaterThan(200);
    expect(byKind["deep-nesting"] ?? 0).toBeGreaterThan(100);
    expect(byStatus["400"] ?? 0).toBeGreaterThan(byKind["deep-nesting"] ?? 0);
  });
});

describe("raw request fuzzing on every surface", () => {
  it(`${RAW_REQUESTS} malformed or oversized-before-read requests: each answered in JSON, none dropped`, { timeout: 180_000 }, async () => {
    const rng = new Rng(SEED);
    const paths = [
      { path: "/v1/templates", limit: 64_000 },
      { path: "/api/v2/templates", limit: 64_000 },
      { path: `/v2/${h.endpointId}/purge-queue`, limit: 1_000_000 },
    ];
    const byKind: Record<string, number> = {};
    const problems: string[] = [];
    for (let i = 0; i < RAW_REQUESTS; i++) {
      const target = rng.pick(paths);
      const request = rawFuzzRequest(rng, KEY_A, target.path, target.limit);
      tally(byKind, request.kind);
      const { responses, socketError } = await rawExchange(h.emu.port, [request.bytes], 15_000);
      const what = `${request.kind} on ${target.path}`;
      if (socketError !== undefined) problems.push(`${what}: connection dropped (${socketError})`);
      if (responses.length !== request.expect.length) {
        problems.push(
          `${what}: ${responses.length} answers, expected ${request.expect.length} (${responses.map((r) => r.status).join(", ")})`,
        );
        continue;
      }
      responses.forEach((res, n) => {
        if (!(request.expect[n] ?? []).includes(res.status))
          problems.push(`${what}: answer ${n + 1} is ${res.status}, expected ${String(request.expect[n])}`);
        if (res.status >= 400 && errorMessageOf(res.body) === undefined)
          problems.push(`${what}: ${res.status} without a JSON error message`);
      });
    }
    console.log(`[fuzz-raw] by kind ${JSON.stringify(byKind)}`);
    expect(problems).toEqual([]);
    expect(byKind["oversized-before-read"] ?? 0).toBeGreaterThan(10);
  });
});
