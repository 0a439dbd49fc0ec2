/**
 * Which kind of endpoint the job side serves: queue-based (/run, /runsync, ...) or load-balancing
 * (every request proxied to a worker's own HTTP server).
 *
 * Why a function and not just `spec.type`: the management API (v1) has no field for the endpoint
 * type, so the provider cannot send it on EndpointCreateInput, and that input has no env either.
 * The agreed carrier is the endpoint's serverless TEMPLATE env key `GPUCLOUD_ENDPOINT_TYPE`
 * ("LOAD_BALANCER" | "QUEUE"), which reaches us in `spec.env` (template env overlaid by endpoint
 * env). The management side may one day fill `spec.type` itself; an explicit LOAD_BALANCER there
 * wins. This is the only place that rule lives.
 */
import type { EndpointSpec } from "./contract";

export type EndpointType = "QUEUE" | "LOAD_BALANCER";

/** The env key of the serverless template that carries the endpoint type. */
export const ENDPOINT_TYPE_ENV = "GPUCLOUD_ENDPOINT_TYPE";

export function endpointType(spec: EndpointSpec): EndpointType {
  if (spec.type === "LOAD_BALANCER") return "LOAD_BALANCER";
  return spec.env[ENDPOINT_TYPE_ENV] === "LOAD_BALANCER" ? "LOAD_BALANCER" : "QUEUE";
}
