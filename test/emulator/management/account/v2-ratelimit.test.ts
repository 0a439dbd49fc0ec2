/**
 * The v2 per-account rate limit: RateLimit and RateLimit-Policy on every authenticated answer
 * (successes and problems alike), 429 with Retry-After once a quota is spent, per account, and
 * configurable (option `rateLimit`, or off). The windows are checked with a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { DEFAULT_RATE_LIMIT, RateLimiter } from "../../../../emulator/management/account/rateLimit";
import { KEY_B, api, startTestEmulator } from "../../../support/managementHelpers";
import { apiV2, expectProblem } from "../../../support/v2Helpers";

/** A wall-clock instant halfway through an hour, for limiter windows that must not reset mid-test. */
const FROZEN_CLOCK_MS = Date.UTC(2026, 0, 1, 12, 30, 0);

describe("over HTTP, with an hourly quota of 5", () => {
  let emu: RunningEmulator;
  // The windows' clock stands still, so no window resets the count halfway through the test.
  beforeAll(async () => {
    emu = await startTestEmulator({ rateLimit: { perHour: 5 }, rateLimitClock: () => FROZEN_CLOCK_MS });
  });
  afterAll(() => emu.close());

  it("counts down on every answer (errors too), then answers 429 with Retry-After; other accounts and /v1 are not affected", async () => {
    const v2 = apiV2(emu);
    const answers = [
      await v2.get("/pods"),
      await v2.get("/pods/nope"),
      await v2.post("/pods", { name: "" }),
      await v2.get("/catalog/gpus"),
      await v2.get("/templates"),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 422, 200, 200]);
    const policy = `"minute";q=${DEFAULT_RATE_LIMIT.perMinute};w=60, "hour";q=5;w=3600, "day";q=${DEFAULT_RATE_LIMIT.perDay};w=86400`;
    answers.forEach((res, i) => {
      expect(res.headers.get("ratelimit-policy")).toBe(policy);
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`"hour";r=${4 - i};t=\\d+`));
    });

    const refused = await v2.get("/pods");
    const problem = expectProblem(refused, 429);
    expect(problem.detail).toMatch(/^rate limit exceeded for the hour window; retry after \d+ s/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("ratelimit")).toMatch(/"hour";r=0;t=\d+/);
    expect(refused.headers.get("ratelimit-policy")).toBe(policy);
    // A refused request did not run: a create is refused without creating.
    expectProblem(await v2.post("/network-volumes", { name: "not made", size: 10, dataCenter: "EU-RO-1" }), 429);
    expect(emu.inspect().flatMap((a) => a.networkVolumes)).toEqual([]);

    const other = apiV2(emu, KEY_B);
    const fresh = await other.get("/pods");
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("ratelimit")).toMatch(/"hour";r=4;/);
    expect((await api(emu).get("/pods")).status).toBe(200);
    // The public document is not counted or limited.
    expect((await fetch(`${emu.apiUrlV2}/openapi.json`)).status).toBe(200);
    // A missing key is a 401, not a 429: the limit is per account.
    expectProblem(await apiV2(emu, null).get("/pods"), 401);
  });
});

it("over HTTP, a 204 without a body, a 400 for a body that is not JSON and a 413 carry the state too, counting down", async () => {
  const emu = await startTestEmulator({ rateLimit: { perHour: 100 }, rateLimitClock: () => FROZEN_CLOCK_MS });
  try {
    const v2 = apiV2(emu);
    const volume = await v2.post("/network-volumes", { name: "to delete", size: 10, dataCenter: "EU-RO-1" });
    const answers = [
      volume,
      await v2.del(`/network-volumes/${String(volume.body?.id)}`),
      await v2.raw("POST", "/pods", { headers: { "content-type": "application/json" }, body: "{not json" }),
      // (Not /pods: its own limit is measured before auth, so its 413 is not counted.)
      await v2.raw("POST", "/templates", { headers: { "content-type": "application/json" }, body: Buffer.alloc(2_000_000, 0x20) }),
    ];
    expect(answers.map((r) => r.status)).toEqual([201, 204, 400, 413]);
    answers.forEach((res, i) => {
      expect(res.headers.get("ratelimit")).toMatch(new RegExp(`"hour";r=${99 - i};t=\\d+`));
      expect(res.headers.get("ratelimit-policy")).toMatch(/"hour";q=100;w=3600/);
    });
  } finally {
    await emu.close();
  }
});

describe("configuration", () => {
  it("is off with rateLimit: false (no headers, no 429)", async () => {
    const emu = await startTestEmulator({ rateLimit: false });
    try {
      const v2 = apiV2(emu);
      for (let i = 0; i < 3; i++) {
        const res = await v2.get("/pods");
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit")).toBeNull();
        expect(res.headers.get("ratelimit-policy")).toBeNull();
      }
    } finally {
      await emu.close();
    }
  });

  it("the default is the reference's example policy: 60 a minute, 3000 an hour, 50000 a day", async () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ perMinute: 60, perHour: 3000, perDay: 50_000 });
    const emu = await startTestEmulator();
    try {
      const res = await apiV2(emu).get("/pods");
      expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400');
    } finally {
      await emu.close();
    }
  });

  it("counts in service time: under a time scale of 0.01 a minute window resets after 0.6 real seconds, and the waits are stated in real seconds", async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const emu = await startTestEmulator({ timeScale: 0.01, rateLimit: { perMinute: 2 }, rateLimitClock: () => now });
    try {
      const v2 = apiV2(emu);
      expect((await v2.get("/pods")).status).toBe(200);
      const second = await v2.get("/pods");
      // 60 service seconds left in the minute: 0.6 real seconds, stated as 1.
      expect(second.headers.get("ratelimit")).toMatch(/^"minute";r=0;t=1, "hour";r=2998;t=36, "day";r=49998;t=432$/);
      const refused = await v2.get("/pods");
      expect(expectProblem(refused, 429).detail).toMatch(/^rate limit exceeded for the minute window; retry after 1 s/);
      expect(refused.headers.get("retry-after")).toBe("1");
      now += 600; // a service minute
      expect((await v2.get("/pods")).status).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it("refuses a quota that is not a positive integer, naming the option", async () => {
    await expect(startTestEmulator({ rateLimit: { perMinute: 0 } })).rejects.toThrow(/rateLimit: perMinute must be an integer >= 1, got 0/);
    expect(() => new RateLimiter({ perDay: 1.5 })).toThrow(/perDay must be an integer >= 1, got 1\.5/);
  });
});

describe("the windows (fake clock)", () => {
  it("names the exhausted window that holds a request back longest", () => {
    const limiter = new RateLimiter({ perMinute: 1, perHour: 1 }, () => 30_000);
    limiter.take("a");
    const refused = limiter.take("a");
    expect(refused).toMatchObject({ allowed: false, window: "hour" });
    expect(refused.headers["retry-after"]).toBe("3570");
  });

  it("resets each fixed window at its boundary and says how long until then", () => {
    let now = 120_000 + 50_000; // 50 s into a minute window
    const limiter = new RateLimiter({ perMinute: 2 }, () => now);
    expect(limiter.take("a").allowed).toBe(true);
    const second = limiter.take("a");
    expect(second.headers.ratelimit).toMatch(/^"minute";r=0;t=10, "hour";r=2998;/);
    const refused = limiter.take("a");
    expect(refused.allowed).toBe(false);
    expect(refused.headers["retry-after"]).toBe("10");
    // Refused requests are not counted against the hour.
    expect(refused.headers.ratelimit).toMatch(/"hour";r=2998;/);
    expect(limiter.take("b").allowed).toBe(true);
    now = 180_000; // the next minute
    const next = limiter.take("a");
    expect(next.allowed).toBe(true);
    expect(next.headers.ratelimit).toMatch(/^"minute";r=1;t=60,/);
  });
});
