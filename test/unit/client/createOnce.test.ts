import { describe, expect, it } from "vitest";
import { createOnce } from "../../../client/createOnce";
import { makeApiError } from "../../../client/errors";

const err = (fields: Partial<Parameters<typeof makeApiError>[0]>) =>
  makeApiError({ operation: "CreateTemplate", method: "POST", url: "/v1/templates", idempotent: false, ...fields });
const noSleep = { sleep: async () => undefined };

describe("createOnce", () => {
  it("returns the create's result without any lookup when it succeeds", async () => {
    let lookups = 0;
    const result = await createOnce(async () => "made", async () => (lookups++, "found"), noSleep);
    expect(result).toBe("made");
    expect(lookups).toBe(0);
  });

  it("does not look up or repeat on a clear refusal (4xx)", async () => {
    let creates = 0;
    let lookups = 0;
    const e = await createOnce(
      async () => {
        creates++;
        throw err({ status: 409, serviceMessage: "name taken" });
      },
      async () => (lookups++, undefined),
      noSleep,
    ).catch((x: unknown) => x);
    expect((e as Error).message).toBe("CreateTemplate failed: 409 Conflict: name taken");
    expect([creates, lookups]).toEqual([1, 0]);
  });

  it("when the lookup itself fails, the create's error is thrown and nothing is created again", async () => {
    let creates = 0;
    const createError = err({ kind: "timeout", detail: "no complete answer within 30000 ms" });
    const e = await createOnce(
      async () => {
        creates++;
        throw createError;
      },
      async () => {
        throw new Error("lookup down");
      },
      noSleep,
    ).catch((x: unknown) => x);
    expect(e).toBe(createError);
    expect(creates).toBe(1);
  });

  it("waits with growing backoff before each lookup", async () => {
    const waits: number[] = [];
    let creates = 0;
    await createOnce(
      async () => {
        if (++creates < 3) throw err({ status: 502 });
        return "ok";
      },
      async () => undefined,
      { sleep: async (ms) => void waits.push(ms), random: () => 0 },
    );
    expect(waits).toEqual([250, 500]);
  });
});
