// The v2 client: lists unwrapped, problem+json errors as the same typed ApiError classes as v1, and
// pacing by the RateLimit headers in the one transport (scripted answers, recorded sleeps), then the
// whole client against the emulator's /api/v2 under a small rate limit without a single 429.
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ApiError, BadRequestError, NotFoundError, RateLimitError } from "../../client/errors";
import { GpuCloudError } from "../../client/gpuCloudError";
import { ManagementClientV2 } from "../../client/managementV2";
import { parseRateLimit } from "../../client/retry";
import { json, startScriptedServer, type ScriptedServer, type Step } from "../support/scriptedServer";

let server: ScriptedServer | undefined;
let emulator: RunningEmulator | undefined;
let client: ManagementClientV2 | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await emulator?.close();
  client = server = emulator = undefined;
});

async function scripted(steps: Step[] | Step, now: () => number = Date.now) {
  server = await startScriptedServer(steps);
  const sleeps: number[] = [];
  client = new ManagementClientV2({
    baseUrl: `${server.origin}/v2`,
    apiKey: "k",
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0,
    now,
  });
  return { server, client, sleeps };
}

const limit = (r: number, t: number) => ({
  RateLimit: `"minute";r=${r};t=${t}, "hour";r=9000;t=3000`,
  "RateLimit-Policy": `"minute";q=100;w=60, "hour";q=10000;w=3600`,
});
const pod = { id: "p1", name: "a", status: "RUNNING" };

describe("RateLimit headers", () => {
  it("parse into windows with their quotas", () => {
    expect(parseRateLimit(limit(5, 30).RateLimit, limit(5, 30)["RateLimit-Policy"])).toEqual([
      { name: "minute", remaining: 5, resetSeconds: 30, quota: 100 },
      { name: "hour", remaining: 9000, resetSeconds: 3000, quota: 10000 },
    ]);
    expect(parseRateLimit(undefined, undefined)).toEqual([]);
  });
});

describe("ManagementClientV2 against scripted answers", () => {
  it("unwraps lists and reads problem+json errors into typed ApiErrors", async () => {
    const problem = {
      title: "Unprocessable Entity",
      status: 422,
      detail: "the body does not fit CreatePodRequest",
      errors: ["gpu.count: must be >= 1"],
    };
    const { client } = await scripted([
      json(200, { pods: [pod] }),
      json(422, problem, { "content-type": "application/problem+json" }),
      json(404, { title: "Not Found", status: 404, detail: "no pod p9" }, { "content-type": "application/problem+json" }),
    ]);
    expect((await client.pods.list()).map((p) => p.id)).toEqual(["p1"]);
    const bad = await client.pods.create({ name: "x" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad).toBeInstanceOf(ApiError);
    expect((bad as ApiError).message).toBe(
      "createPod failed: 422 Unprocessable Entity: the body does not fit CreatePodRequest: gpu.count: must be >= 1",
    );
    const missing = await client.pods.get("p9").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as ApiError).serviceMessage).toBe("no pod p9");
  });

  it("refuses an empty id locally with a GpuCloudError, as v1 does: nothing is sent", async () => {
    const { server, client } = await scripted(json(200, pod));
    await expect(client.pods.get("")).rejects.toThrow(GpuCloudError);
    await expect(client.endpoints.delete(" ")).rejects.toThrow('deleteEndpoint: id must be a non-empty string (got " ")');
    await expect(client.podAction("", "start")).rejects.toThrow(GpuCloudError);
    await expect(client.endpointRollout("")).rejects.toThrow(/^listEndpointReleases: id must be a non-empty string/);
    expect(server.requests).toEqual([]);
  });

  it("sends while the minute window has quota left, however little, and waits for the reset only at zero", async () => {
    let now = 1_000_000;
    const { client, sleeps } = await scripted(
      [
        json(200, pod, limit(50, 30)),
        json(200, pod, limit(4, 30)),
        json(200, pod, limit(3, 30)),
        json(200, pod, limit(0, 29)),
        json(200, pod, limit(99, 60)),
      ],
      () => now,
    );
    await client.pods.get("p1");
    await client.pods.get("p1");
    await client.pods.get("p1"); // 4 left: no spreading, which would leave quota unused at the end of a run
    now += 1000;
    await client.pods.get("p1"); // 3 left; then none: wait the 29 s to the reset
    expect(sleeps).toEqual([]);
    await client.pods.get("p1");
    expect(sleeps).toEqual([29000]);
  });

  it("counts the requests in flight: of five sent at once with two left, three wait for the reset", async () => {
    const now = 1_000_000;
    const { server, client, sleeps } = await scripted(
      [json(200, pod, limit(2, 10)), ...Array.from({ length: 5 }, () => json(200, pod, limit(99, 60)))],
      () => now,
    );
    await client.pods.get("p1");
    await Promise.all(Array.from({ length: 5 }, () => client.pods.get("p1")));
    expect(sleeps).toEqual([10000, 10000, 10000]);
    expect(server.requests).toHaveLength(6);
  });

  it("a reset learnt from many answers is the earliest bound they give (each `t` is rounded up to a whole second)", async () => {
    let now = 1_000_000;
    const { client, sleeps } = await scripted(
      [json(200, pod, limit(3, 20)), json(200, pod, limit(2, 19)), json(200, pod, limit(0, 19)), json(200, pod, limit(99, 60))],
      () => now,
    );
    await client.pods.get("p1");
    now += 600; // 20 s after 1 000 000, then 19 s after 1 000 600: the reset is at most 1 019 600
    await client.pods.get("p1");
    now += 300;
    await client.pods.get("p1"); // 19 s after 1 000 900 says no more than the earlier bound
    await client.pods.get("p1");
    expect(sleeps).toEqual([1_019_600 - 1_000_900]);
  });
});

describe("waits for spent hour and day windows", () => {
  const windows = (minute: number, hour: number, hourReset: number, day = 40_000, dayReset = 50_000) => ({
    RateLimit: `"minute";r=${minute};t=30, "hour";r=${hour};t=${hourReset}, "day";r=${day};t=${dayReset}`,
    "RateLimit-Policy": `"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400`,
  });
  const waits: Array<{ window: string; waitMs: number; resetAtMs: number; quota: number | undefined }> = [];

  async function clientWith(steps: Step[], now: () => number, maxRateLimitWaitMs?: number) {
    server = await startScriptedServer(steps);
    const sleeps: number[] = [];
    waits.length = 0;
    client = new ManagementClientV2({
      baseUrl: `${server.origin}/v2`,
      apiKey: "pacing-test-key",
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0,
      now,
      onRateLimitWait: (info) =>
        void waits.push({ window: info.window, waitMs: info.waitMs, resetAtMs: info.resetAtMs, quota: info.quota }),
      ...(maxRateLimitWaitMs !== undefined ? { maxRateLimitWaitMs } : {}),
    });
    return { sleeps };
  }

  it("logs a pacing wait for a spent hour window with the window, its quota and its reset", async () => {
    let now = 1_700_000_000_000;
    const { sleeps } = await clientWith([json(200, pod, windows(50, 0, 600)), json(200, pod, windows(59, 2999, 3600))], () => now);
    await client!.pods.get("p1");
    await client!.pods.get("p1");
    expect(sleeps).toEqual([600_000]);
    expect(waits).toEqual([{ window: "hour", waitMs: 600_000, resetAtMs: now + 600_000, quota: 3000 }]);
    now += 600_000;
  });

  it("fails at once with a RateLimitError naming the window, its reset time and the fix when the wait is beyond the deadline", async () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const { sleeps } = await clientWith([json(200, pod, windows(50, 2000, 1000, 0, 43_200))], () => now);
    await client!.pods.get("p1");
    const error = await client!.pods.get("p1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toBe(
      "getPod failed: the service's day rate-limit window (50000 requests per day) is spent; it resets at 2026-11-27T00:00:00.000Z, in 12 h 0 min, " +
        "later than this call may wait (15 min). Run again after the reset, spread the work over time (fewer resources per up, or `pulumi up --parallel` " +
        "with a lower number), or ask the service for a higher quota",
    );
    expect((error as RateLimitError).retryAfterMs).toBe(43_200_000);
    expect(sleeps).toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });

  it("a call's own deadline bounds the wait: a longer budget lets it wait for the hour", async () => {
    let now = 1_700_000_000_000;
    const { sleeps } = await clientWith(
      [json(200, pod, windows(50, 0, 1800)), json(200, pod, windows(59, 2999, 3600))],
      () => now,
      3_600_000,
    );
    await client!.pods.get("p1");
    await client!.pods.get("p1");
    expect(sleeps).toEqual([1_800_000]);
    expect(waits.map((w) => w.window)).toEqual(["hour"]);
    now += 1;
  });

  it("honours a Retry-After of any length per window: waits when within the budget, fails at once naming the window beyond it", async () => {
    const tooMany = (seconds: number, window: string) =>
      json(
        429,
        { title: "Too Many Requests", status: 429, detail: `rate limit exceeded for the ${window} window` },
        { "content-type": "application/problem+json", "Retry-After": String(seconds) },
      );
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const first = await clientWith([tooMany(300, "hour"), json(200, pod)], () => now);
    expect((await client!.pods.get("p1")).id).toBe("p1");
    expect(first.sleeps).toEqual([300_000]);
    expect(waits).toEqual([{ window: "hour", waitMs: 300_000, resetAtMs: now + 300_000, quota: undefined }]);
    await client!.close();
    await server!.close();

    const second = await clientWith([tooMany(7200, "hour"), json(200, pod)], () => now);
    const error = await client!.pods.get("p1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toMatch(
      /^getPod failed: the service's hour rate-limit window is spent \(rate limit exceeded for the hour window\); it resets at 2026-11-26T14:00:00\.000Z, in 2 h 0 min, later than this call may wait \(15 min\)/,
    );
    expect(second.sleeps).toEqual([]);
    expect(server!.requests).toHaveLength(1);
  });
});

describe("ManagementClientV2 against the emulator", () => {
  // The limiter's windows run on the wall clock, so the client and the emulator share a fake one:
  // the client's sleeps advance it, and the test crosses a minute's reset without waiting for it.
  it("runs past a small per-minute quota without a 429: sends while quota is left, then waits for the reset", async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 0); // the start of a minute window
    const sleeps: number[] = [];
    // Time scale 1: the limiter's windows run on service time, here the fake clock itself.
    emulator = await startEmulator({ port: 0, timeScale: 1, rateLimit: { perMinute: 30 }, rateLimitClock: () => now });
    let retries = 0;
    client = new ManagementClientV2({
      baseUrl: emulator.apiUrlV2,
      apiKey: emulator.apiKey,
      onRetry: () => void retries++,
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    const created = await client.networkVolumes.create({ name: "v", size: 10, dataCenter: "EU-RO-1" });
    // 45 calls against a quota of 30 a minute: the 31st waits for the reset, none is refused.
    for (let i = 0; i < 43; i++) await client.networkVolumes.get(created.id);
    expect((await client.networkVolumes.list()).map((v) => v.id)).toEqual([created.id]);
    expect(retries).toBe(0);
    expect(sleeps.length).toBeGreaterThan(0);
    // The 31st call could only run in the next window: the client waited for it rather than be refused.
    expect(now - Date.UTC(2026, 0, 1, 12, 0, 0)).toBeGreaterThanOrEqual(60_000);
  });
});

describe("account secrets and limits", () => {
  const VALUE = "hf_live-value-77a1c";

  it("a service message that echoes the value is redacted from the error (create and rotation)", async () => {
    const echo = { title: "Bad Request", status: 400, detail: `invalid value: ${VALUE} is not allowed` };
    const { client } = await scripted([json(400, echo), json(400, echo)]);
    const created = await client.secrets.create({ name: "HF_TOKEN", value: VALUE }).catch((e: unknown) => e);
    expect(created).toBeInstanceOf(BadRequestError);
    expect(String((created as Error).message)).not.toContain(VALUE);
    expect(String((created as Error).message)).toContain("[redacted] is not allowed");
    const rotated = await client.secrets.update("s1", { value: VALUE }).catch((e: unknown) => e);
    expect(JSON.stringify({ message: (rotated as ApiError).message, service: (rotated as ApiError).serviceMessage })).not.toContain(VALUE);
  });

  it("lists by name with the name filter, and reads the limits with whatever inner fields the service gives", async () => {
    const { server, client } = await scripted([
      json(200, {
        secrets: [{ id: "s1", name: "HF_TOKEN", description: null, createdAt: "2026-11-26T00:00:00Z", valueLastUpdatedAt: null }],
      }),
      json(200, { spendRate: { limit: 80, current: 1.5 }, serverlessWorkers: { limit: "30" } }),
    ]);
    expect(await client.secrets.list("hf_token")).toEqual([{ id: "s1", name: "HF_TOKEN", createdAt: "2026-11-26T00:00:00Z" }]);
    expect(server.requests[0]?.url).toBe("/v2/account/secrets?name=hf_token");
    expect(await client.accountLimits()).toEqual({ spendRate: { limit: 80, current: 1.5 }, serverlessWorkers: { limit: 30 } });
  });
});

describe("the release history", () => {
  it("reads every page, keeping the first page's rollout and endpoint version", async () => {
    const rollout = { inProgress: true, workersOnLatest: 1, workersTotal: 2, percentOnLatest: 50 };
    const release = (version: number) => ({ id: `r${version}`, version, source: "MANUAL", workerCount: 0, createdAt: "x", diff: [] });
    const { server, client } = await scripted([
      json(200, { endpointVersion: 2, rollout, releases: [release(2)], pagination: { nextCursor: "c1", hasNextPage: true } }),
      json(200, { endpointVersion: 2, rollout, releases: [release(1), release(0)], pagination: { nextCursor: null, hasNextPage: false } }),
    ]);
    const history = await client.endpointReleases("e1");
    expect(history.releases.map((r) => r.version)).toEqual([2, 1, 0]);
    expect(history).toMatchObject({ endpointVersion: 2, rollout });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/serverless/e1/releases?limit=1000",
      "/v2/serverless/e1/releases?limit=1000&cursor=c1",
    ]);
  });

  it("a first page without a rollout summary fails naming the operation and what is missing", async () => {
    const { client } = await scripted(json(200, { releases: [] }));
    await expect(client.endpointReleases("e1")).rejects.toThrow(
      "listEndpointReleases e1: the service's answer has no rollout summary (inProgress, workersOnLatest, workersTotal)",
    );
  });
});
