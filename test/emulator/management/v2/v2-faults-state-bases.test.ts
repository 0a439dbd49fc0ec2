/**
 * What the emulator does for /api/v2 as it does for /v1: fault injection (selectors on /api/v2
 * paths and v2 operation ids, problem+json answers), the state file (v2-made resources survive a
 * restart), the bases the bin prints, and /v2/<name> always meaning the job API.
 * The bin test runs the compiled dist/emulator/cli.js (npm test builds first).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { parseCliArgs } from "../../../../emulator/cliArgs";
import { api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

describe("fault injection on /api/v2", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ faults: "seed=1; GET /api/v2/pods: 503=1@2s; createNetworkVolume: 429=1" });
  });
  afterAll(() => emu.close());

  it("a METHOD PATH selector on an /api/v2 path fires there only, answering a problem with Retry-After", async () => {
    const v2 = apiV2(emu);
    const res = await v2.get("/pods");
    const problem = expectProblem(res, 503);
    expect(problem.detail).toMatch(/^injected fault: 503 Service Unavailable on listPods/);
    expect(res.headers.get("retry-after")).toBe("2");
    // The rate-limit state is still reported on an injected answer.
    expect(res.headers.get("ratelimit")).toMatch(/"minute";r=\d+/);
    expect((await api(emu).get("/pods")).status).toBe(200);
    expect((await v2.get("/templates")).status).toBe(200);
  });

  it("a v2 operation id selects that operation; the counts name it", async () => {
    const v2 = apiV2(emu);
    expectProblem(await v2.post("/network-volumes", { name: "v", size: 10, dataCenter: "EU-RO-1" }), 429);
    expect(emu.inspect().flatMap((a) => a.networkVolumes)).toEqual([]);
    expect(emu.faultStats().byOperation).toMatchObject({ listPods: { 503: 1 }, createNetworkVolume: { 429: 1 } });
  });

  it("a selector that matches no operation names both surfaces in its error", async () => {
    await expect(startTestEmulator({ faults: "GET /api/v2/nothing: 500=1" })).rejects.toThrow(
      /selector "GET \/api\/v2\/nothing" matches no operation.*\/api\/v2\/pods/,
    );
  });
});

describe("the state file", () => {
  it("keeps what was made through /api/v2 across a restart, in the v2 shape, and has it on disk before the answer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gpucloud-v2-state-"));
    const statePath = join(dir, "state.json");
    try {
      const first = await startTestEmulator({ statePath });
      const v2 = apiV2(first);
      const registry = (await v2.post("/registries", { name: "reg", username: "u", password: "p" })).body;
      const template = (await v2.post("/templates", { name: "tpl", image: "example/t:1", registry: registry.id })).body;
      const volume = (await v2.post("/network-volumes", { name: "vol", size: 20, dataCenter: "EU-RO-1" })).body;
      const pod = (await v2.post("/pods", { ...V2_GPU_POD, mounts: { network: [{ volumeId: volume.id, path: "/data" }] } })).body;
      const endpoint = (
        await v2.post("/serverless", {
          ...V2_QUEUE_ENDPOINT,
          type: "LOAD_BALANCER",
          scaling: { type: "REQUEST_COUNT", requestCount: 2 },
          flashboot: "FLASHBOOT",
        })
      ).body;
      await v2.patch(`/serverless/${endpoint.id}`, { image: "example/worker:2" });
      // Acknowledged means written: the file holds the endpoint before close.
      expect(await readFile(statePath, "utf8")).toContain(endpoint.id);
      const before = {
        registry: (await v2.get(`/registries/${registry.id}`)).body,
        template: (await v2.get(`/templates/${template.id}`)).body,
        volume: (await v2.get(`/network-volumes/${volume.id}`)).body,
        endpoint: (await v2.get(`/serverless/${endpoint.id}`)).body,
        releases: (await v2.get(`/serverless/${endpoint.id}/releases`)).body.releases,
        pod: (await v2.get(`/pods/${pod.id}`)).body,
      };
      await first.close();

      const second = await startTestEmulator({ statePath });
      try {
        const again = apiV2(second);
        expect((await again.get(`/registries/${registry.id}`)).body).toEqual(before.registry);
        expect((await again.get(`/templates/${template.id}`)).body).toEqual(before.template);
        expect((await again.get(`/network-volumes/${volume.id}`)).body).toEqual(before.volume);
        const restoredEndpoint = (await again.get(`/serverless/${endpoint.id}`)).body;
        expect({ ...restoredEndpoint, requestUrls: undefined }).toEqual({ ...before.endpoint, requestUrls: undefined });
        expect(restoredEndpoint.requestUrls.base).toBe(`${second.serverlessUrl}/${endpoint.id}`);
        expect(restoredEndpoint).toMatchObject({ type: "LOAD_BALANCER", flashboot: "FLASHBOOT", image: "example/worker:2" });
        expect((await again.get(`/serverless/${endpoint.id}/releases`)).body.releases).toEqual(before.releases);
        const restoredPod = (await again.get(`/pods/${pod.id}`)).body;
        expect(restoredPod).toMatchObject({
          id: pod.id,
          name: before.pod.name,
          image: before.pod.image,
          gpu: before.pod.gpu,
          mounts: before.pod.mounts,
          dataCenterId: before.pod.dataCenterId,
        });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the bases", () => {
  it("/v2/<name> is always the job API: /v2/pods is an unknown endpoint, never the pod list", async () => {
    const emu = await startTestEmulator();
    try {
      await apiV2(emu).post("/pods", V2_GPU_POD);
      const headers = { authorization: `Bearer ${emu.apiKey}` };
      for (const path of ["/pods", "/pods/health", "/serverless", "/api/v2/pods"]) {
        const res = await fetch(`${emu.serverlessUrl}${path}`, { headers });
        const text = await res.text();
        expect(res.status, `${path}: ${text}`).toBe(404);
        expect(text).not.toContain('"pods"');
      }
      expect((await fetch(`${emu.apiUrlV2}/pods`, { headers })).status).toBe(200);
      expect(emu.apiUrlV2).toBe(`${new URL(emu.apiUrl).origin}/api/v2`);
    } finally {
      await emu.close();
    }
  });

  it("--rate-limit takes a per-minute quota or off", () => {
    const options = (argv: string[]) => {
      const parsed = parseCliArgs(argv, "/work");
      if (parsed.help) throw new Error("unexpected help");
      return parsed.options.rateLimit;
    };
    expect(options(["--rate-limit", "120"])).toEqual({ perMinute: 120 });
    expect(options(["--rate-limit", "off"])).toBe(false);
    expect(options([])).toBeUndefined();
    expect(() => options(["--rate-limit", "0"])).toThrow(/--rate-limit must be an integer >= 1 or "off", got "0"/);
  });

  it("the bin prints the v1 management, v2 management and job API bases, and applies --rate-limit", async () => {
    const cli = resolve(__dirname, "..", "..", "..", "..", "dist", "emulator", "cli.js");
    expect(existsSync(cli), `${cli} missing: run npm run build first`).toBe(true);
    const child = spawn(process.execPath, [cli, "--port", "0", "--api-key", "bases-key", "--rate-limit", "2"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      const bases = await new Promise<RegExpExecArray>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 10 s: ${stdout}`)), 10_000);
        child.stdout.on("data", () => {
          const match = /management API:\s+(\S+).*\n\s+job API:\s+(\S+).*\n(?:.*\n)*?\s+earlier API v1:\s+(\S+)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolvePromise(match);
          }
        });
      });
      const [, v2, jobs, v1] = bases;
      const origin = new URL(v1 ?? "").origin;
      expect([v1, v2, jobs]).toEqual([`${origin}/v1`, `${origin}/api/v2`, `${origin}/v2`]);
      const headers = { authorization: "Bearer bases-key" };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${v2}/pods`, { headers })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
