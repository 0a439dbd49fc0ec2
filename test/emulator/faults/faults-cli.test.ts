/**
 * `gpucloud-emulator --faults SPEC` (flag parsing and the real bin), and the state file's directory
 * being created when missing. The bin tests run the compiled dist/emulator/cli.js (npm test builds first).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { UsageError, parseCliArgs } from "../../../emulator/cliArgs";

const CLI = resolve(__dirname, "..", "..", "..", "dist", "emulator", "cli.js");

describe("--faults flag", () => {
  test("is parsed into a plan", () => {
    const parsed = parseCliArgs(["--faults", "seed=7; POST /v1/pods: lost=0.2; *: 503=0.05@1s"], "/work");
    expect(parsed.help).toBe(false);
    expect(parsed.help === false && parsed.options.faults).toEqual({
      seed: 7,
      rules: [
        { selector: "POST /v1/pods", faults: [{ kind: "lost", probability: 0.2 }] },
        { selector: "*", faults: [{ kind: "503", probability: 0.05, durationMs: 1000 }] },
      ],
    });
  });

  test("takes pod faults, and refuses a pod fault on a request selector", () => {
    const parsed = parseCliArgs(["--faults", "pod train-*: error=1@30s"], "/work");
    expect(parsed.help === false && parsed.options.faults).toEqual({
      seed: 0,
      rules: [{ selector: "pod train-*", faults: [{ kind: "error", probability: 1, durationMs: 30_000 }] }],
    });
    expect(() => parseCliArgs(["--faults", "*: error=0.1"])).toThrow(/--faults: .*error is a pod fault/);
  });

  test("a bad SPEC is a UsageError that names the flag and the problem", () => {
    expect(() => parseCliArgs(["--faults", "*: 999=0.1"])).toThrow(UsageError);
    expect(() => parseCliArgs(["--faults", "*: 999=0.1"])).toThrow(/--faults: .*unknown fault kind "999"/);
  });
});

describe("the bin with --faults and --state in a missing directory", () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    child = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("injects faults, creates the state directory, and prints the counts at shutdown", async () => {
    expect(existsSync(CLI), `${CLI} missing: run npm run build first`).toBe(true);
    dir = await mkdtemp(join(tmpdir(), "gpucloud-faults-cli-"));
    const statePath = join(dir, "not", "yet", "there", "state.json");
    const proc = spawn(
      process.execPath,
      [CLI, "--port", "0", "--api-key", "cli-key", "--state", statePath, "--faults", "seed=3; ListPods: 503=1"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = proc;
    let stdout = "";
    let stderr = "";
    proc.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
    proc.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    const apiUrl = await new Promise<string>((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner within 10 s; stdout: ${stdout} stderr: ${stderr}`)), 10_000);
      proc.stdout?.on("data", () => {
        const match = /earlier API v1:\s+(\S+)/.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolvePromise(match[1]);
        }
      });
      proc.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stdout).toContain("faults:          seed=3; ListPods: 503=1");
    expect(JSON.parse(await readFile(statePath, "utf8"))).toMatchObject({ accounts: [] });

    const headers = { authorization: "Bearer cli-key" };
    expect((await fetch(`${apiUrl}/pods`, { headers })).status).toBe(503);
    expect((await fetch(`${apiUrl}/templates`, { headers })).status).toBe(200);

    const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(
      /faults injected over 1 requests: 429=0 500=0 502=0 503=1 504=0 reset=0 lost=0 late=0 land=0 hidden=0 latency=0/,
    );
  });

  test("a bad SPEC exits 2 with the reason", async () => {
    const proc = spawn(process.execPath, [CLI, "--port", "0", "--faults", "*: 500=2"], { stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    let stderr = "";
    proc.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => proc.on("exit", (c) => r(c)));
    expect(code).toBe(2);
    expect(stderr).toContain("--faults: ");
    expect(stderr).toContain("probability of 500 must be a number from 0 to 1");
  });
});
