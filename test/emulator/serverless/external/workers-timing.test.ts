// Real-time bounds of what real workers and real clients see (long-poll holds, lost and presence
// windows, result retention), the worker environment's shape, and the CLI flags of real workers.
import { describe, expect, it } from "vitest";
import { createClock } from "../../../../emulator/clock";
import { UsageError, parseCliArgs } from "../../../../emulator/cliArgs";
import { HOLD_REAL_MAX_MS, HOLD_REAL_MIN_MS, holdRealMs, withRealFloor } from "../../../../emulator/serverless/external/timing";
import { workerEnvironment } from "../../../../emulator/serverless/external/workerEnv";
import { resolveOptions } from "../../../../emulator/serverless/options";
import { spec, startHarness } from "../../../support/jobsHarness";

describe("time scale bounds", () => {
  it("long-poll holds stay under a worker's 90 s client timeout at any scale, and never spin", () => {
    expect(holdRealMs(createClock(1), 20_000)).toBe(20_000);
    // A slow emulator (x100): 2000 s asked, 60 s held.
    expect(holdRealMs(createClock(100), 20_000)).toBe(HOLD_REAL_MAX_MS);
    expect(HOLD_REAL_MAX_MS).toBeLessThan(90_000);
    // A fast one (x0.001): 20 ms asked, 250 ms held.
    expect(holdRealMs(createClock(0.001), 20_000)).toBe(HOLD_REAL_MIN_MS);
  });

  it("service-time windows get a real-time floor", () => {
    expect(withRealFloor(createClock(0.01), 30_000, 3_000)).toBe(300_000);
    expect(withRealFloor(createClock(1), 30_000, 3_000)).toBe(30_000);
  });

  it("a finished job stays readable for 2 s of real time however fast the clock runs", async () => {
    // runsync?wait=1000 retention is 60 s of service time = 60 ms real at this scale.
    const h = await startHarness({ timeScale: 0.001, endpoints: [spec({ workersMin: 1 })] });
    try {
      const sync = await h.call("POST", "/v2/ep1/runsync?wait=1000", { input: { output: "kept" } });
      const id: string = sync.body.id;
      await h.until(async () => (await h.call("GET", `/v2/ep1/status/${id}`)).body.status === "COMPLETED", 15_000, "completed");
      // Well past the 60 ms of service time, well within the 2 s (a busy machine may have noticed the
      // completion late); then past the 2 s however late it was noticed.
      await new Promise((r) => setTimeout(r, 500));
      expect((await h.call("GET", `/v2/ep1/status/${id}`)).body).toMatchObject({ status: "COMPLETED", output: "kept" });
      await new Promise((r) => setTimeout(r, 2000));
      expect((await h.call("GET", `/v2/ep1/status/${id}`)).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe("the worker environment", () => {
  it("has every variable of the reference under the prefix, with the URL shapes workers expect", () => {
    const env = workerEnvironment({
      prefix: "SVC",
      serverlessUrl: "http://127.0.0.1:8787/v2",
      endpointId: "ep1",
      workerId: "w1",
      apiKey: "k",
      gpu: "NVIDIA L4",
      pingIntervalMs: 300,
    });
    expect(env).toEqual({
      WORKER_ENV_PREFIX: "SVC",
      SVC_WEBHOOK_GET_JOB: "http://127.0.0.1:8787/v2/ep1/job-take/$ID?gpu=NVIDIA%20L4",
      SVC_WEBHOOK_POST_OUTPUT: "http://127.0.0.1:8787/v2/ep1/job-done/$SVC_POD_ID/$ID?gpu=NVIDIA%20L4",
      SVC_WEBHOOK_POST_STREAM: "http://127.0.0.1:8787/v2/ep1/job-stream/$SVC_POD_ID/$ID?gpu=NVIDIA%20L4",
      SVC_WEBHOOK_PING: "http://127.0.0.1:8787/v2/ep1/ping/$SVC_POD_ID?gpu=NVIDIA%20L4",
      // Whole seconds for the SDK: never under 1000.
      SVC_PING_INTERVAL: "1000",
      SVC_AI_API_KEY: "k",
      SVC_POD_ID: "w1",
      SVC_POD_HOSTNAME: "w1-worker",
      SVC_ENDPOINT_ID: "ep1",
      SVC_SKIP_GPU_CHECK: "true",
      SVC_SKIP_AUTO_SYSTEM_CHECKS: "true",
    });
  });

  it("refuses a prefix that cannot be an environment variable name", () => {
    expect(() => resolveOptions({ workerEnvPrefix: "my-prefix" })).toThrow(/workerEnvPrefix must be upper-case.*"my-prefix"/);
  });
});

describe("CLI flags of real workers", () => {
  it("--worker, --external-image, --worker-env-prefix, --worker-log-dir, --worker-logs", () => {
    const parsed = parseCliArgs(
      [
        "--worker",
        "example/py:1=python3 handler.py --fast",
        "--external-image",
        "example/other",
        "--worker-env-prefix",
        "SVC",
        "--worker-log-dir",
        "logs",
        "--worker-logs",
      ],
      "/work",
    );
    expect(parsed.help === false && parsed.options).toMatchObject({
      workers: { "example/py:1": "python3 handler.py --fast" },
      externalImages: ["example/other"],
      serverless: { workerEnvPrefix: "SVC", workerLogDir: "/work/logs", echoWorkerLogs: true, workerCwd: "/work" },
    });
    expect(() => parseCliArgs(["--worker", "example/py"])).toThrow(UsageError);
  });
});
