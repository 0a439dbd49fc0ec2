// Simulated workers: scale-up, idle scale-down, lowPriority, crash replacement, rolling release,
// deletion, placement failures, and the worker usage reported for billing.
import { describe, expect, it } from "vitest";
import { PLACEMENT, spec, startHarness } from "../../support/jobsHarness";

const live = (h: { svc: { workers(id: string): { status: string }[] } }, id: string) =>
  h.svc.workers(id).filter((w) => w.status !== "unhealthy");

describe("scaling", () => {
  it("REQUEST_COUNT scales up to workersMax (never beyond) and back down to workersMin after idleTimeout", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "rc", workersMin: 1, workersMax: 3, scalerType: "REQUEST_COUNT", scalerValue: 1, idleTimeout: 5 })],
    });
    try {
      await h.until(() => live(h, "rc").length === 1, 15_000, "workersMin up");
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await h.call("POST", "/v2/rc/run", { input: { delayMs: 20_000 } })).body.id);
      let peak = 0;
      await h.until(
        async () => {
          peak = Math.max(peak, live(h, "rc").length);
          const hb = (await h.call("GET", "/v2/rc/health")).body;
          return hb.jobs.completed === 6;
        },
        15_000,
        "all jobs done",
      );
      expect(peak).toBe(3);
      const workerIds = new Set<string>();
      for (const id of ids) workerIds.add((await h.call("GET", `/v2/rc/status/${id}`)).body.workerId);
      expect(workerIds.size).toBe(3);
      // idleTimeout 5 s: the two extra workers stop, workersMin stays.
      await h.until(() => live(h, "rc").length === 1, 15_000, "scale-down to workersMin");
      expect(h.usage.length).toBe(2);
      for (const u of h.usage) {
        expect(u).toMatchObject({
          accountId: "acct1",
          endpointId: "rc",
          templateId: "tpl1",
          gpuTypeId: PLACEMENT.gpuTypeId,
          costPerHr: 0.5,
        });
        // Up for the cold start, two 20 s jobs and the idle timeout: about 46 s of service time.
        expect(u.endMs - u.startMs).toBeGreaterThanOrEqual(20_000);
      }
    } finally {
      await h.close();
    }
    // close() reports the worker that was still up.
    expect(h.usage.length).toBe(3);
  });

  it("QUEUE_DELAY starts one worker at once, then more as jobs wait longer than scalerValue", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      // scalerValue 300 s is 3 s of real time at this scale: room for the checks below on a busy machine;
      // each job runs 1,000 s (10 s real), so the queue still waits when the delay has passed.
      endpoints: [spec({ id: "qd", workersMin: 0, workersMax: 4, scalerType: "QUEUE_DELAY", scalerValue: 300, idleTimeout: 1 })],
    });
    try {
      expect(live(h, "qd")).toHaveLength(0);
      await h.call("POST", "/v2/qd/run", { input: { delayMs: 1_000_000 } });
      await h.until(() => live(h, "qd").length === 1, 15_000, "first worker");
      // Within scalerValue nothing else starts.
      for (let i = 0; i < 3; i++) await h.call("POST", "/v2/qd/run", { input: { delayMs: 1_000_000 } });
      expect(live(h, "qd").length).toBe(1);
      await h.until(() => live(h, "qd").length === 4, 15_000, "scale to 4 after the queue delay");
      const hb = (await h.call("GET", "/v2/qd/health")).body;
      // A worker that has just booted is idle for a moment before it takes its job.
      expect(hb.workers.initializing + hb.workers.idle + hb.workers.running).toBe(4);
    } finally {
      await h.close();
    }
  });

  it("lowPriority jobs never trigger a scale-up; they run once a worker exists", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "lp", workersMin: 0, workersMax: 2, scalerType: "QUEUE_DELAY", scalerValue: 1 })],
    });
    try {
      const low = await h.call("POST", "/v2/lp/run", { input: { output: "low" }, policy: { lowPriority: true } });
      await new Promise((r) => setTimeout(r, h.real(5000)));
      expect(live(h, "lp")).toHaveLength(0);
      expect((await h.call("GET", `/v2/lp/status/${low.body.id}`)).body.status).toBe("IN_QUEUE");
      const normal = await h.call("POST", "/v2/lp/runsync", { input: { output: "normal" } });
      expect(normal.body.status).toBe("COMPLETED");
      expect(live(h, "lp")).toHaveLength(1);
      const s = await h.until(async () => {
        const b = (await h.call("GET", `/v2/lp/status/${low.body.id}`)).body;
        return b.status === "COMPLETED" ? b : undefined;
      });
      expect(s.output).toBe("low");
    } finally {
      await h.close();
    }
  });
});

describe("worker lifecycle", () => {
  it("a crash fails the job, marks the worker unhealthy, reports its usage and replaces it", async () => {
    const h = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "cr", workersMin: 1, workersMax: 1 })] });
    try {
      await h.until(() => h.svc.workers("cr")[0]?.status === "idle", 15_000, "worker idle");
      const first = h.svc.workers("cr")[0]?.id;
      const r = await h.call("POST", "/v2/cr/runsync", { input: { crash: true, delayMs: 2000 } });
      expect(r.body.status).toBe("FAILED");
      expect(r.body.error).toMatch(/worker crashed while running the job/);
      expect(r.body.workerId).toBe(first);
      const hb = (await h.call("GET", "/v2/cr/health")).body;
      expect(hb.workers.unhealthy).toBe(1);
      expect(h.usage.map((u) => u.workerId)).toEqual([first]);
      await h.until(() => h.svc.workers("cr").some((w) => w.id !== first && w.status === "idle"), 15_000, "replacement");
      const ok = await h.call("POST", "/v2/cr/runsync", { input: { output: "after" } });
      expect(ok.body).toMatchObject({ status: "COMPLETED", output: "after" });
      expect(ok.body.workerId).not.toBe(first);
    } finally {
      await h.close();
    }
  });

  it("a rolling release replaces idle workers; a running one finishes its job first", async () => {
    const h = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "rr", workersMin: 2, workersMax: 2 })] });
    try {
      await h.until(() => h.svc.workers("rr").filter((w) => w.status === "idle").length === 2, 15_000, "two idle");
      const old = new Set(h.svc.workers("rr").map((w) => w.id));
      const busy = await h.call("POST", "/v2/rr/run", { input: { delayMs: 30_000, output: "kept" } });
      await h.until(async () => (await h.call("GET", `/v2/rr/status/${busy.body.id}`)).body.status === "IN_PROGRESS");
      h.setSpec(spec({ id: "rr", workersMin: 2, workersMax: 2, version: 2 }));
      // The idle one stopped at once; the busy one is still there.
      expect(h.usage).toHaveLength(1);
      const done = await h.until(async () => {
        const b = (await h.call("GET", `/v2/rr/status/${busy.body.id}`)).body;
        return b.status === "COMPLETED" ? b : undefined;
      });
      expect(done.output).toBe("kept");
      await h.until(
        () => {
          const ws = h.svc.workers("rr");
          return ws.length === 2 && ws.every((w) => !old.has(w.id) && w.status === "idle");
        },
        15_000,
        "all workers on the new version",
      );
      expect(h.usage.map((u) => u.workerId).sort()).toEqual([...old].sort());
    } finally {
      await h.close();
    }
  });

  it("deleting an endpoint stops its workers and drops its jobs", async () => {
    const h = await startHarness({ timeScale: 0.01, endpoints: [spec({ id: "del", workersMin: 1, workersMax: 1 })] });
    try {
      await h.until(() => h.svc.workers("del")[0]?.status === "idle");
      const run = await h.call("POST", "/v2/del/run", { input: { delayMs: 600_000 } });
      const waiting = h.call("GET", `/v2/del/status-sync/${run.body.id}?wait=300000`);
      await h.until(async () => (await h.call("GET", `/v2/del/status/${run.body.id}`)).body.status === "IN_PROGRESS");
      h.svc.endpointDeleted("acct1", "del");
      // A parked long poll learns the job is gone.
      expect((await waiting).status).toBe(404);
      expect(h.svc.workers("del")).toEqual([]);
      expect(h.usage).toHaveLength(1);
      // The management side forgot it too: the endpoint is now unknown.
      h.specs.delete("del");
      expect((await h.call("GET", `/v2/del/status/${run.body.id}`)).status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it("a worker that cannot be placed counts as throttled until capacity returns", async () => {
    const h = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "th", workersMin: 1, workersMax: 1 })],
      options: { throttleRetryMs: 2000 },
    });
    try {
      h.placeError.value = "no A40 capacity";
      h.setSpec(spec({ id: "th", workersMin: 1, workersMax: 1, version: 2 }));
      const t = await h.until(async () => {
        const b = (await h.call("GET", "/v2/th/health")).body;
        return b.workers.throttled === 1 ? b : undefined;
      });
      expect(t.workers.ready).toBe(0);
      h.placeError.value = undefined;
      const b = await h.until(async () => {
        const x = (await h.call("GET", "/v2/th/health")).body;
        return x.workers.idle === 1 ? x : undefined;
      });
      expect(b.workers.throttled).toBe(0);
    } finally {
      await h.close();
    }
  });
});
