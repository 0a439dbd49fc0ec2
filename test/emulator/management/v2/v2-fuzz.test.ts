/**
 * Fuzzing /api/v2 from its own OpenAPI description (GET /api/v2/openapi.json) with the seeded
 * generator of test/support/openapiFuzz.ts: no request may get a 5xx or go unanswered, every
 * error is an RFC 9457 problem whose status matches the answer, and every 400/422 names at least
 * one field in `errors[]`. The rate limit is off: the stream is far faster than any client.
 */
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { OpenApiDocZ as DescribedDocZ, operationsOf } from "../../../../scripts/lib/fuzzV2/description";
import { OpenApiDocZ, OpenApiFuzzer, sendFuzzRequest } from "../../../support/openapiFuzz";
import { KEY_A, KEY_B, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2 } from "../../../support/v2Helpers";

const REQUESTS = 3_000;
const SEED = 20_261_124;
const CONCURRENCY = 8;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: false });
});
afterAll(() => emu.close());

describe(`/api/v2 fuzzing: ${REQUESTS} seeded requests`, () => {
  it("no 5xx, no hang, every error a problem naming what was wrong", { timeout: 120_000 }, async () => {
    const raw: unknown = await (await fetch(`${emu.apiUrlV2}/openapi.json`)).json();
    const doc = OpenApiDocZ.parse(raw);
    // What the description documents per operation: any other status is a finding (a 405 is the
    // router's, for a path another operation owns: an empty id makes one).
    const documented = new Map(operationsOf(DescribedDocZ.parse(raw)).map((op) => [op.id, op.documented]));
    const fuzzA = new OpenApiFuzzer(doc, SEED, KEY_A);
    const fuzzB = new OpenApiFuzzer(doc, SEED + 1, KEY_B);
    // Real resources in account A, so that requests with ids reach the handlers; account B's
    // fuzzer holds them too, and must only ever get 404s for them.
    const client = apiV2(emu, KEY_A);
    for (let i = 0; i < 3; i++) {
      const created = {
        registries: await client.post("/registries", { name: `fuzz-reg-${i}`, username: "u", password: "p" }),
        templates: await client.post("/templates", { name: `fuzz-tpl-${i}`, image: "example/app:1", serverless: true }),
        "network-volumes": await client.post("/network-volumes", { name: `fuzz-vol-${i}`, size: 10, dataCenter: "EU-RO-1" }),
        pods: await client.post("/pods", { ...V2_GPU_POD, name: `fuzz-pod-${i}` }),
        serverless: await client.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: `fuzz-ep-${i}` }),
      };
      for (const [collection, res] of Object.entries(created)) {
        expect(res.status, `seed ${collection}: ${res.text}`).toBe(201);
        fuzzA.remember(collection, res.body.id);
        fuzzB.remember(collection, res.body.id);
      }
    }

    const base = new URL(emu.apiUrlV2);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const byStatus: Record<string, number> = {};
    const byOperation: Record<string, number> = {};
    const failures: string[] = [];
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (sent < REQUESTS) {
        sent++;
        const fuzz = sent % 4 === 0 ? fuzzB : fuzzA;
        const { op, request } = fuzz.next();
        const what = `${request.method} ${request.path.slice(0, 160)} [${request.kind}] body=${String(request.body ?? "-").slice(0, 160)}`;
        byOperation[op.operationId] = (byOperation[op.operationId] ?? 0) + 1;
        const outcome = await sendFuzzRequest(base, agent, request);
        if (outcome.status === undefined) {
          failures.push(`${what} -> no answer: ${outcome.error}`);
          continue;
        }
        const status = outcome.status;
        const text = outcome.text ?? "";
        const contentType = outcome.contentType ?? "";
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (status !== 405 && !documented.get(op.operationId)?.has(status))
          failures.push(`${what} -> ${status} undocumented: ${text.slice(0, 200)}`);
        if (status >= 500) failures.push(`${what} -> ${status} ${text.slice(0, 300)}`);
        else if (status < 300 && text && contentType.includes("json")) fuzz.learn(op, JSON.parse(text));
        else if (status >= 400) {
          const problem = (() => {
            try {
              return JSON.parse(text) as { title?: unknown; status?: unknown; detail?: unknown; errors?: unknown };
            } catch {
              return undefined;
            }
          })();
          const isProblem =
            contentType.startsWith("application/problem+json") &&
            typeof problem?.title === "string" &&
            problem.status === status &&
            typeof problem.detail === "string" &&
            problem.detail.length > 0;
          const namesField = status !== 400 && status !== 422 ? true : Array.isArray(problem?.errors) && problem.errors.length > 0;
          if (!isProblem || !namesField) failures.push(`${what} -> ${status} not a problem naming the field: ${text.slice(0, 300)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
    agent.destroy();
    console.log(`[v2-fuzz] ${sent} requests over ${Object.keys(byOperation).length} operations; by status ${JSON.stringify(byStatus)}`);

    expect(failures).toEqual([]);
    expect(Object.keys(byOperation).length).toBe(fuzzA.operations.length);
    const successes = Object.entries(byStatus)
      .filter(([s]) => s.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0);
    expect(successes).toBeGreaterThan(200);
    expect((byStatus[422] ?? 0) + (byStatus[400] ?? 0)).toBeGreaterThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await apiV2(emu).get("/pods")).status).toBe(200);
  });
});
