/**
 * GET /requests: the endpoint's most recent jobs, newest first, from a fixed-size ring of references
 * (no copies; a job deleted by TTL or retention drops out of the answer).
 *
 * Answer shape: {"requests": [{"id", "status", "origin": "run"|"runsync"|"openai", "lowPriority",
 * "submittedAt", "startedAt", "finishedAt" (ISO 8601 service time, null when not yet),
 * "delayTime"?, "executionTime"?, "workerId"?}]}.
 */
import { toRecord, type Job } from "./job";

export interface RequestEntry {
  id: string;
  status: string;
  origin: string;
  lowPriority: boolean;
  submittedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  delayTime?: number;
  executionTime?: number;
  workerId?: string;
}

const iso = (ms: number): string | null => (ms > 0 ? new Date(ms).toISOString() : null);

export class RequestsLog {
  /**
   * Made at the first job: an endpoint that never gets one (most, at any moment, in a large
   * account) then keeps no 100-slot array, a fifth of the memory each endpoint held.
   */
  private ring: (Job | undefined)[] | undefined;
  private next = 0;

  constructor(private readonly size: number) {}

  add(job: Job): void {
    this.ring ??= new Array<Job | undefined>(Math.max(1, this.size)).fill(undefined);
    const ring = this.ring;
    ring[this.next] = job;
    this.next = (this.next + 1) % ring.length;
  }

  /** The caller's recent jobs, newest first. */
  list(accountId: string, limit: number, now: number): RequestEntry[] {
    const out: RequestEntry[] = [];
    const ring = this.ring ?? [];
    const n = ring.length;
    for (let k = 1; k <= n && out.length < limit; k++) {
      const job = ring[(this.next - k + n) % n];
      if (!job || job.gone || job.accountId !== accountId) continue;
      const rec = toRecord(job, now);
      const e: RequestEntry = {
        id: job.id,
        status: job.status,
        origin: job.origin,
        lowPriority: job.lowPriority,
        submittedAt: iso(job.submittedAt) ?? "",
        startedAt: iso(job.startedAt),
        finishedAt: iso(job.finishedAt),
      };
      if (rec.delayTime !== undefined) e.delayTime = rec.delayTime;
      if (rec.executionTime !== undefined) e.executionTime = rec.executionTime;
      if (rec.workerId !== undefined) e.workerId = rec.workerId;
      out.push(e);
    }
    return out;
  }

  clear(): void {
    this.ring?.fill(undefined);
  }
}
