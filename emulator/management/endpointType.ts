/**
 * How the emulator learns an endpoint's type. The management API v1 has no type field (the
 * service's newer API has `type: "QUEUE" | "LOAD_BALANCER"`), so a load-balancing endpoint is
 * created with a marker at the end of its name, the way the service marks flashboot endpoints with
 * a " -fb" suffix. The type is fixed at create: a later rename does not change it.
 */
export type EndpointType = "QUEUE" | "LOAD_BALANCER";

export const LOAD_BALANCER_NAME_SUFFIX = " -lb";

export function endpointTypeOfName(name: string): EndpointType {
  return name.endsWith(LOAD_BALANCER_NAME_SUFFIX) ? "LOAD_BALANCER" : "QUEUE";
}
