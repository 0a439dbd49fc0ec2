// When a pod counts as ready. The service reports desiredStatus RUNNING before the pod has its
// network identity (NOTES section 1), so RUNNING alone is not enough: a running pod is ready once it
// has a public IP (when it gets one at all) and a port mapping for each tcp port it exposes.
// A pod the user asked to stop is ready once it reports EXITED. The wait itself is the provider's
// (provider/resources/podReadiness.ts).

import type { Pod } from "../../../client/schemas";
import type { PodArgs } from "./podFields";

/** Community pods without supportPublicIp: true may never get a public IP; do not wait for one. */
function expectsPublicIp(args: PodArgs): boolean {
  return !(args.cloudType === "COMMUNITY" && args.supportPublicIp !== true);
}

/** The pod's state: v2's `status` (PROVISIONING, STARTING, ...) where reported, else v1's desiredStatus. */
export function stateOf(pod: Pod): string {
  const status = (pod as { status?: unknown }).status;
  return typeof status === "string" ? status : (pod.desiredStatus ?? "unknown");
}

export function podPendingState(args: PodArgs, pod: Pod): string | undefined {
  const desired = args.desiredStatus ?? "RUNNING";
  const status = stateOf(pod);
  if (desired === "EXITED") return status === "EXITED" ? undefined : `status ${status}, stopping`;
  if (status !== "RUNNING") return `status ${status}`;
  const v2 = typeof (pod as { status?: unknown }).status === "string";
  // v2: a globalNetworking change takes effect at the next start/restart (the update restarts the pod).
  if (v2 && args.globalNetworking !== undefined && pod.globalNetworking !== undefined && pod.globalNetworking !== args.globalNetworking) {
    return `RUNNING, global networking ${args.globalNetworking ? "on" : "off"} not in effect yet`;
  }
  if (!expectsPublicIp(args)) return undefined;
  const ports = args.ports ?? pod.ports ?? [];
  // v2 reports addresses per exposed port (runtime.ports) and http ports only through the shared
  // proxy: a pod without a tcp port has no public address to wait for.
  if (v2 && mappedPorts(ports).length === 0) return undefined;
  if (!pod.publicIp) return "RUNNING, no public IP yet";
  const unmapped = mappedPorts(ports).filter((port) => pod.portMappings?.[port] === undefined);
  if (unmapped.length > 0) return `RUNNING, no port mapping yet for ${unmapped.map((port) => `${port}/tcp`).join(", ")}`;
  return undefined;
}

/**
 * The internal ports that get a public port mapping: the tcp ones. The service proxies http ports
 * through its own host names and never maps them, so waiting for those would wait forever.
 */
function mappedPorts(ports: readonly string[]): string[] {
  return ports.flatMap((spec) => {
    const [port, protocol] = spec.split("/");
    return protocol?.trim().toLowerCase() === "tcp" && port ? [port.trim()] : [];
  });
}

export function podGoal(args: PodArgs): string {
  if ((args.desiredStatus ?? "RUNNING") === "EXITED") return "stopped (EXITED)";
  return expectsPublicIp(args) ? "RUNNING with a public IP and a port mapping for each tcp port" : "RUNNING";
}
