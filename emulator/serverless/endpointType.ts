/**
 * Which kind of endpoint the job side serves: queue-based (/run, /runsync, ...) or load-balancing
 * (every request proxied to a worker's own HTTP server). The management side decides the type when
 * the endpoint is created (see emulator/management/endpointType.ts) and hands it over in the spec.
 */
import type { EndpointSpec } from "./contract";

export type EndpointType = "QUEUE" | "LOAD_BALANCER";

export function endpointType(spec: EndpointSpec): EndpointType {
  return spec.type;
}
