/**
 * One worker of a load-balancing endpoint: an in-process Node HTTP server on an ephemeral
 * 127.0.0.1 port running the endpoint's request listener (built-in echo or a user module).
 *
 *   initializing (cold start, then until its first health check answers 200)
 *     -> healthy <-> unhealthy (each health check: 200 = healthy, anything else = unhealthy)
 *     -> stopped (idle timeout above workersMin, rolling release, workersMax lowered, deletion)
 *   A start failure (bad module, bad PORT env) stops it at once; it stays listed as unhealthy.
 *
 * Health checks go over TCP to HEALTH_CHECK_PATH on the health listener (the main server when
 * PORT_HEALTH equals PORT, else a second listener running the same listener), every
 * lbHealthCheckIntervalMs of service time, one at a time. Proxied requests reach the main server
 * through an undici Pool (keep-alive, no retries) whose connections are in-memory stream pairs
 * handed to that same server (see memoryConnect.ts). Its deadlines (boot, health check, idle) are
 * reusable scheduler tasks.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import type { Clock } from "../../clock";
import type { EndpointSpec, Placement, WorkerView } from "../contract";
import type { ResolvedOptions } from "../options";
import { type Scheduler, Task } from "../scheduler";
import { memoryConnector } from "./memoryConnect";
import type { LbListener, LbServerSource } from "./serverModule";
import { lbWorkerEnv, type LbWorkerEnv } from "./workerEnv";

export type LbWorkerState = "initializing" | "healthy" | "unhealthy" | "stopped";

/** What a load-balancing worker needs from its endpoint: time, settings, and a callback per transition. */
export interface LbWorkerHost {
  readonly clock: Clock;
  readonly sched: Scheduler;
  readonly opts: ResolvedOptions;
  /** The endpoint's current spec (idle timeout, workersMin). */
  readonly spec: EndpointSpec;
  /** Its health check answered 200 (first time, or again after failing). */
  workerHealthy(w: LbWorker): void;
  workerUnhealthy(w: LbWorker): void;
  /** It has no request in flight (it may be stopped now if it belongs to an older release). */
  workerIdle(w: LbWorker): void;
  /** It stopped (`w.startError` set when it could not start); `was` is its state before. */
  workerStopped(w: LbWorker, was: LbWorkerState): void;
  /** May this worker stop now its idle timeout passed? */
  mayStopIdle(w: LbWorker): boolean;
}

/** Below this a local HTTP round trip is not reliably possible, whatever the time scale. */
const MIN_REAL_TIMEOUT_MS = 1000;
/** Longer than undici's keep-alive, so the client side is the one that closes idle sockets. */
const SERVER_KEEP_ALIVE_MS = 65_000;

function message(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === "string" ? err : String(err);
}

let started = 0;

export class LbWorker {
  /** Start order, for stable routing ties (the worker started first wins). */
  readonly seq = started++;
  state: LbWorkerState = "initializing";
  /** Proxied requests on this worker now. */
  inFlight = 0;
  readonly createdAt: number;
  stoppedAt = 0;
  idleSince = 0;
  /** Set when the worker could not start; it is then stopped and listed as unhealthy. */
  startError: string | undefined = undefined;
  /** The last failure of the user's listener (a throw), for the 502 of the request it broke. */
  lastFailure: string | undefined = undefined;
  /** Where proxied requests go (set once the server listens). */
  pool: Pool | undefined = undefined;
  /** The main server's TCP port (ephemeral; PORT from the env is only recorded in `env`). */
  port = 0;
  env: LbWorkerEnv | undefined = undefined;
  private healthPool: Pool | undefined = undefined;
  private readonly servers: http.Server[] = [];
  private readonly bootTask = new Task(() => this.boot());
  private readonly healthTask = new Task(() => void this.check());
  private readonly idleTask = new Task(() => this.idleCheck());

  constructor(
    readonly id: string,
    private readonly host: LbWorkerHost,
    readonly placement: Placement,
    /** The endpoint as it was when this worker started (its version, env and image). */
    readonly spec: EndpointSpec,
    private readonly source: LbServerSource,
  ) {
    this.createdAt = host.clock.now();
    host.sched.in(this.bootTask, host.opts.coldStartMs);
  }

  get version(): number {
    return this.spec.version;
  }

  view(): WorkerView {
    const status =
      this.state === "healthy" ? (this.inFlight > 0 ? "running" : "idle") : this.state === "initializing" ? "initializing" : "unhealthy";
    return {
      id: this.id,
      status,
      gpuTypeId: this.placement.gpuTypeId,
      dataCenterId: this.placement.dataCenterId,
      costPerHr: this.placement.costPerHr,
      createdAtMs: this.createdAt,
      version: this.version,
    };
  }

  // --- requests --------------------------------------------------------------------------------

  requestStarted(): void {
    this.inFlight++;
  }

  requestEnded(): void {
    this.inFlight--;
    if (this.inFlight === 0 && this.state !== "stopped") this.becomeIdle();
  }

  /** Takes the last listener failure (consumed by the one 502 that reports it). */
  takeFailure(): string | undefined {
    const f = this.lastFailure;
    this.lastFailure = undefined;
    return f;
  }

  // --- lifecycle -------------------------------------------------------------------------------

  private boot(): void {
    if (this.state !== "initializing") return;
    let env: LbWorkerEnv;
    let listener: LbListener;
    try {
      env = lbWorkerEnv(this.spec.env);
      listener = this.source.load();
    } catch (err) {
      this.failStart(message(err));
      return;
    }
    this.env = env;
    const guarded = this.guard(listener);
    const main = this.serve(guarded);
    const health = env.portHealth === env.port ? main : this.serve(guarded);
    void Promise.all([listen(main), health === main ? undefined : listen(health)]).then(
      () => {
        if (this.state === "stopped") return;
        this.port = portOf(main);
        // No retries anywhere: undici's Pool never re-sends a request that reached the worker.
        this.pool = new Pool(`http://127.0.0.1:${this.port}`, { pipelining: 1, connect: memoryConnector(main, this.port) });
        this.healthPool = new Pool(`http://127.0.0.1:${portOf(health)}`, { pipelining: 1, connections: 1 });
        void this.check();
      },
      (err: unknown) => this.failStart(`the worker's HTTP server could not listen: ${message(err)}`),
    );
  }

  private serve(listener: http.RequestListener): http.Server {
    const server = http.createServer(listener);
    server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
    server.headersTimeout = SERVER_KEEP_ALIVE_MS + 1000;
    this.servers.push(server);
    return server;
  }

  /**
   * Runs the user's listener so that a throw (or a rejected promise) breaks only the request it
   * was handling: the socket is destroyed, which the proxy answers with a 502, as the service does
   * when a worker's server fails. Without this a throw would be an uncaught exception.
   */
  private guard(listener: LbListener): http.RequestListener {
    return (req, res) => {
      const fail = (err: unknown): void => {
        // A throw after the answer was complete breaks nothing the caller can see.
        if (res.writableEnded) return;
        this.lastFailure = `its server threw: ${message(err)}`;
        res.destroy();
      };
      try {
        const r = listener(req, res);
        if (r !== null && typeof r === "object" && typeof (r as { then?: unknown }).then === "function") {
          (r as PromiseLike<unknown>).then(undefined, fail);
        }
      } catch (err) {
        fail(err);
      }
    };
  }

  /** One health check; the next one is scheduled when it is done. */
  private async check(): Promise<void> {
    const pool = this.healthPool;
    const env = this.env;
    if (this.state === "stopped" || !pool || !env) return;
    const timeout = Math.max(MIN_REAL_TIMEOUT_MS, this.host.clock.scaled(this.host.opts.lbHealthCheckTimeoutMs));
    let ok = false;
    try {
      const r = await pool.request({ method: "GET", path: env.healthCheckPath, headersTimeout: timeout, bodyTimeout: timeout });
      await r.body.dump();
      ok = r.statusCode === 200;
    } catch {
      ok = false;
    }
    // The worker may have been stopped while the check was in flight (TS cannot see that).
    if ((this.state as LbWorkerState) === "stopped") return;
    if (ok && this.state !== "healthy") {
      this.state = "healthy";
      this.host.workerHealthy(this);
      if (this.inFlight === 0) this.becomeIdle();
    } else if (!ok && this.state === "healthy") {
      this.state = "unhealthy";
      this.host.workerUnhealthy(this);
    }
    this.host.sched.in(this.healthTask, this.host.opts.lbHealthCheckIntervalMs);
  }

  private becomeIdle(): void {
    const now = this.host.clock.now();
    this.idleSince = now;
    if (!this.idleTask.scheduled) this.host.sched.set(this.idleTask, now + this.host.spec.idleTimeout * 1000);
    this.host.workerIdle(this);
  }

  private idleCheck(): void {
    if (this.state === "stopped" || this.state === "initializing" || this.inFlight > 0) return;
    const idleMs = this.host.spec.idleTimeout * 1000;
    const due = this.idleSince + idleMs;
    const now = this.host.clock.now();
    if (now < due) {
      this.host.sched.set(this.idleTask, due);
      return;
    }
    if (this.host.mayStopIdle(this)) this.stop();
    // Kept (at workersMin): look again one idle period later, in case the floor changes.
    else this.host.sched.set(this.idleTask, now + Math.max(1000, idleMs));
  }

  private failStart(error: string): void {
    if (this.state === "stopped") return;
    this.startError = error;
    this.stop();
  }

  /** Stops the worker for good; requests still in flight on it are cut (their callers get a 502). */
  stop(): void {
    if (this.state === "stopped") return;
    const was = this.state;
    this.state = "stopped";
    this.stoppedAt = this.host.clock.now();
    this.host.sched.clear(this.bootTask);
    this.host.sched.clear(this.healthTask);
    this.host.sched.clear(this.idleTask);
    for (const p of [this.pool, this.healthPool]) void p?.destroy().catch(() => undefined);
    for (const s of this.servers) {
      s.close();
      s.closeAllConnections();
    }
    this.host.workerStopped(this, was);
  }
}

function listen(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function portOf(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}
