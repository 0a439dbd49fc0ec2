/**
 * Fuzzing the management API from its own OpenAPI description (GET /v1/openapi.json): a seeded,
 * bounded stream of valid-ish and invalid requests (test/support/openapiFuzz.ts) against a live
 * emulator. No request may get a 5xx, every request must be answered within a timeout, and every
 * error answer must be the JSON error shape `{"error": "...", "status": N}`.
 */
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { OpenApiDocZ as DescribedDocZ, operationsOf } from "../../../../scripts/lib/fuzzV2/description";
import { type FuzzRequest, OpenApiDocZ, OpenApiFuzzer, sendFuzzRequest as send } from "../../../support/openapiFuzz";
import { KEY_A, KEY_B, api, startTestEmulator } from "../../../support/managementHelpers";

const REQUESTS = 5_000;
const SEED = 20_240_611;
const CONCURRENCY = 8;

describe(`OpenAPI-driven fuzzing: ${REQUESTS} seeded requests`, () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(async () => emulator?.close());

  it("no 5xx, no hang, every error is the JSON error shape", { timeout: 300_000 }, async () => {
    const docResponse = await api(emulator, null).get("/openapi.json");
    expect(docResponse.status).toBe(200);
    const doc = OpenApiDocZ.parse(docResponse.body);
    // Keys of both accounts: account B's requests reach account A's ids too (isolation under fuzz).
    const fuzzA = new OpenApiFuzzer(doc, SEED, KEY_A);
    const fuzzB = new OpenApiFuzzer(doc, SEED + 1, KEY_B);
    expect(fuzzA.operations.length).toBeGreaterThanOrEqual(30);
    // Real resources in both accounts, so that requests with ids reach the handlers (and account
    // B's fuzzer also holds account A's ids: they must be 404s, never another account's data).
    for (const [key, fuzz] of [
      [KEY_A, fuzzA],
      [KEY_B, fuzzB],
    ] as const) {
      const client = api(emulator, key);
      for (let i = 0; i < 3; i++) {
        const auth = await client.post("/containerregistryauth", { name: `fuzz-creds-${i}`, username: "u", password: "p" });
        const template = await client.post("/templates", { name: `fuzz-template-${i}`, imageName: "example/app:1", isServerless: true });
        const volume = await client.post("/networkvolumes", { name: `fuzz-volume-${i}`, size: 10, dataCenterId: "EU-RO-1" });
        const pod = await client.post("/pods", {
          name: `fuzz-pod-${i}`,
          imageName: "example/app:1",
          gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
        });
        const endpoint = await client.post("/endpoints", {
          name: `fuzz-endpoint-${i}`,
          templateId: template.body.id,
          gpuTypeIds: ["NVIDIA L4"],
        });
        const created = { containerregistryauth: auth, templates: template, networkvolumes: volume, pods: pod, endpoints: endpoint };
        for (const [collection, res] of Object.entries(created)) {
          expect(res.status, `seed ${collection}: ${res.text}`).toBeLessThan(300);
          fuzz.remember(collection, res.body.id);
          if (fuzz === fuzzA) fuzzB.remember(collection, res.body.id);
        }
      }
    }

    const base = new URL(emulator.apiUrl);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const byStatus: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    const byOperation: Record<string, number> = {};
    const serverErrors: string[] = [];
    const noAnswer: string[] = [];
    const badErrorShape: string[] = [];
    // What the description documents per operation: any other status is a finding.
    const documented = new Map(operationsOf(DescribedDocZ.parse(docResponse.body)).map((op) => [op.id, op.documented]));
    const undocumented: string[] = [];
    let sent = 0;
    let slowest = 0;

    const describeReq = (r: FuzzRequest): string =>
      `${r.method} ${r.path.slice(0, 160)} [${r.kind}] body=${r.body === undefined ? "-" : String(r.body).slice(0, 160)}`;
    const worker = async (): Promise<void> => {
      while (sent < REQUESTS) {
        sent++;
        const fuzz = sent % 4 === 0 ? fuzzB : fuzzA;
        const { op, request } = fuzz.next();
        const outcome = await send(base, agent, request);
        slowest = Math.max(slowest, outcome.ms);
        byKind[request.kind] = (byKind[request.kind] ?? 0) + 1;
        byOperation[request.operationId] = (byOperation[request.operationId] ?? 0) + 1;
        if (outcome.status === undefined) {
          noAnswer.push(`${describeReq(request)} -> ${outcome.error}`);
          byStatus["none"] = (byStatus["none"] ?? 0) + 1;
          continue;
        }
        byStatus[String(outcome.status)] = (byStatus[String(outcome.status)] ?? 0) + 1;
        // A 405 is the router's answer for a path another operation owns (an empty id makes one), not this operation's.
        if (outcome.status !== 405 && !documented.get(request.operationId)?.has(outcome.status))
          undocumented.push(`${describeReq(request)} -> ${outcome.status} ${outcome.text?.slice(0, 200)}`);
        if (outcome.status >= 500) serverErrors.push(`${describeReq(request)} -> ${outcome.status} ${outcome.text?.slice(0, 300)}`);
        if (outcome.status >= 200 && outcome.status < 300 && outcome.text) {
          try {
            fuzz.learn(op, JSON.parse(outcome.text));
          } catch {
            // GET /docs is HTML
          }
        }
        if (outcome.status >= 400) {
          let shapeOk = false;
          try {
            const body = JSON.parse(outcome.text ?? "") as { error?: unknown; status?: unknown };
            shapeOk = typeof body.error === "string" && body.error.length > 0 && body.status === outcome.status;
          } catch {
            shapeOk = false;
          }
          if (!shapeOk || !(outcome.contentType ?? "").includes("application/json"))
            badErrorShape.push(`${describeReq(request)} -> ${outcome.status} ${outcome.text?.slice(0, 200)}`);
        }
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
    agent.destroy();
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    console.log(
      `[fuzz-openapi] ${total} requests in ${Date.now() - started} ms over ${Object.keys(byOperation).length} operations; slowest ${slowest} ms; ` +
        `by status ${JSON.stringify(byStatus)}; by kind ${JSON.stringify(byKind)}; 5xx ${serverErrors.length}; unanswered ${noAnswer.length}`,
    );

    expect(total).toBe(REQUESTS);
    expect(serverErrors, "no request may get a 5xx").toEqual([]);
    expect(noAnswer, "every request gets an answer within the timeout").toEqual([]);
    expect(badErrorShape, "every 4xx is the JSON error shape").toEqual([]);
    expect(undocumented, "every status is one the description documents for the operation").toEqual([]);
    // The stream reached the handlers (not just the validators): successes and every op.
    expect(Object.keys(byOperation).length).toBe(fuzzA.operations.length);
    expect(
      Object.entries(byStatus)
        .filter(([s]) => s.startsWith("2"))
        .reduce((a, [, n]) => a + n, 0),
    ).toBeGreaterThan(300);
    expect(byStatus["400"] ?? 0).toBeGreaterThan(1000);
    expect(byStatus["413"] ?? 0).toBeGreaterThan(0);
    // Nothing leaked into Object.prototype, and the emulator still serves.
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect((await api(emulator, KEY_A).get("/pods")).status).toBe(200);
    expect(emulator.inspect().length).toBeGreaterThan(0);
  });
});
