// Rate and concurrency limits (with the dynamic per-worker rule) and payload sizes.
import { describe, expect, it } from "vitest";
import { spec, startHarness } from "../../support/jobsHarness";

describe("rate limits", () => {
  it("answers 429 JSON with Retry-After beyond the rate, per account, and resets with the window", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "pub", accountId: "public", workersMin: 0, workersMax: 0 })],
      // 100 s window = 1 s real: a burst fits in it; then the test waits it out.
      options: { limits: { run: { rate: 5 } }, rateWindowMs: 100_000 },
    });
    try {
      const burst = await Promise.all(Array.from({ length: 12 }, () => h.call("POST", "/v2/pub/run", { input: {} })));
      const codes = burst.map((r) => r.status);
      expect(codes.filter((c) => c === 200)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(7);
      const limited = burst.find((r) => r.status === 429)!;
      expect(limited.headers.get("content-type")).toBe("application/json");
      expect(limited.body.error).toMatch(/rate limit exceeded for \/run: at most 5 requests per 100 s/);
      const retryAfter = Number(limited.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(100);
      // Another account has its own budget on the same (public) endpoint; other routes too.
      expect((await h.call("POST", "/v2/pub/run", { input: {} }, { key: "key-two" })).status).toBe(200);
      expect((await h.call("GET", "/v2/pub/health")).status).toBe(200);
      await new Promise((r) => setTimeout(r, h.real(100_000) + 20));
      expect((await h.call("POST", "/v2/pub/run", { input: {} })).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("limits concurrent requests per route", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "c", workersMin: 1, workersMax: 1 })],
      options: { limits: { runsync: { concurrency: 2 } } },
    });
    try {
      await h.until(async () => (await h.call("GET", "/v2/c/health")).body.workers.idle === 1);
      // Two jobs of 100 s each (1 s real apiece) behind one worker, held up to 300 s (3 s real):
      // both requests stay in flight long enough to be seen on a loaded machine, and both complete.
      const parked = [
        h.call("POST", "/v2/c/runsync?wait=300000", { input: { delayMs: 100_000 } }),
        h.call("POST", "/v2/c/runsync?wait=300000", { input: { delayMs: 100_000 } }),
      ];
      await h.until(async () => {
        const b = (await h.call("GET", "/v2/c/health")).body;
        return b.jobs.inProgress + b.jobs.inQueue === 2;
      });
      const third = await h.call("POST", "/v2/c/runsync", { input: {} });
      // 1 ready worker x 20 per-worker allowance > base 2: the dynamic rule admits it.
      expect(third.status).toBe(200);
      await Promise.all(parked);
    } finally {
      await h.close();
    }

    const strict = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "c", workersMin: 1, workersMax: 1 })],
      options: { limits: { runsync: { concurrency: 2 } }, perWorkerAllowance: { runsync: { concurrency: null } } },
    });
    try {
      await strict.until(async () => (await strict.call("GET", "/v2/c/health")).body.workers.idle === 1);
      const parked = [
        strict.call("POST", "/v2/c/runsync?wait=300000", { input: { delayMs: 100_000 } }),
        strict.call("POST", "/v2/c/runsync?wait=300000", { input: { delayMs: 100_000 } }),
      ];
      await strict.until(async () => {
        const b = (await strict.call("GET", "/v2/c/health")).body;
        return b.jobs.inProgress + b.jobs.inQueue === 2;
      });
      const third = await strict.call("POST", "/v2/c/runsync", { input: {} });
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("1");
      expect(third.body.error).toMatch(/concurrency limit exceeded for \/runsync: at most 2/);
      const done = await Promise.all(parked);
      expect(done.map((r) => r.body.status)).toEqual(["COMPLETED", "COMPLETED"]);
      expect((await strict.call("POST", "/v2/c/runsync", { input: {} })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("dynamic rule: the effective rate is max(base, ready workers x allowance)", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "d", workersMin: 3, workersMax: 3 })],
      options: { limits: { status: { rate: 4 } }, perWorkerAllowance: { status: { rate: 3 } }, rateWindowMs: 1_000_000 },
    });
    try {
      await h.until(async () => (await h.call("GET", "/v2/d/health")).body.workers.ready === 3);
      const codes: number[] = [];
      for (let i = 0; i < 12; i++) codes.push((await h.call("GET", "/v2/d/status/x")).status);
      // 3 ready workers x 3 = 9 admitted (404: unknown job), then 429.
      expect(codes.filter((c) => c === 404)).toHaveLength(9);
      expect(codes.slice(9)).toEqual([429, 429, 429]);
    } finally {
      await h.close();
    }
  });

  it("applies the published defaults to control routes (/purge-queue 2, /requests 10 per window)", async () => {
    const h = await startHarness({ timeScale: 1, endpoints: [spec({ id: "p", workersMin: 0, workersMax: 0 })] });
    try {
      const purges = [];
      for (let i = 0; i < 3; i++) purges.push((await h.call("POST", "/v2/p/purge-queue")).status);
      expect(purges).toEqual([200, 200, 429]);
      const reqs = [];
      for (let i = 0; i < 11; i++) reqs.push((await h.call("GET", "/v2/p/requests")).status);
      expect(reqs.slice(0, 10).every((c) => c === 200)).toBe(true);
      expect(reqs[10]).toBe(429);
    } finally {
      await h.close();
    }
  });
});

describe("payload limits", () => {
  it("refuses bodies above the /run (10 MB) and /runsync (20 MB) defaults with 413 JSON", async () => {
    const h = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "big", workersMin: 1, workersMax: 1 })] });
    try {
      const blob = (mb: number) => JSON.stringify({ input: { output: "ok", pad: "p".repeat(mb * 1024 * 1024) } });
      const tooBig = await h.call("POST", "/v2/big/run", undefined, { raw: blob(10) });
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.error).toMatch(/larger than the 10 MB limit/);
      const syncOk = await h.call("POST", "/v2/big/runsync", undefined, { raw: blob(11) });
      expect(syncOk.status).toBe(200);
      expect(syncOk.body.output).toBe("ok");
      const syncBig = await h.call("POST", "/v2/big/runsync", undefined, { raw: blob(20) });
      expect(syncBig.status).toBe(413);
      expect(syncBig.body.error).toMatch(/20 MB/);
      // The connection stays usable after a 413.
      expect((await h.call("GET", "/v2/big/health")).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
