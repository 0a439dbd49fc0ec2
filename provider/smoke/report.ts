/** Turns failed smoke-test cases into the one message that fails `pulumi up`. */
import { excerpt } from "./expectations";
import type { CaseResult } from "../../model/components/caseResult";

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
