/**
 * The project's stateful fuzzer of /api/v2 (scripts/lib/fuzzV2, the bench is scripts/bench-fuzz-v2.ts)
 * in a smaller seeded run: driven by the emulator's own description, it links the ids creates and
 * lists answer to later reads, changes and deletes. No answer may be a 5xx, a status the description
 * does not document for the operation, or missing. Slow requests are the bench's finding, not this
 * test's (no timed assertions here).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { OpenApiDocZ, operationsOf } from "../../../../scripts/lib/fuzzV2/description";
import { StatefulFuzzer } from "../../../../scripts/lib/fuzzV2/fuzzer";
import { runFuzzV2 } from "../../../../scripts/lib/fuzzV2/run";
import { Rng } from "../../../../scripts/lib/fuzzV2/values";
import { KEY_A, startTestEmulator } from "../../../support/managementHelpers";
import { apiV2, expectProblem } from "../../../support/v2Helpers";

const REQUESTS = 400;
const SEED = 20_261_202;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: false, bootDelayMs: 0 });
});
afterAll(() => emu.close());

describe(`/api/v2 stateful fuzzing: ${REQUESTS} seeded requests`, () => {
  it("no 5xx, no undocumented status, every request answered; creates feed later requests", { timeout: 120_000 }, async () => {
    const report = await runFuzzV2({ baseUrl: emu.apiUrlV2, apiKey: KEY_A, seed: SEED, requests: REQUESTS });
    const findings = report.findings.filter((f) => f.kind !== "slow");
    console.log(
      `[v2-stateful-fuzz] ${report.requests} requests, ${report.operations} operations; by status ${JSON.stringify(report.byStatus)}; ` +
        `linked ${report.linked.sent} (${report.linked.ok} 2xx); slow ${report.findings.length - findings.length}`,
    );
    expect(findings.map((f) => `${f.kind}: ${f.request} -> ${f.status ?? "-"} ${f.detail.slice(0, 160)}`)).toEqual([]);
    expect(report.requests).toBe(REQUESTS);
    // Nearly every described operation was exercised (deletes are drawn rarely, so that resources
    // live to be used), and the run made resources and used them by their ids.
    const reached = Object.values(report.byOperation).filter((t) => t.sent > 0).length;
    expect(reached / report.operations).toBeGreaterThan(0.9);
    expect(report.byStatus["201"] ?? 0).toBeGreaterThan(10);
    expect(report.linked.ok).toBeGreaterThan(20);
    expect((report.byStatus["400"] ?? 0) + (report.byStatus["422"] ?? 0)).toBeGreaterThan(40);
    expect(report.byStatus["404"] ?? 0).toBeGreaterThan(10);
  });

  it("the same seed makes the same requests (a finding can be replayed)", async () => {
    const doc = OpenApiDocZ.parse(await (await fetch(`${emu.apiUrlV2}/openapi.json`)).json());
    const requests = (seed: number) => {
      const fuzzer = new StatefulFuzzer(doc, operationsOf(doc), new Rng(seed));
      return Array.from({ length: 300 }, () => {
        const r = fuzzer.next();
        return `${r.method} ${r.path} ${r.body ?? ""}`;
      });
    };
    expect(requests(SEED)).toEqual(requests(SEED));
    expect(requests(SEED + 1)).not.toEqual(requests(SEED));
  });

  it("what the fuzzer found is documented: a body that is not an object (400) on PUT /account/ssh-keys, terminate's 204", async () => {
    const doc = OpenApiDocZ.parse(await (await fetch(`${emu.apiUrlV2}/openapi.json`)).json());
    const documented = (id: string) => [...(operationsOf(doc).find((op) => op.id === id)?.documented ?? [])];
    expectProblem(await apiV2(emu).put("/account/ssh-keys", []), 400);
    expect(documented("updateSshKeys")).toContain(400);
    expect(documented("podAction")).toEqual(expect.arrayContaining([200, 204, 402, 409]));
  });
});
