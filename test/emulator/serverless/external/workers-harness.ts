/**
 * Real worker processes for the job-side harness: our Python worker loop (workers/python) started
 * with the environment the platform gives a worker, pointed at the harness's job API.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { workerEnvironment } from "../../../../emulator/serverless/external/workerEnv";
import { KEY, type Harness } from "../../../support/jobsHarness";

export const PYTHON_DIR = resolve(__dirname, "../../../../workers/python");

export interface PyWorker {
  id: string;
  proc: ChildProcess;
  /** Everything the process wrote to stderr so far (its log). */
  log(): string;
}

export function startPyWorker(
  h: Harness,
  o: { endpointId: string; workerId: string; stream?: boolean; concurrency?: number; key?: string },
): PyWorker {
  const env = {
    ...process.env,
    ...workerEnvironment({
      prefix: "TESTP",
      serverlessUrl: `${h.url}/v2`,
      endpointId: o.endpointId,
      workerId: o.workerId,
      // Bare key, as the service's SDK sends it.
      apiKey: o.key ?? KEY,
      gpu: "NVIDIA A40",
      pingIntervalMs: 1000,
    }),
    PYTHONPATH: PYTHON_DIR,
    PYTHONUNBUFFERED: "1",
    HANDLER_STREAM: o.stream ? "1" : "0",
    HANDLER_CONCURRENCY: String(o.concurrency ?? 1),
  };
  const proc = spawn("python3", [resolve(PYTHON_DIR, "modes_handler.py")], { env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  proc.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  return { id: o.workerId, proc, log: () => log };
}

/** Kills every worker and waits until each has exited. */
export async function stopPyWorkers(workers: PyWorker[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((r) => {
          if (w.proc.exitCode !== null || w.proc.signalCode !== null) return r();
          w.proc.once("exit", () => r());
          w.proc.kill("SIGKILL");
        }),
    ),
  );
}
