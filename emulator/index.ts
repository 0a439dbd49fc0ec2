/**
 * startEmulator(): the whole local service on one port. /v1 and /api/v2 are the management API
 * (this module's router and management/v2's, over one store), /v2 the job API
 * (emulator/serverless). Package export: `pulumi-gpucloud/emulator`.
 */
import type { AddressInfo } from "node:net";
import { Accounts, accountIdOf } from "./auth";
import { type Clock, createClock } from "./clock";
import { Router } from "./http/router";
import { createHttpServer } from "./http/server";
import { FaultInjector, type FaultPlan, type FaultStats, chainInterceptors, toFaultPlan } from "./faults";
import { PodFaults } from "./faults/podFaults";
import { WorkerFaults } from "./faults/workerFaults";
import { createAvailabilityTable } from "./vocabulary/availability";
import type { ManagementContext } from "./management/context";
import { createServerlessDeps, publicEndpointSpec } from "./management/endpoints/spec";
import { Capacity } from "./management/placement";
import { markFailed } from "./management/pods/lifecycle";
import { PodLogs } from "./management/pods/podLogs";
import type { LogSource } from "./logs/logRing";
import { restoreState } from "./management/restore";
import { ListVisibility } from "./management/visibility";
import { endpointView } from "./management/v1/endpoints";
import { podView } from "./management/v1/podView";
import { managementOperations } from "./management/v1/routes";
import { networkVolumeView, registryAuthView, templateView } from "./management/v1/views";
import type { ContainerRegistryAuth, Endpoint, NetworkVolume, Pod, Template } from "./vocabulary/schemas/wireTypes";
import { createV2Surface } from "./management/v2/surface";
import { type EmulatorOptions, resolveOptions } from "./options";
import { createServerlessService } from "./serverless";
import type { EndpointSpec, ServerlessDeps, WorkerLog } from "./serverless/contract";
import { ManagementStore } from "./state/model";
import { type LoadedState, parseState, serializeState } from "./state/snapshot";
import { type StateStatus, StateWriter, readStateText, removeStaleTempFiles } from "./state/stateFile";

export type { EmulatorOptions, QuirkOptions, ServerlessFactory } from "./options";
export type {
  EndpointSpec,
  Placement,
  ServerlessDeps,
  ServerlessService,
  WorkerLog,
  WorkerUsage,
  WorkerView,
} from "./serverless/contract";
export type { AvailabilityOptions, PerDataCenter } from "./vocabulary/availability";
export type { InterceptPlan, InterceptResult, ReplyEvent, RouteInterceptor } from "./http/interception";
export { FaultSpecError, formatFaultSpec, parseFaultSpec } from "./faults";
export type { FaultKind, FaultPlan, FaultRule, FaultSetting, FaultStats } from "./faults";
export type { Clock } from "./clock";
export type { StateStatus } from "./state/stateFile";
export type { LogSource } from "./logs/logRing";

/** Every resource of one account, in wire shape. */
export interface AccountInspection {
  accountId: string;
  pods: Pod[];
  endpoints: Endpoint[];
  templates: Template[];
  networkVolumes: NetworkVolume[];
  registryAuths: ContainerRegistryAuth[];
  /** Log files of the worker processes the emulator started for this account's endpoints. */
  workerLogs: WorkerLog[];
  /**
   * Per running pod, the environment its container booted with: secret placeholders resolved at that
   * boot (the pods' `env` above keeps the placeholders, as the API shows them).
   */
  podBootEnv: Record<string, Record<string, string>>;
}

export interface RunningEmulator {
  /** Management API base URL, ending in /v1 (stack config `gpucloud:apiUrl`). */
  apiUrl: string;
  /** Management API v2 base URL, ending in /api/v2 (same port, same store as /v1). */
  apiUrlV2: string;
  /** Job API base URL, ending in /v2 (stack config `gpucloud:serverlessUrl`). */
  serverlessUrl: string;
  /** The first API key (generated when none was given). */
  apiKey: string;
  /** All API keys; each is its own account. */
  apiKeys: string[];
  host: string;
  port: number;
  /** The emulator's clock (service time), e.g. to compute expected billing in tests. */
  clock: Clock;
  /** The account id (userId on the wire) of an API key. */
  accountIdOf(apiKey: string): string;
  /** Every resource of every account (wire shapes), for tests and debugging. */
  inspect(): AccountInspection[];
  /** Faults injected so far, per kind and per operation (all zero without `faults`). */
  faultStats(): FaultStats;
  /** Switches fault injection to another SPEC or plan (undefined: off); counts are kept. */
  setFaults(faults: string | FaultPlan | undefined): void;
  /**
   * Test hook: the pod's container fails now. It stops (capacity and billing released) and /api/v2
   * reports it in `ERROR` with the actions `start` and `terminate` until it is started again
   * (/v1 reports it EXITED). Throws when no account has the pod.
   */
  failPod(podId: string, reason?: string): void;
  /**
   * Test hook: writes `text` into the pod's log (GET /api/v2/pods/{id}/logs), one line per line of
   * it, as its container's output (`source` "container") unless told otherwise. Throws when no
   * account has the pod.
   */
  writePodLog(podId: string, text: string, source?: LogSource): void;
  /** Writes the state file now (no-op without statePath); rejects when the write fails. */
  flushState(): Promise<void>;
  /** Whether changes are reaching the state file (undefined without statePath). */
  stateStatus(): StateStatus | undefined;
  /**
   * Calls `listener` each time saving the state file starts failing or works again. While it
   * fails, changes are answered 503 and the write is retried every second.
   */
  onStateStatus(listener: (status: StateStatus) => void): void;
  /** Stops serving, stops the job side, saves state. Idempotent. */
  close(): Promise<void>;
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

async function loadState(path: string | undefined): Promise<LoadedState | undefined> {
  if (path === undefined) return undefined;
  await removeStaleTempFiles(path);
  const text = await readStateText(path);
  return text === undefined ? undefined : parseState(text, path);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const loaded = await loadState(resolved.statePath);
  if (resolved.generatedKeys && loaded?.generatedApiKeys?.length) {
    // Keep the key printed on the first run working for the same state file.
    resolved.apiKeys = [...loaded.generatedApiKeys];
  }
  // Service time must not run backwards across a restart (it runs 1/timeScale as fast as real
  // time, so a previous run may have got ahead of the wall clock).
  const offset = loaded ? Math.max(0, loaded.savedAtMs - Date.now() + 1) : 0;
  const clock = createClock(resolved.timeScale, () => Date.now() + offset);

  const accounts = new Accounts(resolved.apiKeys, resolved.keyScopes);
  const store = new ManagementStore();
  let writer: StateWriter | undefined;
  const stateListeners: ((status: StateStatus) => void)[] = [];
  const publicEndpoints = new Map<string, EndpointSpec>(
    Object.entries(resolved.publicEndpoints).map(([id, image]) => [id, publicEndpointSpec(id, image)]),
  );
  const ctx: ManagementContext = {
    store,
    clock,
    capacity: new Capacity(createAvailabilityTable(resolved.availability)),
    options: resolved,
    serverless: undefined as never, // assigned below, before any request can arrive
    publicEndpoints,
    changed: () => writer?.schedule(),
    podFaults: new PodFaults(clock, resolved.faults),
    visibility: new ListVisibility(),
    podLogs: new PodLogs(clock),
  };
  // Set once listening: worker processes the job side starts need the job API's URL.
  let workerUrl: string | undefined;
  const workerFaults = new WorkerFaults(resolved.faults);
  const deps: ServerlessDeps = {
    ...createServerlessDeps(ctx, accounts),
    jobFaults: workerFaults,
    workerAccess(accountId) {
      const apiKey = resolved.apiKeys.find((key) => accountIdOf(key) === accountId) ?? resolved.apiKeys[0];
      return workerUrl === undefined || apiKey === undefined ? undefined : { serverlessUrl: workerUrl, apiKey };
    },
  };
  const serverless = (resolved.serverlessFactory ?? createServerlessService)(deps, {
    ...resolved.serverless,
    handlers: resolved.handlers,
  });
  ctx.serverless = serverless;
  if (resolved.statePath !== undefined) {
    writer = new StateWriter(
      resolved.statePath,
      resolved.stateDebounceMs,
      () => serializeState(store, clock.now(), resolved.generatedKeys ? resolved.apiKeys : undefined),
      (status) => {
        for (const listener of stateListeners) listener(status);
      },
    );
  }
  if (loaded) restoreState(ctx, loaded);
  for (const spec of publicEndpoints.values()) serverless.endpointChanged(spec);

  // Write at once: an unwritable path fails startup rather than the first change, and the restored
  // state (with its reopened billing intervals) is on disk before the first request.
  try {
    await writer?.save();
  } catch (error) {
    await serverless.close();
    throw error;
  }

  const operations = managementOperations(ctx);
  const routerOptions = {
    bodyLimitBytes: resolved.bodyLimitBytes,
    resolveAccount: (authorization: string | undefined) => accounts.resolve(authorization),
    scopesOf: (authorization: string | undefined) => accounts.scopesOf(authorization),
    interceptor: undefined,
    onMutation: ctx.changed,
    // With a state file, a change is on disk before its answer leaves (a crash loses nothing acknowledged).
    persist: writer ? () => writer.flush() : undefined,
    onReply: resolved.onReply,
  };
  const v2 = createV2Surface(ctx, routerOptions);
  // One injector for every surface: `*` covers /v1 and /api/v2, paths tell them apart; the job
  // API's routes are chosen by name (serverless/api/table.ts).
  let faults: FaultInjector;
  try {
    faults = new FaultInjector([...operations, ...v2.faultRoutes, ...(serverless.faultRoutes ?? [])], resolved.faults, {
      hideFromLists: (id, delayMs) => ctx.visibility.hide(id, delayMs),
    });
  } catch (error) {
    // A SPEC naming no route (or bad odds): nothing started may outlive the refusal.
    ctx.podFaults.close();
    await serverless.close();
    await writer?.close();
    throw error;
  }
  // Without faults the router keeps its await-free path: the injector is chained in only when on.
  const interceptorFor = (on: boolean) => chainInterceptors(resolved.routeInterceptor, on ? faults.intercept : undefined);
  const router = new Router(operations, {
    ...routerOptions,
    unknownFieldStatus: resolved.quirks.unknownFieldStatus,
    interceptor: interceptorFor(resolved.faults !== undefined),
  });
  v2.router.setInterceptor(interceptorFor(resolved.faults !== undefined));
  // The job API takes faults only (a user's routeInterceptor sees the management API alone).
  serverless.setInterceptor?.(resolved.faults !== undefined ? faults.intercept : undefined);
  const server = createHttpServer(router, serverless, v2.router, { v1Retired: resolved.v1Retired });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(resolved.port, resolved.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await serverless.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const base = baseUrl(resolved.host, port);
  v2.setServerlessUrl(`${base}/v2`);
  workerUrl = `${base}/v2`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      ctx.podFaults.close();
      faults.close();
      await serverless.close();
      // Give in-flight requests a moment, then cut what is left (e.g. job API long-polls).
      const cut = setTimeout(() => server.closeAllConnections(), 1000);
      await closed;
      clearTimeout(cut);
      if (writer) await writer.close();
    })();
    return closing;
  };

  return {
    apiUrl: `${base}/v1`,
    apiUrlV2: `${base}/api/v2`,
    serverlessUrl: `${base}/v2`,
    apiKey: resolved.apiKeys[0] ?? "",
    apiKeys: [...resolved.apiKeys],
    host: resolved.host,
    port,
    clock,
    accountIdOf,
    inspect() {
      const none = { includeMachine: false, includeNetworkVolume: false, includeSavingsPlans: false, includeTemplate: false };
      return [...store.accounts.values()].map((account) => ({
        accountId: account.accountId,
        pods: [...account.pods.values()].map((pod) => podView(ctx, account, pod, none)),
        endpoints: [...account.endpoints.values()].map((e) =>
          endpointView(ctx, account, e, { includeTemplate: false, includeWorkers: false }),
        ),
        templates: [...account.templates.values()].map(templateView),
        networkVolumes: [...account.networkVolumes.values()].map(networkVolumeView),
        registryAuths: [...account.registryAuths.values()].map(registryAuthView),
        workerLogs: (serverless.workerLogs?.() ?? []).filter((log) => log.accountId === account.accountId),
        podBootEnv: Object.fromEntries([...account.pods.values()].flatMap((pod) => (pod.boot?.env ? [[pod.id, { ...pod.boot.env }]] : []))),
      }));
    },
    faultStats: () => faults.stats(ctx.podFaults.counts(), workerFaults.counts()),
    setFaults(spec) {
      const plan = spec === undefined ? undefined : toFaultPlan(spec);
      faults.setPlan(plan);
      ctx.podFaults.setPlan(plan);
      workerFaults.setPlan(plan);
      router.setInterceptor(interceptorFor(plan !== undefined));
      v2.router.setInterceptor(interceptorFor(plan !== undefined));
      serverless.setInterceptor?.(plan !== undefined ? faults.intercept : undefined);
    },
    failPod(podId, reason = "container exited with an error") {
      for (const account of store.accounts.values()) {
        const pod = account.pods.get(podId);
        if (!pod) continue;
        markFailed(ctx, account, pod, reason);
        ctx.changed();
        return;
      }
      throw new Error(`failPod: no account has pod ${JSON.stringify(podId)}`);
    },
    writePodLog(podId, text, source = "container") {
      if (![...store.accounts.values()].some((account) => account.pods.has(podId))) {
        throw new Error(`writePodLog: no account has pod ${JSON.stringify(podId)}`);
      }
      ctx.podLogs.of(podId).write(source, text);
    },
    flushState: () => writer?.flush() ?? Promise.resolve(),
    stateStatus: () => writer?.status(),
    onStateStatus(listener) {
      stateListeners.push(listener);
    },
    close,
  };
}
