/**
 * Keeps each run of an inline program on connections of its own.
 *
 * The automation API runs every inline program in this process, and for each run the runtime opens
 * new gRPC clients to that run's engine and resource monitor, which it never closes. grpc-js gives
 * all the clients of a process one connection per address (its global subchannel pool). A failed
 * `up` leaves its run waiting forever, and that run's client keeps reconnecting to the address of
 * the engine that went away: refused, it backs off (up to two minutes) and tries again, for as long
 * as the channel lives (30 minutes idle). When a later engine listens on that same port, which the
 * kernel hands out again, the later run's client is given that connection during its backoff, and
 * its first calls fail at once with UNAVAILABLE. The run then ends before the program is called,
 * and the language host reports that as a success (it does so for UNAVAILABLE and CANCELLED), so the
 * engine takes every resource of the stack for undeclared: a preview plans deleting them all and
 * an up deletes them (or, when the failure lands elsewhere, the up fails with "14 UNAVAILABLE").
 *
 * A pool per client keeps a run's connections its own. The runtime builds its clients from the
 * options object set here (`grpcClientOptions` of runtime/settings, internal to @pulumi/pulumi): a
 * copy of the runtime elsewhere (a project with its own node_modules) is not changed.
 */
import * as runtimeSettings from "@pulumi/pulumi/runtime/settings";

export const OWN_SUBCHANNEL_POOL = "grpc.use_local_subchannel_pool";

/** The options the runtime creates its engine and resource monitor clients with, if it has them. */
export function runtimeClientOptions(): Record<string, unknown> | undefined {
  return (runtimeSettings as unknown as { grpcClientOptions?: Record<string, unknown> }).grpcClientOptions;
}

/** Makes every client the runtime opens from now on use a connection pool of its own. */
export function keepRunConnectionsApart(): void {
  const options = runtimeClientOptions();
  if (options) options[OWN_SUBCHANNEL_POOL] = 1;
}
