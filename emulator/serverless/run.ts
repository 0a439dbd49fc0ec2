/**
 * One run of one job on one worker: the RunContext a handler talks to. Everything it reports goes
 * through the worker, and only while the run is active, so a handler that finishes after a cancel,
 * timeout or TTL expiry changes nothing.
 */
import type { Job } from "./job";
import type { RunContext } from "./handlers/types";
import type { S3Config } from "./schemas";

/** What a run needs from its worker. */
export interface RunHost {
  now(): number;
  step(serviceMs: number, fn: () => void): void;
  sleep(serviceMs: number): Promise<void>;
  progress(run: Run, output: unknown): void;
  chunk(run: Run, output: unknown): void;
  finish(run: Run, status: "COMPLETED" | "FAILED", output: unknown, error: string | undefined): void;
  crash(run: Run, message: string): void;
  log(text: string): void;
}

export class Run implements RunContext {
  active = true;
  private stops: (() => void)[] | undefined = undefined;

  constructor(
    private readonly host: RunHost,
    readonly job: Job,
  ) {}

  get id(): string {
    return this.job.id;
  }
  get input(): Record<string, unknown> {
    return this.job.input;
  }
  get s3Config(): S3Config | undefined {
    return this.job.s3Config;
  }

  progress(output: unknown): void {
    if (this.active) this.host.progress(this, output);
  }
  chunk(output: unknown): void {
    if (this.active) this.host.chunk(this, output);
  }
  complete(output: unknown): void {
    if (this.active) this.host.finish(this, "COMPLETED", output, undefined);
  }
  fail(message: string): void {
    if (this.active) this.host.finish(this, "FAILED", undefined, message);
  }
  crash(message: string): void {
    if (this.active) this.host.crash(this, message);
  }
  after(serviceMs: number, fn: () => void): void {
    if (!this.active) return;
    if (serviceMs <= 0) fn();
    else this.host.step(serviceMs, fn);
  }
  now(): number {
    return this.host.now();
  }
  sleep(serviceMs: number): Promise<void> {
    return this.host.sleep(serviceMs);
  }
  log(text: string): void {
    if (this.active) this.host.log(text);
  }
  onStop(fn: () => void): void {
    this.stops ??= [];
    this.stops.push(fn);
  }

  /** Ends the run; `stopped` tells the handler it was stopped from outside. */
  end(stopped: boolean): void {
    if (!this.active) return;
    this.active = false;
    const stops = this.stops;
    this.stops = undefined;
    if (stopped && stops) {
      for (const fn of stops) {
        try {
          fn();
        } catch {
          // A handler's stop hook failing must not break the worker.
        }
      }
    }
  }
}
