/**
 * The emulator as a child process (the compiled `gpucloud-emulator` bin of a checkout), on a free
 * port: started with its flags, its URLs read from the banner it prints, stopped cleanly (SIGTERM
 * makes it write its state file once more). Used by the scripts and tests that need the emulator
 * of another checkout (the upgrade fixtures' recorder) or in another process (the GitOps script's
 * and the acceptance runner's tests).
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./repoRoot";

export interface EmulatorChild {
  child: ChildProcess;
  /** Management base of the v1 API (`.../v1`). */
  apiUrl: string;
  /** Management base of the v2 API (`.../api/v2`). */
  apiUrlV2: string;
  /** Job API base (`.../v2`). */
  serverlessUrl: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM (a clean shutdown that saves the state file) and wait for the exit code. */
  stop(): Promise<number | null>;
}

export interface EmulatorChildOptions {
  /** The checkout whose `dist/emulator/cli.js` runs; default: this one. */
  root?: string;
  apiKeys: readonly string[];
  statePath?: string;
  /** TCP port; default 0 (any free port). */
  port?: number;
  /** Simulated durations x this; default 0.01. */
  timeScale?: number;
  extraArgs?: readonly string[];
}

export async function startEmulatorChild(options: EmulatorChildOptions): Promise<EmulatorChild> {
  const cli = path.join(options.root ?? repoRoot(), "dist", "emulator", "cli.js");
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` in that checkout first`);
  const args = [cli, "--port", String(options.port ?? 0), "--time-scale", String(options.timeScale ?? 0.01)];
  for (const key of options.apiKeys) args.push("--api-key", key);
  if (options.statePath !== undefined) args.push("--state", options.statePath);
  args.push(...(options.extraArgs ?? []));
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const urls = await new Promise<{ apiUrl: string; apiUrlV2: string; serverlessUrl: string }>((resolve, reject) => {
    // A child that never printed its URLs is stopped, so a failed start leaves no process (or port) behind.
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`emulator did not start within 20 s:\n${out}`));
    }, 20_000);
    const onData = (): void => {
      const found = bannerUrls(out);
      if (!found) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      resolve(found);
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code} before it listened:\n${out}`));
    });
  });
  return {
    child,
    ...urls,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * The URLs of the banner, once all printed. Today's banner: `management API: <v2>`, `job API: ...`,
 * `earlier API v1: ...`; the banner of 0.1.0 (which the upgrade fixtures' recorder starts):
 * `management API: <v1>`, `management v2: ...`, `job API: ...`.
 */
function bannerUrls(text: string): { apiUrl: string; apiUrlV2: string; serverlessUrl: string } | undefined {
  const apiUrlV2 = (/management v2:\s+(\S+)/.exec(text) ?? /management API:\s+(\S+\/api\/v2)\s/.exec(text))?.[1];
  const apiUrl = (/earlier API v1:\s+(\S+)/.exec(text) ?? /management API:\s+(\S+\/v1)\s/.exec(text))?.[1];
  const serverlessUrl = /job API:\s+(\S+)/.exec(text)?.[1];
  return apiUrl && apiUrlV2 && serverlessUrl ? { apiUrl, apiUrlV2, serverlessUrl } : undefined;
}
