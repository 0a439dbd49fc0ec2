/**
 * The emulator's job side: the queue-based job API under /v2/<endpoint_id>/ and the simulated
 * workers behind it, and load-balancing endpoints (every request proxied to a worker's own HTTP
 * server, see lb/). The management side creates this with its deps (see contract.ts) and forwards
 * /v2 requests and endpoint changes to it.
 *
 * Time: every duration (cold starts, TTLs, retention, webhook gaps, idle timeouts, long-poll windows,
 * rate windows, handler delays) is in service time and runs through deps.clock; API units are the
 * service's own (ms for ttl/executionTimeout/wait, s for idleTimeout and Retry-After).
 */
import { randomBytes } from "node:crypto";
import type { EndpointSpec, ServerlessDeps, ServerlessService, WorkerView } from "./contract";
import { EndpointRuntime } from "./endpoint";
import { HandlerRegistry } from "./handlers/registry";
import { imageListed, lookupByImage } from "./images";
import { LbRuntime } from "./lb/lbRuntime";
import { LbServerRegistry } from "./lb/serverModule";
import { LongPolls } from "./longPoll";
import { resolveOptions, type ServerlessOptions } from "./options";
import { JobRouter } from "./api/router";
import { jobApiTable, jobFaultRoutes } from "./api/table";
import { Scheduler } from "./scheduler";
import type { ServiceEnv } from "./serviceEnv";
import { WebhookSender } from "./webhook";
import { WorkerLogBook } from "./workerLogBook";

export type { LimitedRoute, RouteLimit, ServerlessOptions } from "./options";
export { DEFAULT_LIMITS, DEFAULT_ALLOWANCE } from "./options";
export type { JobHandler, RunContext } from "./handlers/types";
export type { UserContext, UserJob } from "./handlers/userModule";
export type { LbListener } from "./lb/serverModule";
export type { WorkerLog } from "./contract";

export function createServerlessService(deps: ServerlessDeps, options: ServerlessOptions = {}): ServerlessService {
  const opts = resolveOptions(options);
  const clock = deps.clock;
  const sched = new Scheduler(clock);
  const webhooks = new WebhookSender(clock, sched, opts);
  const registry = new HandlerRegistry(opts.handlers);
  const lbServers = new LbServerRegistry(opts.handlers);
  const polls = new LongPolls(sched);
  const runtimes = new Map<string, EndpointRuntime | LbRuntime>();
  let closed = false;

  const env: ServiceEnv = {
    deps,
    clock,
    sched,
    opts,
    webhooks,
    handlerFor: (imageName) => registry.handlerFor(imageName),
    lbServerFor: (imageName) => lbServers.serverFor(imageName),
    // Short lowercase ids, like the service's worker ids.
    // An image the emulator starts workers for is served externally too.
    isExternalImage: (imageName) =>
      imageListed(opts.externalImages, imageName) || lookupByImage(opts.workerCommands, imageName) !== undefined,
    workerLogs: [],
    logs: new WorkerLogBook(clock),
    workerCommandFor: (imageName) => lookupByImage(opts.workerCommands, imageName),
    newWorkerId: () => randomBytes(8).readBigUInt64BE().toString(36).padStart(13, "0").slice(0, 13),
  };

  /**
   * The runtime for an endpoint, created on first sight; a newer version is a rolling release. The
   * type is fixed at create by the management side; a spec of the other type (a test harness can
   * send one) gets a new runtime of that kind, the old one dropped as if the endpoint were deleted.
   */
  function ensure(spec: EndpointSpec, known: EndpointRuntime | LbRuntime | undefined = runtimes.get(spec.id)): EndpointRuntime | LbRuntime {
    const lb = spec.type === "LOAD_BALANCER";
    let rt = known;
    if (rt && rt instanceof LbRuntime !== lb) {
      rt.deleted();
      rt = undefined;
    }
    if (!rt) {
      rt = lb ? new LbRuntime(env, spec) : new EndpointRuntime(env, spec);
      runtimes.set(spec.id, rt);
    } else if (rt.spec.version !== spec.version) {
      rt.changed(spec);
    }
    return rt;
  }

  function runtimeFor(spec: EndpointSpec): EndpointRuntime {
    const rt = ensure(spec);
    if (rt instanceof LbRuntime) throw new Error(`endpoint ${spec.id} is a load-balancing endpoint, not queue-based`);
    return rt;
  }

  function lbRuntimeFor(spec: EndpointSpec): LbRuntime {
    const rt = ensure(spec);
    if (!(rt instanceof LbRuntime)) throw new Error(`endpoint ${spec.id} is queue-based, not a load-balancing endpoint`);
    return rt;
  }

  const table = jobApiTable({ opts, polls });
  const router = new JobRouter(
    {
      deps,
      opts,
      get closed() {
        return closed;
      },
      runtimeFor,
      lbRuntimeFor,
    },
    table,
  );

  return {
    handle: router.handle,
    faultRoutes: jobFaultRoutes(table),
    setInterceptor: (interceptor) => router.setInterceptor(interceptor),
    endpointChanged(spec: EndpointSpec): void {
      if (closed) return;
      const rt = runtimes.get(spec.id);
      // Same kind: changed() also handles same-version updates (a lower workersMax).
      if (rt && rt instanceof LbRuntime === (spec.type === "LOAD_BALANCER")) rt.changed(spec);
      else ensure(spec, rt);
    },
    endpointDeleted(_accountId: string, endpointId: string): void {
      const rt = runtimes.get(endpointId);
      if (!rt) return;
      runtimes.delete(endpointId);
      rt.deleted();
      env.logs.dropEndpoint(endpointId);
    },
    workers(endpointId: string): WorkerView[] {
      return runtimes.get(endpointId)?.views() ?? [];
    },
    workerLogs: () => env.workerLogs.map((log) => ({ ...log })),
    workerLog: (endpointId, workerId) => env.logs.find(endpointId, workerId),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      polls.releaseAll();
      for (const rt of runtimes.values()) rt.shutdown();
      webhooks.close();
      sched.close();
    },
  };
}
