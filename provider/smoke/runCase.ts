/**
 * Runs one queue-based smoke-test case: submit through /runsync (which answers as soon as the job
 * finishes), and if the job outlives the sync window, long-poll /status-sync until it finishes or
 * the case's own time limit passes. Never busy-polls. A case that runs out of time is cancelled so
 * it does not hold a worker after the deploy has moved on.
 */
import type { JobApiClient, JobRecord } from "../../client/jobs";
import { DEFAULT_CASE_TIMEOUT_SECONDS, type QueueCase } from "./caseSchema";
import { unmetExpectations } from "./expectations";

export interface CaseResult {
  /** The case's name. */
  name: string;
  /** The job the case submitted (job cases). */
  jobId?: string;
  /** The request the case sent, e.g. "GET /ping" (HTTP cases on load-balancing endpoints). */
  target?: string;
  /** The job's last known status, or "HTTP <code>" for an HTTP case ("NO_ANSWER" when none came). */
  status: string;
  /** The HTTP status the worker answered (HTTP cases). */
  httpStatus?: number;
  /** The worker that answered (HTTP cases): its X-Service-Worker-Id. */
  workerId?: string;
  /** The job's output (absent for failed jobs), or the answer's body (JSON when it is JSON, else text). */
  output?: unknown;
  /** The job's error text, for FAILED jobs. */
  error?: string;
  /** Milliseconds the job waited in the queue, as the service reports it. */
  delayTime?: number;
  /** Milliseconds the job ran, as the service reports it; for HTTP cases, the request's round trip. */
  executionTime?: number;
  /** Whether every expectation held. */
  passed: boolean;
  /** What did not hold, in words; empty when passed. */
  problems: string[];
}

const FINAL = new Set(["COMPLETED", "FAILED", "TIMED_OUT", "CANCELLED"]);
const MIN_WAIT_MS = 1_000;
const MAX_WAIT_MS = 300_000;

const clampWait = (ms: number): number => Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.ceil(ms)));

export async function runQueueCase(
  client: JobApiClient,
  endpointId: string,
  testCase: QueueCase,
  now: () => number = Date.now,
): Promise<CaseResult> {
  const budgetMs = (testCase.timeoutSeconds ?? DEFAULT_CASE_TIMEOUT_SECONDS) * 1000;
  const deadline = now() + budgetMs;
  let record: JobRecord = await client.runSync(
    endpointId,
    { input: testCase.input, ...(testCase.policy ? { policy: testCase.policy } : {}) },
    { waitMs: clampWait(budgetMs) }, // the whole budget: /runsync answers as soon as the job is done
  );
  while (!FINAL.has(record.status) && now() < deadline) {
    record = await client.statusSync(endpointId, record.id, { waitMs: clampWait(deadline - now()) });
  }
  if (!FINAL.has(record.status)) {
    await client.cancel(endpointId, record.id).catch(() => undefined); // best effort: the verdict stands either way
    return toResult(testCase, record, [
      `did not finish within timeoutSeconds=${testCase.timeoutSeconds ?? DEFAULT_CASE_TIMEOUT_SECONDS} (last status ${record.status}); the job was cancelled`,
    ]);
  }
  return toResult(testCase, record, unmetExpectations(record, testCase.expect));
}

function toResult(testCase: QueueCase, record: JobRecord, problems: string[]): CaseResult {
  return {
    name: testCase.name,
    jobId: record.id,
    status: record.status,
    ...(record.output !== undefined ? { output: record.output } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.delayTime !== undefined ? { delayTime: record.delayTime } : {}),
    ...(record.executionTime !== undefined ? { executionTime: record.executionTime } : {}),
    passed: problems.length === 0,
    problems,
  };
}
