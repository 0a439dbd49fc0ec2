import { describe, expect, it } from "vitest";
import { makeApiError } from "../../../client/errors";
import { createResolvingAmbiguity } from "../../../provider/resources/createOnce";

const err = (fields: Partial<Parameters<typeof makeApiError>[0]>) =>
  makeApiError({ operation: "CreateTemplate", method: "POST", url: "/v1/templates", idempotent: false, ...fields });
const noSleep = { sleep: async () => undefined };

describe("createResolvingAmbiguity", () => {
  it("returns the create's result without any lookup when it succeeds", async () => {
    let lookups = 0;
    const result = await createResolvingAmbiguity(
      async () => "made",
      async () => {
        lookups++;
        return "found";
      },
      noSleep,
    );
    expect(result).toEqual({ kind: "created", resource: "made" });
    expect(lookups).toBe(0);
  });

  it("does not look up or repeat on a clear refusal (4xx)", async () => {
    let creates = 0;
    let lookups = 0;
    const outcome = await createResolvingAmbiguity(
      async () => {
        creates++;
        throw err({ status: 409, serviceMessage: "name taken" });
      },
      async () => {
        lookups++;
        return undefined;
      },
      noSleep,
    );
    expect(outcome.kind).toBe("failed");
    expect(outcome.kind === "failed" && (outcome.error as Error).message).toBe("CreateTemplate failed: 409 Conflict: name taken");
    expect([creates, lookups]).toEqual([1, 0]);
  });

  it("when the lookup itself fails, the outcome is unknown and nothing is created again", async () => {
    let creates = 0;
    const createError = err({ kind: "timeout", detail: "no complete answer within 30000 ms" });
    const lookupError = new Error("lookup down");
    const outcome = await createResolvingAmbiguity(
      async () => {
        creates++;
        throw createError;
      },
      async () => {
        throw lookupError;
      },
      noSleep,
    );
    expect(outcome).toEqual({ kind: "unknown", error: createError, lookupError });
    expect(creates).toBe(1);
  });

  it("finds the resource a lost answer made, and tries again (at most maxAttempts) when there is none", async () => {
    const seen: boolean[] = [];
    const found = await createResolvingAmbiguity(
      async () => {
        throw err({ kind: "connection", detail: "socket hang up" });
      },
      async () => "theirs-is-ours",
      { ...noSleep, onAmbiguous: (_attempt, _error, wasFound) => void seen.push(wasFound) },
    );
    expect(found).toMatchObject({ kind: "found", resource: "theirs-is-ours" });
    let creates = 0;
    const failed = await createResolvingAmbiguity(
      async () => {
        creates++;
        throw err({ status: 503 });
      },
      async () => {
        seen.push(false);
        return undefined;
      },
      { ...noSleep, maxAttempts: 2 },
    );
    expect(failed).toMatchObject({ kind: "failed", ambiguous: true });
    expect(creates).toBe(2);
    expect(seen).toEqual([true, false, false]);
  });

  it("waits with growing backoff before each lookup", async () => {
    const waits: number[] = [];
    let creates = 0;
    await createResolvingAmbiguity(
      async () => {
        if (++creates < 3) throw err({ status: 502 });
        return "ok";
      },
      async () => undefined,
      { sleep: async (ms: number) => void waits.push(ms), random: () => 0 },
    );
    expect(waits).toEqual([250, 500]);
  });
});
