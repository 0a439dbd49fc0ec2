/** Turns failed smoke-test cases into the one message that fails `pulumi up`, with the logs of the workers that failed them. */
import { excerpt } from "./expectations";
import type { CaseResult } from "../../model/components/caseResult";
import { type LogNoteReader, withLogNotes } from "../logNotes";

/** Workers whose last log lines a failure shows, at most (each read takes up to a few seconds). */
export const FAILED_WORKERS_SHOWN = 2;

export function failureMessage(endpointId: string, results: readonly CaseResult[]): string | undefined {
  const failed = results.filter((r) => !r.passed);
  if (failed.length === 0) return undefined;
  const lines = failed.map((r) => {
    const what = r.jobId !== undefined ? `job ${r.jobId} ended ${r.status}` : `${r.target ?? "request"} answered ${r.status}`;
    const parts = [`case "${r.name}": ${what}`, ...r.problems];
    if (r.error !== undefined) parts.push(`error: ${excerpt(r.error, 500)}`);
    if (r.output !== undefined) parts.push(`${r.jobId !== undefined ? "output" : "response"}: ${excerpt(r.output, 500)}`);
    return `  - ${parts.join("; ")}`;
  });
  return [`smoke tests failed on endpoint ${endpointId}: ${failed.length} of ${results.length} case(s) failed`, ...lines].join("\n");
}

/**
 * failureMessage, followed by the last lines of the log of each worker that ran a failed case (the
 * first FAILED_WORKERS_SHOWN of them) and how to read more; `read` undefined: the message alone.
 */
export async function failureReport(
  endpointId: string,
  results: readonly CaseResult[],
  read: LogNoteReader | undefined,
): Promise<string | undefined> {
  const message = failureMessage(endpointId, results);
  if (message === undefined) return undefined;
  const workers = [...new Set(results.flatMap((r) => (!r.passed && r.workerId !== undefined ? [r.workerId] : [])))];
  return withLogNotes(
    message,
    read,
    workers.slice(0, FAILED_WORKERS_SHOWN).map((workerId) => ({ endpointId, workerId })),
  );
}
