/**
 * Runs smoke-test cases against one endpoint, side by side (a deploy waits for the slowest case, not
 * the sum): job cases through the queue, HTTP cases to a load-balancing endpoint's workers.
 */
import type { EndpointTarget, JobClient } from "../../client/jobClient";
import { isHttpCase, type SmokeCase } from "./caseSchema";
import { runHttpCase } from "./runHttpCase";
import type { CaseResult } from "../../model/components/caseResult";
import { runQueueCase } from "./runCase";

export interface CaseTarget {
  id: string;
  /** The endpoint's v2 requestUrls; HTTP cases go to its `base` when there is one. */
  requestUrls?: Record<string, string> | undefined;
}

export function runCases(client: JobClient, target: CaseTarget, cases: readonly SmokeCase[]): Promise<CaseResult[]> {
  const endpoint: EndpointTarget = { id: target.id, requestUrls: target.requestUrls };
  return Promise.all(cases.map((c) => (isHttpCase(c) ? runHttpCase(client, endpoint, c) : runQueueCase(client, target.id, c))));
}
