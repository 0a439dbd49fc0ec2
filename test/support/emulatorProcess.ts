/**
 * The emulator as a separate process (the compiled `gpucloud-emulator` bin), for tests that kill it:
 * start on a given port with a state file, wait for its banner, SIGKILL, and read its state file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";

const CLI = path.resolve(__dirname, "..", "..", "dist", "emulator", "cli.js");

export interface EmulatorProcess {
  child: ChildProcess;
  apiUrl: string;
  serverlessUrl: string;
  /** Everything it printed. */
  output(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean shutdown that saves state), and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startEmulatorProcess(args: {
  port: number;
  statePath: string;
  apiKey: string;
  extra?: readonly string[];
}): Promise<EmulatorProcess> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child = spawn(
    process.execPath,
    [CLI, "--port", String(args.port), "--state", args.statePath, "--api-key", args.apiKey, "--time-scale", "0.01", ...(args.extra ?? [])],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start within 15 s:\n${out}`)), 15_000);
    const onData = (): void => {
      if (out.includes("management API:")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code} before it listened:\n${out}`));
    });
  });
  const base = `http://127.0.0.1:${args.port}`;
  return {
    child,
    apiUrl: `${base}/v1`,
    serverlessUrl: `${base}/v2`,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface StateFileResource {
  kind: "pods" | "endpoints" | "templates" | "networkVolumes" | "registryAuths";
  id: string;
  name: string;
}

/** The resources in an emulator state file (all accounts); [] while it does not exist or is mid-write. */
export function resourcesInStateFile(statePath: string): StateFileResource[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(statePath, "utf8"));
  } catch {
    return [];
  }
  const accounts = (parsed as { accounts?: unknown }).accounts;
  if (!Array.isArray(accounts)) return [];
  const out: StateFileResource[] = [];
  for (const account of accounts as Record<string, unknown>[]) {
    for (const kind of ["pods", "endpoints", "templates", "networkVolumes", "registryAuths"] as const) {
      const list = account[kind];
      if (!Array.isArray(list)) continue;
      for (const r of list as { id?: unknown; name?: unknown }[]) out.push({ kind, id: String(r.id), name: String(r.name) });
    }
  }
  return out;
}
