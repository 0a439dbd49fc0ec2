/**
 * Rules an endpoint's settings must keep, checked on the endpoint as a create makes it or an update
 * leaves it. /v1 and /api/v2 share the workers rule (each words it in its own field names); the
 * scaling rule is the current API's, which /v1 never checked (and so are CUDA's and the compute's, compute.ts).
 */
import type { EndpointRecord } from "../../state/model";
import { invalid } from "../errors";

/** /v1 or /api/v2: where the two APIs differ, each endpoint command says which one it serves. */
export type EndpointRules = "v1" | "v2";

/** workers.min <= workers.max (v1 validates workersMin against workersMax the same way). */
export function checkWorkers(rules: EndpointRules, min: number, max: number): void {
  if (min <= max) return;
  throw rules === "v1"
    ? invalid("workersMin", `workersMin (${min}) must be <= workersMax (${max})`)
    : invalid("workers.min", `must be <= workers.max (${max}), got ${min}`);
}

/** idleTimeout does not apply to queue endpoints scaling on request count: omitted there. */
export function usesIdleTimeout(type: EndpointRecord["type"], scalerType: EndpointRecord["scalerType"]): boolean {
  return !(type === "QUEUE" && scalerType === "REQUEST_COUNT");
}

/**
 * Load-balancing endpoints scale on REQUEST_COUNT ("v2 rejects [QUEUE_DELAY on an LB endpoint]
 * (LB requires `REQUEST_COUNT`)", management-api-v2-today.md 6.1 #5); `idleTimeout` given where it
 * does not apply is refused rather than ignored.
 */
export function checkScaling(
  type: EndpointRecord["type"],
  scalerType: EndpointRecord["scalerType"],
  idleTimeout: number | undefined,
): void {
  if (type === "LOAD_BALANCER" && scalerType !== "REQUEST_COUNT") {
    throw invalid("scaling.type", "load-balancing endpoints scale on REQUEST_COUNT; QUEUE_DELAY is for queue endpoints only");
  }
  if (idleTimeout !== undefined && !usesIdleTimeout(type, scalerType)) {
    throw invalid("workers.idleTimeout", "does not apply to queue endpoints scaling on REQUEST_COUNT; leave it out");
  }
}
