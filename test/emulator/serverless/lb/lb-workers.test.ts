// Load-balancing endpoints, the workers: health gating, the bounded wait for a healthy worker,
// pinning with X-Service-Worker-Id, scaling on concurrent requests, idle scale-down, releases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../../support/jobsHarness";
import { fixture, fixtureState, healthy, lbSpec, send, workersOf } from "./lb-harness";

let h: Harness;
const gated = fixtureState<{ ready: boolean; ready2: boolean; served: number }>("lb-gated.cjs");
const slow = fixtureState<{ inFlight: number; maxInFlight: number }>("lb-listener.cjs");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [
      lbSpec({ id: "gated", imageName: "acme/gated", env: { HEALTH_CHECK_PATH: "/ready" }, workersMin: 1, workersMax: 1 }),
      lbSpec({
        id: "never",
        imageName: "acme/gated",
        env: { HEALTH_CHECK_PATH: "never", PORT: "8000", PORT_HEALTH: "8001" },
        workersMin: 0,
      }),
      lbSpec({ id: "pin", workersMin: 2, workersMax: 2 }),
      lbSpec({ id: "rel", workersMin: 1, workersMax: 1 }),
      lbSpec({ id: "scale", imageName: "acme/slow", workersMin: 0, workersMax: 3, scalerValue: 2, idleTimeout: 100 }),
    ],
    options: {
      handlers: { "acme/gated": fixture("lb-gated.cjs"), "acme/slow": fixture("lb-listener.cjs") },
      // At this scale: cold start 50 ms real, the wait for a healthy worker 600 ms real.
      coldStartMs: 5000,
      lbNoWorkerWaitMs: 60_000,
    },
  });
});
afterAll(() => h.close());

describe("health gating", () => {
  it("sends no traffic to a worker until its health check answers 200", async () => {
    // Booted (the health path is polled) but not healthy: the worker stays initializing.
    await h.until(() => h.svc.workers("gated").length === 1, 15_000, "gated worker");
    await sleep(h.real(5000));
    expect(h.svc.workers("gated")[0]?.status).toBe("initializing");
    const pending = send(h, "GET", "/v2/gated/hello");
    await sleep(h.real(10_000));
    expect(gated.served).toBe(0);
    gated.ready = true;
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ gated: true, url: "/hello" });
    expect(gated.served).toBe(1);
    expect(r.workerId).toBe(h.svc.workers("gated")[0]?.id);
  });

  it("a worker whose health check fails again is unhealthy and gets no traffic; it is used again once healthy", async () => {
    gated.ready = false;
    await h.until(() => h.svc.workers("gated")[0]?.status === "unhealthy", 15_000, "unhealthy");
    const pending = send(h, "GET", "/v2/gated/again");
    await sleep(h.real(5000));
    const served = gated.served;
    gated.ready = true;
    expect((await pending).status).toBe(200);
    expect(gated.served).toBe(served + 1);
  });

  it("answers 503 naming the endpoint and the wait when no worker becomes healthy in time", async () => {
    const t0 = Date.now();
    const r = await send(h, "POST", "/v2/never/work", { body: "x" });
    const took = Date.now() - t0;
    expect(r.status).toBe(503);
    expect(r.json.error).toBe(
      "no healthy worker of endpoint never became available within 60000 ms (service time): " +
        "1 initializing, 0 unhealthy, 0 throttled (no capacity), workersMax 2",
    );
    expect(r.workerId).toBeNull();
    expect(took).toBeGreaterThanOrEqual(h.real(60_000) - 5);
    // Health checks went to the separate health listener's /never path: nobody served anything.
    expect(gated.served).toBe(2);
  });
});

describe("pinning with X-Service-Worker-Id", () => {
  it("routes every pinned request to that worker, the second one, though unpinned requests prefer the first", async () => {
    const ids = await healthy(h, "pin", 2);
    const target = ids[1] as string;
    const pinned = await Promise.all(
      Array.from({ length: 12 }, () => send(h, "GET", "/v2/pin/p", { headers: { "X-Service-Worker-Id": target } })),
    );
    for (const r of pinned) {
      expect(r.status).toBe(200);
      expect(r.workerId).toBe(target);
      // The routing header is the service's: the worker does not see it.
      expect(r.json.headers["x-service-worker-id"]).toBeUndefined();
    }
    // Unpinned, one at a time: the least busy worker, ties to the one healthy longest.
    for (let i = 0; i < 3; i++) expect((await send(h, "GET", "/v2/pin/u")).workerId).toBe(ids[0]);
  });

  it("a pin to an unknown or stopped worker answers 409 with the documented error", async () => {
    const unknown = await send(h, "GET", "/v2/pin/p", { headers: { "x-service-worker-id": "nosuchworker1" } });
    expect(unknown.status).toBe(409);
    expect(unknown.json).toEqual({
      error:
        "worker nosuchworker1 of endpoint pin is gone or unhealthy; drop the X-Service-Worker-Id header to be routed to any healthy worker",
    });
    // Lowering workersMax stops the newest idle worker; a pin to it then fails the same way.
    const ids = workersOf(h, "pin", ["idle"]).map((w) => w.id);
    h.setSpec(lbSpec({ id: "pin", workersMin: 1, workersMax: 1 }));
    const gone = ids.find((id) => !h.svc.workers("pin").some((w) => w.id === id)) as string;
    expect(gone).toBeDefined();
    const r = await send(h, "GET", "/v2/pin/p", { headers: { "x-service-worker-id": gone } });
    expect(r.status).toBe(409);
    expect(r.json.error).toContain(`worker ${gone} of endpoint pin is gone or unhealthy`);
  });
});

describe("rolling releases", () => {
  it("the old worker serves until a worker of the new release is healthy, then it stops", async () => {
    const [old] = await healthy(h, "rel", 1);
    // Release 2 changes the image; its workers stay unhealthy until the fixture's ready2 flag flips.
    h.setSpec(
      lbSpec({ id: "rel", workersMin: 1, workersMax: 1, version: 2, imageName: "acme/gated", env: { HEALTH_CHECK_PATH: "/ready2" } }),
    );
    await h.until(() => h.svc.workers("rel").length === 2, 15_000, "release 2 worker");
    // Longer than the old worker's idle timeout (5 s): it stays, since it bridges the release.
    await sleep(h.real(10_000));
    expect(h.svc.workers("rel").find((w) => w.id !== old)?.status).toBe("initializing");
    const during = await send(h, "GET", "/v2/rel/during");
    expect(during.workerId).toBe(old);
    expect(during.json.path).toBe("/during");
    gated.ready2 = true;
    const [fresh] = await h.until(
      () => {
        const ws = workersOf(h, "rel", ["idle", "running"]);
        return ws.length === 1 && ws[0]?.id !== old ? ws.map((w) => w.id) : undefined;
      },
      15_000,
      "the old worker retired",
    );
    const after = await send(h, "GET", "/v2/rel/after");
    expect(after.workerId).toBe(fresh);
    expect(after.json).toEqual({ gated: true, url: "/after" });
    expect(h.usage.some((u) => u.workerId === old && u.endpointId === "rel")).toBe(true);
  });
});

describe("scaling on concurrent requests", () => {
  it("starts workers for concurrent requests up to workersMax, spreads load, and scales back to workersMin when idle", async () => {
    expect(h.svc.workers("scale")).toHaveLength(0);
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, workersOf(h, "scale").length)), 2);
    try {
      // Wave 1 (10 concurrent, scalerValue 2): wants 5 workers, clamped to workersMax 3.
      const wave1 = await Promise.all(Array.from({ length: 10 }, () => send(h, "GET", "/v2/scale/slow?ms=150")));
      for (const r of wave1) expect(r.status).toBe(200);
      await healthy(h, "scale", 3);
      // Wave 2 with every worker healthy: the least busy worker takes each request.
      slow.maxInFlight = 0;
      const wave2 = await Promise.all(Array.from({ length: 9 }, () => send(h, "GET", "/v2/scale/slow?ms=500")));
      expect(new Set(wave2.map((r) => r.workerId)).size).toBe(3);
      const perWorker = new Map<string, number>();
      for (const r of wave2) perWorker.set(r.workerId as string, (perWorker.get(r.workerId as string) ?? 0) + 1);
      expect([...perWorker.values()]).toEqual([3, 3, 3]);
      expect(slow.maxInFlight).toBe(9);
    } finally {
      clearInterval(watch);
    }
    expect(peak).toBe(3);
    // idleTimeout 100 s (1 s real): every worker stops (workersMin 0) and its time is reported for billing.
    await h.until(() => h.svc.workers("scale").length === 0, 15_000, "scale-down to 0");
    const usage = h.usage.filter((u) => u.endpointId === "scale");
    expect(usage).toHaveLength(3);
    for (const u of usage) expect(u.endMs - u.startMs).toBeGreaterThanOrEqual(100_000);
  });
});
