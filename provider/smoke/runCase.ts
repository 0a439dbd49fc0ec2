/**
 * Runs one queue-based smoke-test case: submit through /runsync (which answers as soon as the job
 * finishes), and if the job outlives the sync window, long-poll /status-sync until it finishes or
 * the case's own time limit passes. Never busy-polls. A case that runs out of time is cancelled so
 * it does not hold a worker after the deploy has moved on.
 */
import { JobWaitTimeoutError, type JobClient, type JobRecord } from "../../client/jobClient";
import { DEFAULT_CASE_TIMEOUT_SECONDS, type QueueCase } from "./caseSchema";
import type { CaseResult } from "../../model/components/caseResult";
import { unmetExpectations } from "./expectations";

export async function runQueueCase(client: JobClient, endpointId: string, testCase: QueueCase): Promise<CaseResult> {
  const budgetMs = (testCase.timeoutSeconds ?? DEFAULT_CASE_TIMEOUT_SECONDS) * 1000;
  const job = { input: testCase.input, ...(testCase.policy ? { policy: testCase.policy } : {}) };
  try {
    // The whole budget as the /runsync wait too: /runsync answers as soon as the job is done.
    const record = await client.runSync(endpointId, job, { waitMs: budgetMs, timeoutMs: budgetMs });
    return toResult(testCase, record, unmetExpectations(record, testCase.expect));
  } catch (error) {
    if (!(error instanceof JobWaitTimeoutError)) throw error;
    await client.cancel(endpointId, error.jobId).catch(() => undefined); // best effort: the verdict stands either way
    return toResult(testCase, error.lastRecord ?? { id: error.jobId, status: error.lastStatus }, [
      `did not finish within timeoutSeconds=${testCase.timeoutSeconds ?? DEFAULT_CASE_TIMEOUT_SECONDS} (last status ${error.lastStatus}); the job was cancelled`,
    ]);
  }
}

function toResult(testCase: QueueCase, record: JobRecord, problems: string[]): CaseResult {
  return {
    name: testCase.name,
    jobId: record.id,
    status: record.status,
    ...(record.output !== undefined ? { output: record.output } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.workerId !== undefined ? { workerId: record.workerId } : {}),
    ...(record.delayTime !== undefined ? { delayTime: record.delayTime } : {}),
    ...(record.executionTime !== undefined ? { executionTime: record.executionTime } : {}),
    passed: problems.length === 0,
    problems,
  };
}
