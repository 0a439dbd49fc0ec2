/**
 * Worker processes the emulator starts itself: when an endpoint's image maps to a command
 * (`--worker IMAGE="python3 handler.py"`), the scaler starts that command as a worker instead of a
 * simulated one, with the environment the platform gives a worker, and stops it when it is scaled
 * down, replaced by a release, or the endpoint is deleted. The process then pulls its jobs like
 * any external worker. Each process's stdout and stderr go to its own log file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, type WriteStream } from "node:fs";
import { join, resolve } from "node:path";
import type { Clock } from "../../clock";
import type { EndpointSpec, Placement, ServerlessDeps, WorkerLog, WorkerView } from "../contract";
import type { Job } from "../job";
import type { LogRing } from "../../logs/logRing";
import type { ResolvedOptions } from "../options";
import { desiredWorkers } from "../scaler";
import { Task, type Scheduler } from "../scheduler";
import type { ExternalWorkers } from "./pool";
import { LOST_REAL_MIN_MS, withRealFloor } from "./timing";
import { workerEnvironment } from "./workerEnv";

/** Where our Python worker loop (workers/python/worker_loop.py) is, from the sources or from dist/. */
function findPythonLoopDir(): string {
  for (const up of ["../../..", "../../../.."]) {
    const dir = resolve(__dirname, up, "workers/python");
    if (existsSync(join(dir, "worker_loop.py"))) return dir;
  }
  return resolve(__dirname, "../../../workers/python");
}

const PYTHON_LOOP_DIR = findPythonLoopDir();

export interface SpawnHost {
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  readonly spec: EndpointSpec;
  readonly deps: ServerlessDeps;
  readonly external: ExternalWorkers;
  newWorkerId(): string;
  /** Logs of every worker process started by the service, running or not. */
  readonly workerLogs: WorkerLog[];
  /** The shell command that runs a worker of this image, if any. */
  commandFor(imageName: string): string | undefined;
  /** Dispatch and rescale soon. */
  kick(): void;
  /** A worker's log (workerLogBook.ts): the process's output goes there too, line by line. */
  logOf(workerId: string): LogRing;
  /** The worker is gone: `line` (if any) ends its log, which is kept a while. */
  logStopped(workerId: string, line?: string): void;
}

/** What the queue looks like, for the scaling rule. */
export interface QueueState {
  queued: number;
  oldestQueued: Job | undefined;
  running: number;
}

/** Real ms between SIGTERM and SIGKILL when a worker is stopped. */
const KILL_GRACE_MS = 2000;

interface Proc {
  id: string;
  child: ChildProcess;
  placement: Placement;
  version: number;
  startedAt: number;
  log: WorkerLog;
  stopping: boolean;
  /** Its usage was reported (at exit, or at shutdown before the exit is seen). */
  billed: boolean;
}

export class SpawnedWorkers {
  private readonly procs = new Map<string, Proc>();
  private readonly checkTask = new Task(() => this.check());
  /** No new process before this service time (after a crash, or while the job API has no URL yet). */
  private holdUntil = 0;
  private closed = false;

  constructor(private readonly host: SpawnHost) {}

  /** Processes started but not yet heard from. */
  get initializing(): number {
    let n = 0;
    for (const p of this.procs.values()) if (!this.host.external.get(p.id)) n++;
    return n;
  }

  /** The processes as the management side lists workers (initializing until heard from). */
  views(): WorkerView[] {
    const out: WorkerView[] = [];
    for (const p of this.procs.values()) {
      out.push({
        id: p.id,
        status: this.host.external.get(p.id)?.status ?? "initializing",
        gpuTypeId: p.placement.gpuTypeId,
        dataCenterId: p.placement.dataCenterId,
        costPerHr: p.placement.costPerHr,
        createdAtMs: p.startedAt,
        version: p.version,
      });
    }
    return out;
  }

  /** Starts processes up to what the scaling rule wants (nothing when the image has no command). */
  scale(q: QueueState): void {
    if (this.closed) return;
    const command = this.host.commandFor(this.host.spec.imageName);
    if (command === undefined) return;
    const now = this.host.clock.now();
    let idle = 0;
    for (const p of this.procs.values()) if (this.host.external.get(p.id)?.status === "idle") idle++;
    const d = desiredWorkers({
      spec: this.host.spec,
      now,
      live: this.procs.size,
      idle,
      initializing: this.initializing,
      running: q.running,
      queued: q.queued,
      oldestQueued: q.oldestQueued,
    });
    let missing = d.want - this.procs.size;
    if (missing > 0 && now < this.holdUntil) {
      this.recheck(this.holdUntil);
      return;
    }
    while (missing > 0) {
      if (!this.start(command)) break;
      missing--;
    }
    if (d.recheckAt !== undefined) this.recheck(d.recheckAt);
    if (this.procs.size > 0) this.recheck(now + this.checkEveryMs());
  }

  /** Stops every process at once (endpoint deleted, service shutdown). */
  shutdown(): void {
    this.closed = true;
    this.host.sched.clear(this.checkTask);
    const now = this.host.clock.now();
    for (const p of this.procs.values()) {
      this.kill(p, "SIGKILL");
      // Billed now: the exit is seen only after the service (and its billing) has closed.
      this.bill(p, now);
    }
  }

  // --- internals -----------------------------------------------------------------------------

  private start(command: string): boolean {
    const spec = this.host.spec;
    const access = this.host.deps.workerAccess?.(spec.accountId);
    if (!access) {
      // The job API is not listening yet: try again in a moment.
      this.holdUntil = this.host.clock.now() + withRealFloor(this.host.clock, 0, 100);
      this.recheck(this.holdUntil);
      return false;
    }
    const placement = this.host.deps.place(spec);
    if ("error" in placement) {
      this.holdUntil = this.host.clock.now() + this.host.opts.throttleRetryMs;
      this.recheck(this.holdUntil);
      return false;
    }
    const id = this.host.newWorkerId();
    const opts = this.host.opts;
    const lostRealMs = this.host.clock.scaled(withRealFloor(this.host.clock, opts.workerLostMs, LOST_REAL_MIN_MS));
    const env = {
      ...process.env,
      ...(this.host.deps.bootEnv?.(spec.accountId, spec.env) ?? spec.env),
      ...workerEnvironment({
        prefix: opts.workerEnvPrefix,
        serverlessUrl: access.serverlessUrl,
        endpointId: spec.id,
        workerId: id,
        apiKey: access.apiKey,
        gpu: placement.gpuTypeId ?? placement.cpuFlavorId ?? "CPU",
        // Three pings within the window that counts a silent worker lost; at most every 10 s.
        pingIntervalMs: Math.min(10_000, lostRealMs / 3),
      }),
      // Our worker loop is importable as `worker_loop`.
      PYTHONPATH: [PYTHON_LOOP_DIR, process.env["PYTHONPATH"]].filter(Boolean).join(":"),
      PYTHONUNBUFFERED: "1",
    };
    mkdirSync(opts.workerLogDir, { recursive: true });
    const path = join(opts.workerLogDir, `${spec.id}-${id}.log`);
    const file = createWriteStream(path, { flags: "a" });
    // `exec` makes the command the process itself, so a signal to its group reaches it.
    const child = spawn("/bin/sh", ["-c", `exec ${command}`], {
      env,
      cwd: opts.workerCwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const log: WorkerLog = { accountId: spec.accountId, endpointId: spec.id, workerId: id, path, running: true };
    const p: Proc = { id, child, placement, version: spec.version, startedAt: this.host.clock.now(), log, stopping: false, billed: false };
    this.procs.set(id, p);
    this.host.workerLogs.push(log);
    this.host.logOf(id).write("system", `worker ${id} process started for image ${spec.imageName}`);
    this.pipe(child, file, id);
    child.on("error", (err) => file.write(`[emulator] could not start ${JSON.stringify(command)}: ${err.message}\n`));
    child.on("exit", (code, signal) => this.exited(p, file, code, signal));
    return true;
  }

  private pipe(child: ChildProcess, file: WriteStream, id: string): void {
    const echo = this.host.opts.echoWorkerLogs;
    const prefix = `[worker ${this.host.spec.id}/${id}] `;
    const log = this.host.logOf(id);
    const forward = (stream: NodeJS.ReadableStream | null): void => {
      // Whole lines only, in the log and on the emulator's stderr: a chunk may end mid-line.
      let partial = "";
      stream?.on("data", (chunk: Buffer) => {
        file.write(chunk);
        const lines = (partial + chunk.toString()).split("\n");
        partial = lines.pop() ?? "";
        if (lines.length === 0) return;
        log.write("container", lines.join("\n"));
        if (echo) process.stderr.write(lines.map((l) => `${prefix}${l}\n`).join(""));
      });
      stream?.on("end", () => {
        if (partial === "") return;
        log.write("container", partial);
        if (echo) process.stderr.write(`${prefix}${partial}\n`);
      });
    };
    forward(child.stdout);
    forward(child.stderr);
  }

  private exited(p: Proc, file: WriteStream, code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal !== null ? `signal ${signal}` : `code ${String(code)}`;
    file.end(`[emulator] worker ${p.id} exited with ${how}\n`);
    this.host.logStopped(p.id, `worker ${p.id} process exited with ${how}`);
    p.log.running = false;
    this.procs.delete(p.id);
    const now = this.host.clock.now();
    this.bill(p, now);
    this.host.external.gone(p.id, `worker ${p.id} exited with ${how} while it held the job (log: ${p.log.path})`);
    if (!p.stopping && !this.closed) {
      // A crash: wait before starting another, so a broken command does not restart in a loop.
      this.holdUntil = now + withRealFloor(this.host.clock, this.host.opts.throttleRetryMs, 1000);
      this.recheck(this.holdUntil);
    }
  }

  /** Reports the process's time for billing, once. */
  private bill(p: Proc, now: number): void {
    if (p.billed) return;
    p.billed = true;
    const spec = this.host.spec;
    this.host.deps.recordWorkerUsage({
      accountId: spec.accountId,
      endpointId: spec.id,
      workerId: p.id,
      templateId: spec.templateId,
      imageName: spec.imageName,
      gpuTypeId: p.placement.gpuTypeId,
      dataCenterId: p.placement.dataCenterId,
      costPerHr: p.placement.costPerHr,
      startMs: p.startedAt,
      endMs: now,
    });
  }

  private kill(p: Proc, signal: NodeJS.Signals): void {
    p.stopping = true;
    const pid = p.child.pid;
    if (pid === undefined || p.child.exitCode !== null || p.child.signalCode !== null) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  }

  private stop(p: Proc): void {
    if (p.stopping) return;
    this.kill(p, "SIGTERM");
    this.host.external.gone(p.id, `worker ${p.id} was stopped`);
    setTimeout(() => this.kill(p, "SIGKILL"), KILL_GRACE_MS).unref();
  }

  /** Half the idle timeout, kept within 0.2..1 s real (a recycled worker is noticed within a second). */
  private checkEveryMs(): number {
    const clock = this.host.clock;
    const real = Math.min(1000, Math.max(200, clock.scaled((this.host.spec.idleTimeout * 1000) / 2)));
    return real / clock.timeScale;
  }

  private recheck(at: number): void {
    if (!this.checkTask.scheduled || this.checkTask.at > at) this.host.sched.set(this.checkTask, at);
  }

  /** Stops idle processes that are stale, asked to be recycled, above workersMax, or idle too long. */
  private check(): void {
    if (this.closed) return;
    const spec = this.host.spec;
    const now = this.host.clock.now();
    let live = this.procs.size;
    for (const p of [...this.procs.values()]) {
      if (p.stopping) continue;
      const w = this.host.external.get(p.id);
      const idle = w === undefined ? p.version !== spec.version : w.status === "idle";
      if (!idle) continue;
      const idleFor = w ? now - Math.max(w.idleSince, p.startedAt) : 0;
      const stale = p.version !== spec.version || w?.retire === true || live > spec.workersMax;
      if (stale || (idleFor >= spec.idleTimeout * 1000 && live > spec.workersMin)) {
        this.stop(p);
        live--;
      }
    }
    // A stopped worker may need replacing; scaling also schedules the next check.
    this.host.kick();
  }
}
