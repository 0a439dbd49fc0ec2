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
  /** The endpoint's v2 `requestUrls.base`: HTTP cases go there when it is known. */
  requestBase?: string | undefined;
}

/**
 * The base URL a JobRunner's or a rollout switch's inputs name: `requestBase`, or, in state an
 * earlier release wrote, the `base` of the whole `requestUrls` map it recorded then.
 */
export function requestBaseOf(props: Readonly<Record<string, unknown>>): string | undefined {
  if (typeof props["requestBase"] === "string") return props["requestBase"];
  const urls = props["requestUrls"];
  const base = typeof urls === "object" && urls !== null ? (urls as Record<string, unknown>)["base"] : undefined;
  return typeof base === "string" ? base : undefined;
}

export function runCases(client: JobClient, target: CaseTarget, cases: readonly SmokeCase[]): Promise<CaseResult[]> {
  const endpoint: EndpointTarget = {
    id: target.id,
    requestUrls: target.requestBase === undefined ? undefined : { base: target.requestBase },
  };
  return Promise.all(cases.map((c) => (isHttpCase(c) ? runHttpCase(client, endpoint, c) : runQueueCase(client, target.id, c))));
}
