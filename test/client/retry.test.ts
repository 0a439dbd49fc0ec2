import { describe, expect, it } from "vitest";
import {
  backoffDelayMs,
  isIdempotentMethod,
  MAX_DELAY_MS,
  parseRetryAfterMs,
  shouldRetry,
  type RetryDecisionInput,
} from "../../client/retry";

describe("shouldRetry", () => {
  const table: Array<[string, RetryDecisionInput, boolean]> = [
    ["GET 500", { status: 500, idempotent: true }, true],
    ["GET 502", { status: 502, idempotent: true }, true],
    ["GET 503", { status: 503, idempotent: true }, true],
    ["GET 504", { status: 504, idempotent: true }, true],
    ["GET 408", { status: 408, idempotent: true }, true],
    ["GET 429", { status: 429, idempotent: true }, true],
    ["GET 400", { status: 400, idempotent: true }, false],
    ["GET 401", { status: 401, idempotent: true }, false],
    ["GET 403", { status: 403, idempotent: true }, false],
    ["GET 404", { status: 404, idempotent: true }, false],
    ["GET 409", { status: 409, idempotent: true }, false],
    ["GET 422", { status: 422, idempotent: true }, false],
    ["create POST 500", { status: 500, idempotent: false }, false],
    ["create POST 503", { status: 503, idempotent: false }, false],
    ["create POST 408", { status: 408, idempotent: false }, false],
    ["create POST 429 (refused before acting)", { status: 429, idempotent: false }, true],
    ["create POST 400", { status: 400, idempotent: false }, false],
    ["GET reset", { errorKind: "connection", idempotent: true }, true],
    ["POST reset", { errorKind: "connection", idempotent: false }, false],
    ["GET timeout", { errorKind: "timeout", idempotent: true }, true],
    ["POST timeout", { errorKind: "timeout", idempotent: false }, false],
    ["POST refused (nothing sent)", { errorKind: "connect", idempotent: false }, true],
    ["GET refused", { errorKind: "connect", idempotent: true }, true],
    ["GET invalid 2xx body", { status: 200, errorKind: "invalid_response", idempotent: true }, false],
    ["no status, no kind", { idempotent: true }, false],
    ["GET 301", { status: 301, idempotent: true }, false],
  ];
  it.each(table)("%s -> %s", (_name, input, expected) => {
    expect(shouldRetry(input)).toBe(expected);
  });
});

describe("isIdempotentMethod", () => {
  it("GET, PUT, PATCH, DELETE are idempotent; POST is not", () => {
    expect(["GET", "PUT", "PATCH", "DELETE", "get"].map(isIdempotentMethod)).toEqual([true, true, true, true, true]);
    expect(isIdempotentMethod("POST")).toBe(false);
  });
});

describe("backoffDelayMs", () => {
  it("is min(0.5 * 2^n, 8) s with equal jitter: within [cap/2, cap]", () => {
    for (let n = 0; n < 10; n++) {
      const cap = Math.min(500 * 2 ** n, 8000);
      expect(backoffDelayMs(n, undefined, () => 0)).toBe(cap / 2);
      expect(backoffDelayMs(n, undefined, () => 1)).toBe(cap);
      const mid = backoffDelayMs(n, undefined, () => 0.5);
      expect(mid).toBe(Math.round(cap * 0.75));
    }
  });

  it("never exceeds 8 s and never goes below 250 ms, whatever random returns", () => {
    for (const r of [-1, 0, 0.3, 0.999, 1, 5]) {
      for (let n = 0; n < 40; n++) {
        const d = backoffDelayMs(n, undefined, () => r);
        expect(d).toBeGreaterThanOrEqual(250);
        expect(d).toBeLessThanOrEqual(MAX_DELAY_MS);
      }
    }
  });

  it("uses a sane Retry-After in seconds as given", () => {
    expect(backoffDelayMs(0, "3", () => 0.5)).toBe(3000);
    expect(backoffDelayMs(5, "0", () => 0.5)).toBe(0);
    expect(backoffDelayMs(0, "60", () => 0.5)).toBe(60_000);
    expect(backoffDelayMs(0, "1.5", () => 0.5)).toBe(1500);
  });

  it("uses a sane Retry-After HTTP-date", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(backoffDelayMs(0, "Wed, 01 Jan 2025 00:00:05 GMT", () => 0.5, now)).toBe(5000);
    // a date in the past means "now"
    expect(backoffDelayMs(0, "Tue, 31 Dec 2024 23:00:00 GMT", () => 0.5, now)).toBe(0);
  });

  it("honours a Retry-After of any length (the live service sends the exceeded window's reset, up to a day)", () => {
    expect(backoffDelayMs(0, "61", () => 0)).toBe(61_000);
    expect(backoffDelayMs(0, "3600", () => 0)).toBe(3_600_000);
    expect(backoffDelayMs(0, "86400", () => 0)).toBe(86_400_000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(backoffDelayMs(2, "Wed, 01 Jan 2025 01:00:00 GMT", () => 0, now)).toBe(3_600_000);
  });

  it("ignores a Retry-After beyond the bound the caller gives (non-429 answers) and falls back to backoff", () => {
    expect(backoffDelayMs(0, "61", () => 0, Date.now(), 60_000)).toBe(250);
    expect(backoffDelayMs(0, "60", () => 0, Date.now(), 60_000)).toBe(60_000);
  });

  it("ignores a negative or unreadable Retry-After and falls back to backoff", () => {
    expect(backoffDelayMs(0, "-5", () => 0)).toBe(250);
    expect(backoffDelayMs(1, "soon", () => 0)).toBe(500);
    expect(backoffDelayMs(1, "", () => 0)).toBe(500);
  });
});

describe("parseRetryAfterMs", () => {
  it("reads seconds, dates and arrays; rejects junk", () => {
    expect(parseRetryAfterMs("2")).toBe(2000);
    expect(parseRetryAfterMs(["4", "9"])).toBe(4000);
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs("abc")).toBeUndefined();
    expect(parseRetryAfterMs("1e3")).toBeUndefined();
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfterMs("Wed, 01 Jan 2025 00:01:00 GMT", now)).toBe(60_000);
  });
});
