/**
 * A FIFO of waiting jobs as an intrusive doubly linked list (the links live on the Job), so enqueue,
 * dequeue and removal of any job (cancel, purge, TTL expiry) are O(1) with no extra allocation.
 */
import type { Job } from "./job";

export class JobQueue {
  private head: Job | undefined = undefined;
  private tail: Job | undefined = undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get first(): Job | undefined {
    return this.head;
  }

  push(job: Job): void {
    job.prev = this.tail;
    job.next = undefined;
    if (this.tail) this.tail.next = job;
    else this.head = job;
    this.tail = job;
    this.count++;
  }

  shift(): Job | undefined {
    const job = this.head;
    if (job) this.remove(job);
    return job;
  }

  /** Exact for the queue a job belongs to (each job is only ever pushed to one queue). */
  has(job: Job): boolean {
    return this.head === job || job.prev !== undefined;
  }

  remove(job: Job): boolean {
    if (!this.has(job)) return false;
    if (job.prev) job.prev.next = job.next;
    else this.head = job.next;
    if (job.next) job.next.prev = job.prev;
    else this.tail = job.prev;
    job.prev = undefined;
    job.next = undefined;
    this.count--;
    return true;
  }

  *[Symbol.iterator](): IterableIterator<Job> {
    for (let j = this.head; j; ) {
      const next = j.next;
      yield j;
      j = next;
    }
  }
}
