/**
 * Long polls (/runsync, /status-sync, /stream, /openai/*): park the request until the job reaches the
 * state the caller waits for, the wait window passes (service time), the client goes away, or the
 * service closes. No polling loop: the job wakes its waiters when it changes.
 */
import type { ServerResponse } from "node:http";
import type { Job } from "./job";
import { Task, type Scheduler } from "./scheduler";

export class LongPolls {
  private readonly active = new Set<() => void>();

  constructor(private readonly sched: Scheduler) {}

  /** Resolves when `ready(job)` holds, the job is deleted, `waitMs` passes or `res` closes. */
  wait(job: Job, waitMs: number, ready: (job: Job) => boolean, res: ServerResponse): Promise<void> {
    if (job.gone || ready(job) || waitMs <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        this.sched.clear(timer);
        res.off("close", finish);
        this.active.delete(finish);
        // A poll that timed out or whose client left lets go of its response: a job polled often
        // while it stays queued would otherwise hold every earlier poll until it changes.
        const at = job.waiters?.indexOf(check) ?? -1;
        if (at >= 0) job.waiters?.splice(at, 1);
        resolve();
      };
      const check = (): void => {
        if (done) return;
        if (job.gone || ready(job)) finish();
        else waitForChange();
      };
      const waitForChange = (): void => {
        job.waiters ??= [];
        job.waiters.push(check);
      };
      const timer = new Task(finish);
      waitForChange();
      this.sched.in(timer, waitMs);
      res.on("close", finish);
      this.active.add(finish);
    });
  }

  /** Releases every parked request (service shutdown): each answers with the job's current state. */
  releaseAll(): void {
    for (const finish of [...this.active]) finish();
  }
}
