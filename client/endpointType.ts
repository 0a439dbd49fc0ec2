// An endpoint's type, QUEUE (jobs through /run and /runsync) or LOAD_BALANCER (requests proxied to
// the workers' own HTTP servers). The service's newer API has a `type` field; the v1 management API
// has none, so the type travels as a marker at the end of the endpoint's name, the way the service
// marks flashboot endpoints with " -fb". Only this file knows the marker: callers pass and read
// `type`, and never see it in a name. When the API carries the type natively, this is the one place
// to change.
//
// The platform has also been seen to append " -fb" to the names of FlashBoot endpoints by itself.
// Read back, that would be a rename on every update and would hide the endpoint from the lookup
// that resolves a lost create, so it is taken off here too, where every endpoint read passes.

export const ENDPOINT_TYPES = ["QUEUE", "LOAD_BALANCER"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

const LOAD_BALANCER_SUFFIX = " -lb";
const FLASHBOOT_SUFFIX = " -fb";

/** The marker a user-chosen name ends in (and would lose when read back), if any. */
export function nameMarkerOf(name: string): string | undefined {
  return [LOAD_BALANCER_SUFFIX, FLASHBOOT_SUFFIX].find((suffix) => name.endsWith(suffix));
}

/** The name to send for an endpoint of this type. */
export function encodeEndpointName(name: string, type: EndpointType): string {
  return type === "LOAD_BALANCER" ? `${name}${LOAD_BALANCER_SUFFIX}` : name;
}

/** A wire endpoint with the marker taken off its name and its type made explicit. */
export function decodeEndpointType(wire: Record<string, unknown>): Record<string, unknown> {
  const named =
    typeof wire["name"] === "string" && wire["name"].endsWith(FLASHBOOT_SUFFIX)
      ? { ...wire, name: wire["name"].slice(0, -FLASHBOOT_SUFFIX.length) }
      : wire;
  return decodeTypeMarker(named);
}

function decodeTypeMarker(wire: Record<string, unknown>): Record<string, unknown> {
  if (typeof wire["type"] === "string") return wire; // a service that reports the type natively
  const name = wire["name"];
  if (typeof name === "string" && name.endsWith(LOAD_BALANCER_SUFFIX)) {
    return { ...wire, name: name.slice(0, -LOAD_BALANCER_SUFFIX.length), type: "LOAD_BALANCER" };
  }
  return { ...wire, type: "QUEUE" };
}
