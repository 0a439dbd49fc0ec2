// The reads of sdk/reads.ts against the emulator over HTTP: an endpoint's workers (isStale,
// endpointVersion) and whole release history, the public templates, a pod's and a worker's log
// lines; each refuses the v1 API with the fix, and bad arguments before any request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import {
  ConfigError,
  getEndpointReleases,
  getEndpointWorkers,
  getPodLog,
  getPublicTemplates,
  getWorkerLog,
  LookupArgsError,
  LookupError,
  NotFoundError,
} from "../../sdk/index";
import { type Api, startTestEmulator, waitFor } from "../support/managementHelpers";
import { V2_GPU_POD, V2_ONE_WORKER_LB_ENDPOINT, apiV2, waitForIdleWorker } from "../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;
let options: { apiUrl: string; apiKey: string };
beforeAll(async () => {
  emu = await startTestEmulator();
  v2 = apiV2(emu);
  options = { apiUrl: emu.apiUrlV2, apiKey: emu.apiKey };
});
afterAll(() => emu.close());

describe("getEndpointWorkers and getEndpointReleases", () => {
  it("read the workers with isStale and endpointVersion, then the releases and rollout after a change", async () => {
    const endpoint = (await v2.post("/serverless", { ...V2_ONE_WORKER_LB_ENDPOINT, workers: { min: 1, max: 1 } })).body;
    await waitForIdleWorker(v2, endpoint.id);
    const workers = await getEndpointWorkers({ endpointId: endpoint.id }, options);
    expect(workers).toMatchObject({ endpointVersion: 0, summary: { idle: 1, total: 1 } });
    expect(workers.workers).toHaveLength(1);
    expect(workers.workers[0]).toMatchObject({ status: "IDLE", isStale: false, version: 0, gpuCount: 1, image: "example/lb:1" });
    expect(typeof workers.workers[0]?.uptimeSeconds).toBe("number");

    await v2.patch(`/serverless/${endpoint.id}`, { image: "example/lb:2" });
    const releases = await waitFor("the rollout to finish", async () => {
      const read = await getEndpointReleases({ endpointId: endpoint.id }, options);
      return read.rollout.percentOnLatest === 100 ? read : undefined;
    });
    expect(releases).toMatchObject({ endpointVersion: 1, rollout: { inProgress: false, workersOnLatest: 1, workersTotal: 1 } });
    expect(releases.releases.map((r) => r.version)).toEqual([1, 0]);
    expect(releases.releases[0]).toMatchObject({ source: "MANUAL", workerCount: 1 });
    expect(releases.releases[0]?.buildId).toBeUndefined();
  });

  it("an unknown endpoint is a LookupError naming the read and the operation, the NotFoundError its cause", async () => {
    const error = await getEndpointWorkers({ endpointId: "nosuch" }, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupError);
    expect((error as Error).cause).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/^getEndpointWorkers: listEndpointWorkers failed: 404/);
    await expect(getEndpointReleases({ endpointId: "nosuch" }, options)).rejects.toThrow(
      /^getEndpointReleases: listEndpointReleases failed: 404/,
    );
  });

  it("refuse the v1 API, naming the setting and the /v2 fix", async () => {
    for (const read of [getEndpointWorkers, getEndpointReleases]) {
      const error = await read({ endpointId: "e" }, { apiUrl: emu.apiUrl, apiKey: emu.apiKey }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^getEndpoint(Workers|Releases) needs the service's v2 API, .* to the \/v2 URL\.$/);
    }
  });

  it("refuse bad arguments before any request, naming the argument and the value", async () => {
    // A URL nothing listens on: a request would fail differently.
    const nowhere = { apiUrl: "http://127.0.0.1:1/v2", apiKey: "k" };
    const missing = await getEndpointWorkers({} as { endpointId: string }, nowhere).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LookupArgsError);
    expect((missing as Error).message).toBe("invalid getEndpointWorkers arguments: endpointId is required");
    await expect(getEndpointReleases({ endpointId: 7 } as unknown as { endpointId: string }, nowhere)).rejects.toThrow(
      "invalid getEndpointReleases arguments: endpointId must be an id string (got 7)",
    );
    await expect(getEndpointWorkers({ endpointId: "e", id: "x" } as { endpointId: string }, nowhere)).rejects.toThrow(
      "invalid getEndpointWorkers arguments: id: not an argument of getEndpointWorkers; remove it",
    );
  });
});

describe("getPublicTemplates", () => {
  it("lists the official slice by default and the community slice on request", async () => {
    const official = await getPublicTemplates({}, options);
    expect(official.templates.map((t) => t.id).sort()).toEqual(["svcpytorch", "svcworker0"]);
    expect(official.templates.find((t) => t.id === "svcworker0")?.serverless).toBe(true);
    const made = (await v2.post("/templates", { name: "published", image: "example/published:1", public: true })).body;
    const community = await getPublicTemplates({ source: "community" }, options);
    expect(community.templates.find((t) => t.id === made.id)).toMatchObject({
      name: "published",
      image: "example/published:1",
      public: true,
    });
    expect((await getPublicTemplates({ source: "verified" }, options)).templates).toEqual([]);
  });

  it("refuses an unknown source before any request, and the v1 API", async () => {
    await expect(
      getPublicTemplates({ source: "everyone" } as unknown as { source: "official" }, { apiUrl: "http://127.0.0.1:1/v2", apiKey: "k" }),
    ).rejects.toThrow('invalid getPublicTemplates arguments: source must be official, verified or community (got "everyone")');
    await expect(getPublicTemplates({}, { apiUrl: emu.apiUrl, apiKey: emu.apiKey })).rejects.toThrow(ConfigError);
  });
});

describe("getPodLog and getWorkerLog", () => {
  it("read a pod's last lines with the stream's URL", async () => {
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, name: "logged" })).body;
    emu.writePodLog(pod.id, "serving on :8000");
    const log = await getPodLog({ podId: pod.id, lines: 1, source: "container" }, options);
    expect(log.lines.map((l) => l.line)).toEqual(["serving on :8000"]);
    expect(log.url).toBe(`${emu.apiUrlV2}/pods/${pod.id}/logs`);
  });

  it("read a worker's log by the id getEndpointWorkers gives", async () => {
    const endpoint = (await v2.post("/serverless", { ...V2_ONE_WORKER_LB_ENDPOINT, name: "logs", workers: { min: 1, max: 1 } })).body;
    await waitForIdleWorker(v2, endpoint.id);
    const [worker] = (await getEndpointWorkers({ endpointId: endpoint.id }, options)).workers;
    const log = await getWorkerLog({ endpointId: endpoint.id, workerId: worker?.id ?? "", timeoutMs: 2000 }, options);
    expect(log.path).toBe(`/serverless/${endpoint.id}/workers/${worker?.id}/logs`);
    expect(["lines", "quiet", "closed"]).toContain(log.ended);
  });

  it("refuse bad options and the v1 API before any request", async () => {
    const nowhere = { apiUrl: "http://127.0.0.1:1/v2", apiKey: "k" };
    await expect(getPodLog({ podId: "p", lines: 0 }, nowhere)).rejects.toThrow(
      "log read: lines must be a whole number from 1 to 5000 (got 0)",
    );
    await expect(getWorkerLog({ endpointId: "e" } as { endpointId: string; workerId: string }, nowhere)).rejects.toThrow(
      "invalid getWorkerLog arguments: workerId is required",
    );
    await expect(getPodLog({ podId: "p" }, { apiUrl: emu.apiUrl, apiKey: emu.apiKey })).rejects.toThrow(
      /^getPodLog needs the service's v2 API/,
    );
  });
});
