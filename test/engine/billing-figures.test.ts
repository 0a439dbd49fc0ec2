/**
 * Billing figures that match what ran, through the real engine against the emulator: a GPU pod on a
 * network volume, and a serverless endpoint whose smoke test runs a job. After a known stretch of
 * service time (the emulator's clock runs 1000x fast here), `getBilling` over the three histories
 * must give costPerHr x running time for the pod, worker up time x the worker's price for the
 * endpoint, and GB x time for the volume; `getBillingOutput` inside the program must export the same
 * figures as stack outputs; and invalid lookups fail before any request, in and out of a program.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, type EngineStack } from "../support/engineStack";

const HOUR_MS = 3_600_000;
/** The emulator's published storage price (emulator/README.md): per GB per 30-day month. */
const VOLUME_PRICE_PER_GB_MONTH = 0.07;
const VOLUME_GB = 100;
const L4 = "NVIDIA L4";

// Service-time durations of the serverless job (1 service second = 1 real ms at timeScale 0.001).
const COLD_START_MS = 60_000;
const JOB_MS = 300_000;
const IDLE_TIMEOUT_S = 300;

/** A billing window the program exports figures for (ISO strings: plain values survive Inputs). */
interface Window {
  startTime: string;
  endTime: string;
}

const sum = (
  records: ReadonlyArray<{ timeBilledMs?: number | undefined; amount?: number | undefined }>,
  key: "timeBilledMs" | "amount",
): number => records.reduce((total, r) => total + (r[key] ?? 0), 0);

describe("billing matches what ran, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  let window: Window | undefined;
  let auth: gpucloud.BillingOptions;

  // Filled in by the first test.
  let podId = "";
  let endpointId = "";
  let podCostPerHr = 0;
  let t0 = 0; // before the first up
  let t1 = 0;
  let t2 = 0;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.001, serverless: { coldStartMs: COLD_START_MS } });
    auth = { apiKey: emu.apiKey, apiUrl: emu.apiUrl };
    jobs = new gpucloud.JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: "billing-figures",
      program: async () => {
        const volume = new gpucloud.NetworkVolume("models", { name: "billing-models", size: VOLUME_GB, dataCenterId: "EU-RO-1" });
        const pod = new gpucloud.Pod("trainer", {
          imageName: "example/pytorch:2.4",
          gpuTypeIds: [L4],
          gpuCount: 1,
          dataCenterIds: ["EU-RO-1"],
          networkVolumeId: volume.id,
        });
        const template = new gpucloud.Template("worker", {
          name: "billing-worker",
          imageName: "example/echo-worker:1.0",
          isServerless: true,
        });
        const endpoint = new gpucloud.Endpoint("inference", {
          templateId: template.id,
          gpuTypeIds: [L4],
          workersMin: 0,
          workersMax: 1,
          idleTimeout: IDLE_TIMEOUT_S,
        });
        const smoke = new gpucloud.JobRunner("smoke", {
          endpoint,
          template,
          cases: [
            { name: "batch", input: { output: "done", delayMs: JOB_MS }, policy: { executionTimeout: 3_600_000 }, timeoutSeconds: 60 },
          ],
        });
        const outputs: Record<string, unknown> = {
          podId: pod.id,
          podCostPerHr: pod.costPerHr,
          endpointId: endpoint.id,
          smoke: smoke.results,
        };
        if (window) {
          // The billing lookup as a program uses it: arguments from resource outputs, credentials
          // from stack config.
          const range = window;
          outputs["podBilling"] = gpucloud.getBillingOutput(
            pod.id.apply((id) => ({ kind: "pods" as const, grouping: "podId" as const, podId: id, bucketSize: "hour" as const, ...range })),
          );
          outputs["endpointBilling"] = gpucloud.getBillingOutput(
            endpoint.id.apply((id) => ({ kind: "endpoints" as const, endpointId: id, bucketSize: "hour" as const, ...range })),
          );
          outputs["volumeBilling"] = gpucloud.getBillingOutput({ kind: "networkvolumes", bucketSize: "hour", ...window });
        }
        return outputs;
      },
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrl },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await jobs?.close();
    await emu?.close();
  });

  /**
   * Waits until the endpoint has no worker left, so their usage is on the ledger; returns the service
   * time at which that was first seen (a worker's stop is never later than that).
   */
  async function workersGone(id: string): Promise<number> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { workers } = await jobs.health(id);
      if (workers.idle + workers.running + workers.initializing + workers.ready === 0) return emu.clock.now();
      if (Date.now() > deadline) throw new Error(`workers still up: ${JSON.stringify(workers)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it("pod: costPerHr x running time; volume: GB x time; over a known stretch of service time", async () => {
    t0 = Math.floor(emu.clock.now());
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    podId = up.outputs["podId"]?.value as string;
    endpointId = up.outputs["endpointId"]?.value as string;
    podCostPerHr = up.outputs["podCostPerHr"]?.value as number;
    expect(podCostPerHr).toBeGreaterThan(0);

    // A known stretch of service time while the pod and the volume exist: at least 30 minutes (the
    // clock never wakes a sleeper early; at this scale it moves in steps of a service second, so the
    // stretch may be longer, never shorter). The billing window is that stretch in the whole
    // milliseconds the service bills in, so it lies inside it.
    const sleptFrom = emu.clock.now();
    await emu.clock.sleep(30 * 60_000);
    const sleptTo = emu.clock.now();
    expect(sleptTo - sleptFrom).toBeGreaterThanOrEqual(30 * 60_000);
    t1 = Math.ceil(sleptFrom);
    t2 = Math.floor(sleptTo);
    const range = { startTime: new Date(t1), endTime: new Date(t2), bucketSize: "hour" as const };

    const pods = await gpucloud.getBilling({ kind: "pods", grouping: "podId", podId, ...range }, auth);
    expect(pods.kind).toBe("pods");
    expect(pods.records.length).toBeGreaterThanOrEqual(1);
    expect(pods.records.every((r) => r.podId === podId)).toBe(true);
    // Every ms of the window was billed (each hour bucket rounds to whole ms).
    expect(Math.abs(sum(pods.records, "timeBilledMs") - (t2 - t1))).toBeLessThanOrEqual(pods.records.length);
    expect(pods.totalAmount).toBeCloseTo((podCostPerHr * (t2 - t1)) / HOUR_MS, 5);
    expect(pods.totalAmount).toBeCloseTo(sum(pods.records, "amount"), 9);

    // Grouped by GPU type (the default), the same pod shows under the type it rented.
    const byType = await gpucloud.getBilling({ kind: "pods", gpuTypeId: L4, ...range }, auth);
    expect(byType.records.every((r) => r.gpuTypeId === L4)).toBe(true);
    expect(byType.totalAmount).toBeCloseTo(pods.totalAmount, 6);

    // Open-ended (the default window ends now): everything since create, with timing tolerance.
    const sinceCreate = await gpucloud.getBilling({ kind: "pods", grouping: "podId", podId }, auth);
    const afterQuery = emu.clock.now();
    const billedMs = sum(sinceCreate.records, "timeBilledMs");
    expect(billedMs).toBeGreaterThanOrEqual(t2 - t1);
    expect(billedMs).toBeLessThanOrEqual(afterQuery - t0);
    expect(sinceCreate.totalAmount).toBeCloseTo((podCostPerHr * billedMs) / HOUR_MS, 4);

    const volumes = await gpucloud.getBilling({ kind: "networkvolumes", ...range }, auth);
    expect(volumes.kind).toBe("networkvolumes");
    expect(volumes.records.length).toBeGreaterThanOrEqual(1);
    for (const r of volumes.records) expect(r.diskSpaceBilledGb).toBe(VOLUME_GB);
    const gbHours = (VOLUME_GB * (t2 - t1)) / HOUR_MS;
    expect(volumes.totalAmount).toBeCloseTo((gbHours * VOLUME_PRICE_PER_GB_MONTH) / (30 * 24), 5);
  });

  it("endpoint: worker up time (cold start + job + idle timeout) at the worker's price", async () => {
    const [smoke] = (await engine.stack.outputs())["smoke"]!.value as gpucloud.JobRunnerCaseResult[];
    expect(smoke).toMatchObject({ status: "COMPLETED", output: "done", passed: true });
    expect(smoke?.executionTime).toBeGreaterThanOrEqual(JOB_MS);
    expect(smoke?.delayTime).toBeGreaterThanOrEqual(COLD_START_MS); // its worker booted for it
    // A worker's usage reaches the ledger when it stops, after its idle timeout.
    await workersGone(endpointId);

    // One more job on the now cold endpoint, timed from outside: a worker boots for it, runs it,
    // idles IDLE_TIMEOUT_S and stops.
    const submittedBy = emu.clock.now();
    const job = await jobs.runSync(endpointId, { input: { delayMs: JOB_MS }, policy: { executionTimeout: 3_600_000 } }, { waitMs: 60_000 });
    expect(job.status).toBe("COMPLETED");
    expect(job.workerId).toBeDefined();
    const stoppedBy = await workersGone(endpointId);

    const perWorker = await gpucloud.getBilling({ kind: "endpoints", endpointId, grouping: "podId", bucketSize: "day" }, auth);
    const workerIds = new Set(perWorker.records.map((r) => r.podId));
    expect(workerIds.size).toBe(2); // the smoke test's worker, then this job's
    const mine = perWorker.records.filter((r) => r.podId === job.workerId);
    const billedMs = sum(mine, "timeBilledMs");
    // Lower bound: everything the service reported for the job, plus the idle timeout (timers never
    // fire early; 5 s of slack for the worker starting a turn after the job was queued). Upper bound:
    // the worker existed only between the submission and the moment it was seen gone.
    expect(billedMs).toBeGreaterThanOrEqual((job.delayTime ?? 0) + (job.executionTime ?? 0) + IDLE_TIMEOUT_S * 1000 - 5_000);
    expect(billedMs).toBeLessThanOrEqual(stoppedBy - submittedBy);
    // Serverless workers are priced like a secure on-demand pod of the same GPU: the pod's costPerHr.
    expect(sum(mine, "amount")).toBeCloseTo((podCostPerHr * billedMs) / HOUR_MS, 5);
    expect(perWorker.totalAmount).toBeCloseTo((podCostPerHr * sum(perWorker.records, "timeBilledMs")) / HOUR_MS, 5);

    // Grouped by endpoint, the same time and money; a filter that matches nothing gives nothing.
    const byEndpoint = await gpucloud.getBilling({ kind: "endpoints", endpointId, bucketSize: "day" }, auth);
    expect(byEndpoint.records.every((r) => r.endpointId === endpointId)).toBe(true);
    expect(sum(byEndpoint.records, "timeBilledMs")).toBe(sum(perWorker.records, "timeBilledMs"));
    expect(byEndpoint.totalAmount).toBeCloseTo(perWorker.totalAmount, 5);
    const otherImage = await gpucloud.getBilling({ kind: "endpoints", imageName: "example/other:1.0" }, auth);
    expect(otherImage.records).toEqual([]);
  });

  it("getBillingOutput in the program exports the same figures as stack outputs", async () => {
    // From before the first up (the smoke test's worker came and went during it) until now.
    window = { startTime: new Date(t0).toISOString(), endTime: new Date(Math.floor(emu.clock.now())).toISOString() };
    const direct = {
      podBilling: await gpucloud.getBilling({ kind: "pods", grouping: "podId", podId, bucketSize: "hour", ...window }, auth),
      endpointBilling: await gpucloud.getBilling({ kind: "endpoints", endpointId, bucketSize: "hour", ...window }, auth),
      volumeBilling: await gpucloud.getBilling({ kind: "networkvolumes", bucketSize: "hour", ...window }, auth),
    };
    expect(direct.podBilling.totalAmount).toBeGreaterThan(0);
    expect(direct.endpointBilling.totalAmount).toBeGreaterThan(0);
    expect(direct.volumeBilling.totalAmount).toBeGreaterThan(0);

    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    // Reading billing changes no resource, and re-runs no smoke test.
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(up.outputs["podBilling"]?.value).toEqual(direct.podBilling);
    expect(up.outputs["endpointBilling"]?.value).toEqual(direct.endpointBilling);
    expect(up.outputs["volumeBilling"]?.value).toEqual(direct.volumeBilling);
  });

  it("refuses invalid lookups before any request: reversed range, bad bucket, filter of another history", async () => {
    // A closed port: a lookup that got as far as sending would fail with a connection error instead.
    const nowhere = { apiKey: "unused", apiUrl: "http://127.0.0.1:9/v1" };
    await expect(
      gpucloud.getBilling({ kind: "pods", startTime: "2026-03-02T00:00:00Z", endTime: "2026-03-01T00:00:00Z" }, nowhere),
    ).rejects.toThrow(
      /^invalid billing lookup: endTime \(2026-03-01T00:00:00.000Z\) must be after startTime \(2026-03-02T00:00:00.000Z\)$/,
    );
    const badBucket = gpucloud.getBilling(
      { kind: "endpoints", bucketSize: "fortnight" } as unknown as gpucloud.EndpointBillingArgs,
      nowhere,
    );
    await expect(badBucket).rejects.toBeInstanceOf(gpucloud.BillingQueryError);
    await expect(badBucket).rejects.toThrow('bucketSize must be one of hour, day, week, month, year (got "fortnight")');
    await expect(
      gpucloud.getBilling({ kind: "networkvolumes", podId: "abc" } as unknown as gpucloud.NetworkVolumeBillingArgs, nowhere),
    ).rejects.toThrow("podId is not a filter of the networkvolumes billing history");
    await expect(
      gpucloud.getBilling({ kind: "pods", endpointId: "abc", imageName: "x" } as unknown as gpucloud.PodBillingArgs, nowhere),
    ).rejects.toThrow("endpointId, imageName are not a filter of the pods billing history");
    await expect(gpucloud.getBilling({ kind: "pods", startTime: "2026-02-30" }, nowhere)).rejects.toThrow(
      'startTime must be an ISO 8601 date-time such as "2026-01-31T00:00:00Z" (got "2026-02-30")',
    );

    // In a program, the same mistake fails the preview with the same message.
    window = { startTime: new Date(t2).toISOString(), endTime: new Date(t1).toISOString() };
    let thrown: unknown;
    try {
      await engine.stack.preview();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toContain(`invalid billing lookup: endTime (${new Date(t1).toISOString()}) must be after startTime`);
    window = undefined;
  });

  it("stops billing the pod, the workers and the volume once destroyed", async () => {
    const destroy = await engine.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const totals = async () => [
      (await gpucloud.getBilling({ kind: "pods", podId, grouping: "podId" }, auth)).totalAmount,
      (await gpucloud.getBilling({ kind: "endpoints", endpointId }, auth)).totalAmount,
      (await gpucloud.getBilling({ kind: "networkvolumes" }, auth)).totalAmount,
    ];
    const atDestroy = await totals();
    expect(atDestroy.every((amount) => amount > 0)).toBe(true);
    await emu.clock.sleep(10 * 60_000);
    expect(await totals()).toEqual(atDestroy);
  });
});
