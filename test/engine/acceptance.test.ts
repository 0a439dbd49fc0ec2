/**
 * The live acceptance runner (scripts/acceptance.ts), pointed at an emulator in another process as
 * a maintainer points it at the service: it runs only when opted in, passes the lifecycle, cleans
 * up everything named with its run id after a deliberately failed step (the stack's resources by
 * destroy, a planted orphan by the sweep), and refuses to start above its spend ceiling.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorChild, type EmulatorChild } from "../../scripts/lib/emulatorCli";

const RUNNER = path.resolve(__dirname, "..", "..", "dist", "scripts", "acceptance.js");
const API_KEY = "gpc_emu_acceptance_dev_key";

interface Run {
  code: number;
  out: string;
}

describe("live acceptance runner, against an emulator", { timeout: 300_000 }, () => {
  let emulator: EmulatorChild;

  beforeAll(async () => {
    emulator = await startEmulatorChild({ apiKeys: [API_KEY], timeScale: 0.01 });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  function runner(extra: Record<string, string>): Promise<Run> {
    const env: Record<string, string> = {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? "",
      // The test file's own directory for what the package remembers between processes, not the user's.
      ...(process.env["GPUCLOUD_CACHE_DIR"] ? { GPUCLOUD_CACHE_DIR: process.env["GPUCLOUD_CACHE_DIR"] } : {}),
      GPUCLOUD_ACCEPTANCE: "1",
      GPUCLOUD_API_URL: emulator.apiUrlV2,
      GPUCLOUD_SERVERLESS_URL: emulator.serverlessUrl,
      GPUCLOUD_API_KEY: API_KEY,
      ...extra,
    };
    return new Promise((resolve) => {
      execFile(process.execPath, [RUNNER], { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, out: `${stdout}${stderr}` });
      });
    });
  }

  /** Names of everything the emulator's account holds, over its v2 API. */
  async function namesHeld(): Promise<string[]> {
    const names: string[] = [];
    for (const [route, key] of [
      ["/pods", "pods"],
      ["/serverless", "endpoints"],
      ["/templates", "templates"],
      ["/network-volumes", "networkVolumes"],
      ["/registries", "registries"],
    ] as const) {
      const response = await fetch(`${emulator.apiUrlV2}${route}`, { headers: { authorization: `Bearer ${API_KEY}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, { name?: string }[] | undefined>;
      for (const item of body[key] ?? []) names.push(String(item.name));
    }
    return names;
  }

  /** The run id the runner printed (`run acc-...-:`). */
  function runIdOf(out: string): string {
    const id = /\[acceptance\] run (acc-[a-z0-9]+-[0-9a-f]+-):/.exec(out)?.[1];
    if (!id) throw new Error(`no run id in the output:\n${out}`);
    return id;
  }

  it("does nothing unless opted in", async () => {
    const run = await runner({ GPUCLOUD_ACCEPTANCE: "" });
    expect(run.code).toBe(2);
    expect(run.out).toContain("GPUCLOUD_ACCEPTANCE is not 1");
    expect(await namesHeld()).toEqual([]);
  });

  it("refuses to start above its spend ceiling, before making anything", async () => {
    const run = await runner({ GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR: "0.05" });
    expect(run.code, run.out).toBe(3);
    expect(run.out).toMatch(
      /refusing to start: the estimate [\d.]+ USD\/h is above the ceiling GPUCLOUD_ACCEPTANCE_MAX_USD_PER_HOUR=0\.05/,
    );
    expect(await namesHeld()).toEqual([]);
  });

  it("runs the lifecycle within the default ceiling and leaves nothing behind", async () => {
    const run = await runner({});
    expect(run.code, run.out).toBe(0);
    for (const step of ["up", "preview", "update", "refresh", "destroy"]) expect(run.out).toContain(`[acceptance] ${step}: `);
    expect(run.out).toContain("[acceptance] acceptance passed");
    const runId = runIdOf(run.out);
    expect((await namesHeld()).filter((n) => n.startsWith(runId))).toEqual([]);
  });

  it("cleans up after a deliberately failed step: destroy for the stack, the sweep for an orphan", async () => {
    const run = await runner({ GPUCLOUD_ACCEPTANCE_INJECT_FAILURE: "1" });
    expect(run.code, run.out).toBe(1);
    const runId = runIdOf(run.out);
    expect(run.out).toContain("[acceptance] up: ");
    expect(run.out).toMatch(/\[acceptance\] FAILED: /);
    expect(run.out).toMatch(new RegExp(`cleanup: deleted leftover network volume \\S+ \\(${runId}orphan\\)`));
    expect(run.out).toContain(`[acceptance] cleanup: nothing named ${runId}* is left`);
    expect(run.out).toContain("[acceptance] acceptance FAILED");
    expect(await namesHeld()).toEqual([]);
  });
});
