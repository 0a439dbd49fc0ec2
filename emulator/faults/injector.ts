/**
 * Fault injection on the management API (/v1 and /api/v2) and the job API (/v2), built on the routers' interceptor seam (http/router.ts, serverless/api/router.ts): after auth and
 * before the body is read, each request of a route with faults draws from that route's own seeded
 * random stream, so one route's traffic does not shift another's faults, and a seed replays the
 * same faults for the same sequence of calls per route.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { STATUS_CODES } from "node:http";
import type { InterceptResult, RouteInterceptor } from "../http/interception";
import { sendError } from "../http/respond";
import { type HeldAnswer, holdAnswer } from "./heldAnswer";
import { streamFor } from "./random";
import {
  FAULT_KINDS,
  type FaultKind,
  type FaultPlan,
  FaultSpecError,
  REQUEST_FAULT_KINDS,
  type RequestFaultKind,
  type StatusFaultKind,
  podSelectorPattern,
  workerSelectorPattern,
} from "./spec";

/** What the injector needs to know of an operation. */
export interface FaultRoute {
  operationId: string;
  method: string;
  /**
   * Further methods the same operation answers (the job API's `/status` takes GET or POST): a
   * `METHOD PATH` selector naming any of them chooses the operation.
   */
  otherMethods?: readonly string[] | undefined;
  /**
   * The path selectors match, with `{param}` segments: after /v1 for /v1 operations (selectors may
   * leave the /v1 out), from the root for the other surfaces (`/api/v2/pods`, `/v2/{endpoint_id}/run`).
   */
  path: string;
  /** Whether the selector `*` chooses it (default true). The job API's routes are chosen by name only. */
  wildcard?: boolean | undefined;
  /**
   * Whether its router can apply the operation later and report its reply (InterceptPlan): the
   * management routers' can (default true), the job API's cannot, so land and hidden skip its routes.
   */
  deferrable?: boolean | undefined;
  /** How the route's surface answers an injected status (default: /v1's JSON error body). */
  sendError?: (res: ServerResponse, status: number, message: string, headers: Record<string, string>) => void;
}

/** What the injector reads of a request: which operation, and the exchange it may answer or cut. */
export type FaultCall = Pick<Parameters<RouteInterceptor>[0], "operationId" | "req" | "res">;

/** Counts since the emulator started (they survive setFaults). */
export interface FaultStats {
  /** The seed of the plan in force, undefined when faults are off. */
  seed: number | undefined;
  /** Requests that reached a route with faults (after auth). */
  requests: number;
  /** Faults injected, per kind (latency counts the requests that were delayed). */
  injected: Record<FaultKind, number>;
  /** Injected faults per operation id and kind (pod and worker faults: per `pod ...` / `worker ...` selector). */
  byOperation: Record<string, Partial<Record<FaultKind, number>>>;
}

/** What the injector does to the rest of the emulator: keep a new resource out of lists (hidden). */
export interface FaultEffects {
  hideFromLists(id: string, delayMs: number): void;
}

const DEFAULT_LATENCY_MS = 100;
const DEFAULT_429_RETRY_AFTER_MS = 1000;

interface Outcome {
  kind: Exclude<RequestFaultKind, "latency">;
  probability: number;
  durationMs: number | undefined;
}

/** The faults of one route, resolved from the plan. */
interface RoutePlan {
  latency: { probability: number; delayMs: number } | undefined;
  /** Exclusive outcomes in the order they are drawn; probabilities add up to <= 1. */
  outcomes: Outcome[];
}

function selectorMatches(selector: string, route: FaultRoute): boolean {
  if (selector === "*") return route.wildcard !== false;
  const space = selector.indexOf(" ");
  if (space === -1) return selector === route.operationId;
  const method = selector.slice(0, space).toUpperCase();
  if (method !== "*" && method !== route.method && !route.otherMethods?.includes(method)) return false;
  let path = selector.slice(space + 1).trim();
  if (path === "/v1") path = "/";
  else if (path.startsWith("/v1/")) path = path.slice(3);
  const want = path.split("/").filter((s) => s !== "");
  const have = route.path.split("/").filter((s) => s !== "");
  if (want.length !== have.length) return false;
  return want.every((segment, i) => segment === "*" || (segment.startsWith("{") && segment.endsWith("}")) || segment === have[i]);
}

// The other surfaces' paths start from the root: /api/v2/... (management v2), /v2/... (the job API).
const isV1 = (route: FaultRoute) => !route.path.startsWith("/api/") && !route.path.startsWith("/v2/");

function describeRoute(route: FaultRoute): string {
  return `${route.method} ${isV1(route) ? "/v1" : ""}${route.path} (${route.operationId})`;
}

/** Kinds only some routes take, and which: a route that cannot take one skips it. */
const ROUTE_KINDS: Partial<Record<RequestFaultKind, { takes: (route: FaultRoute) => boolean; which: string }>> = {
  land: { takes: (route) => route.deferrable !== false, which: "/v1 and /api/v2 operations (not the job API's)" },
  // A create answers the resource it made, whose id the lists then leave out.
  hidden: {
    takes: (route) => route.deferrable !== false && route.method === "POST" && /^create/i.test(route.operationId),
    which: "creates of /v1 and /api/v2 (createPod, CreatePod, POST /api/v2/serverless, ...)",
  },
};

function routeTakes(kind: FaultKind, route: FaultRoute): boolean {
  const only = ROUTE_KINDS[kind as RequestFaultKind];
  return only === undefined || only.takes(route);
}

/** Resolves the plan per route; throws FaultSpecError for selectors that match nothing or odds above 1. */
export function resolvePlan(plan: FaultPlan, routes: readonly FaultRoute[]): Map<string, RoutePlan> {
  // Pod and worker clauses select pods and workers, not requests (faults/podFaults.ts, faults/workerFaults.ts).
  const requestRules = plan.rules.filter(
    (rule) => podSelectorPattern(rule.selector) === undefined && workerSelectorPattern(rule.selector) === undefined,
  );
  for (const rule of requestRules) {
    if (!routes.some((route) => selectorMatches(rule.selector, route))) {
      // A few of each surface, past the public documents.
      const examples = [...routes.filter(isV1).slice(2, 4), ...routes.filter((r) => !isV1(r)).slice(1, 3)].map(describeRoute).join(", ");
      throw new FaultSpecError(
        `faults: selector ${JSON.stringify(rule.selector)} matches no operation; use *, an operation id or METHOD PATH, e.g. ${examples}`,
      );
    }
    for (const fault of rule.faults) {
      const only = ROUTE_KINDS[fault.kind as RequestFaultKind];
      if (only && !routes.some((route) => selectorMatches(rule.selector, route) && only.takes(route))) {
        throw new FaultSpecError(
          `faults: selector ${JSON.stringify(rule.selector)}: ${fault.kind} applies to ${only.which} only, and it matches none`,
        );
      }
    }
  }
  const resolved = new Map<string, RoutePlan>();
  for (const route of routes) {
    const chosen = new Map<FaultKind, { probability: number; durationMs: number | undefined }>();
    for (const rule of requestRules) {
      if (!selectorMatches(rule.selector, route)) continue;
      for (const fault of rule.faults) {
        if (!chosen.has(fault.kind) && routeTakes(fault.kind, route)) {
          chosen.set(fault.kind, { probability: fault.probability, durationMs: fault.durationMs });
        }
      }
    }
    if (chosen.size === 0) continue;
    const latency = chosen.get("latency");
    const outcomes: Outcome[] = [];
    for (const kind of REQUEST_FAULT_KINDS) {
      const setting = chosen.get(kind);
      if (kind === "latency" || !setting || setting.probability === 0) continue;
      outcomes.push({ kind, probability: setting.probability, durationMs: setting.durationMs });
    }
    const total = outcomes.reduce((sum, o) => sum + o.probability, 0);
    if (total > 1 + 1e-9) {
      throw new FaultSpecError(
        `faults: on ${describeRoute(route)} the probabilities of ${outcomes.map((o) => `${o.kind}=${o.probability}`).join(", ")} add up to ${total.toFixed(3)}; they are exclusive, so at most 1`,
      );
    }
    resolved.set(route.operationId, {
      latency:
        latency && latency.probability > 0
          ? { probability: latency.probability, delayMs: latency.durationMs ?? DEFAULT_LATENCY_MS }
          : undefined,
      outcomes,
    });
  }
  return resolved;
}

function emptyCounts(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}

/** Retry-After as seconds; fractions (e.g. "0.2") are kept so fast tests can ask for short waits. */
function retryAfterHeader(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(3)));
}

export class FaultInjector {
  private plan: FaultPlan | undefined;
  private routesPlan = new Map<string, RoutePlan>();
  private streams = new Map<string, () => number>();
  private requests = 0;
  private readonly injected = emptyCounts();
  private readonly byOperation: Record<string, Partial<Record<FaultKind, number>>> = {};
  private readonly errorSenders: ReadonlyMap<string, NonNullable<FaultRoute["sendError"]>>;
  /** Requests held by a latency fault: at close, cut instead of run on a service that has stopped. */
  private readonly delayed = new Map<NodeJS.Timeout, { req: IncomingMessage; resolve: (result: InterceptResult) => void }>();
  /** Operations a land fault applies later: at close, cut and never applied on a service that has stopped. */
  private readonly landing = new Map<NodeJS.Timeout, { req: IncomingMessage; resolve: (apply: boolean) => void }>();
  /** Answers a late or lost@D fault holds: at close, cut (the operation has run; its answer is not sent). */
  private readonly held = new Set<HeldAnswer>();

  constructor(
    private readonly routes: readonly FaultRoute[],
    plan: FaultPlan | undefined,
    private readonly effects?: FaultEffects,
  ) {
    this.errorSenders = new Map(routes.map((route) => [route.operationId, route.sendError ?? sendError]));
    this.setPlan(plan);
  }

  /** Replaces the plan (undefined: faults off) and restarts the random streams from its seed. */
  setPlan(plan: FaultPlan | undefined): void {
    const resolved = plan ? resolvePlan(plan, this.routes) : new Map<string, RoutePlan>();
    this.plan = plan;
    this.routesPlan = resolved;
    this.streams = new Map();
  }

  /**
   * `others` adds the counts of the faults that select no route (pod faults, faults/podFaults.ts;
   * worker faults, faults/workerFaults.ts), per their clause's selector and kind, to the totals by kind.
   */
  stats(...others: { bySelector: Readonly<Record<string, Partial<Record<FaultKind, number>>>> }[]): FaultStats {
    const injected = { ...this.injected };
    const byOperation = Object.fromEntries(Object.entries(this.byOperation).map(([op, counts]) => [op, { ...counts }]));
    for (const other of others) {
      for (const [selector, counts] of Object.entries(other.bySelector)) {
        byOperation[selector] = { ...byOperation[selector], ...counts };
        for (const [kind, count] of Object.entries(counts) as [FaultKind, number][]) injected[kind] += count;
      }
    }
    return { seed: this.plan?.seed, requests: this.requests, injected, byOperation };
  }

  /** The routers' interceptor (it reads only which operation and the exchange, so every surface can call it). */
  readonly intercept = ({ operationId, req, res }: FaultCall): InterceptResult | Promise<InterceptResult> => {
    const route = this.routesPlan.get(operationId);
    const plan = this.plan;
    if (!route || !plan) return false;
    this.requests++;
    let random = this.streams.get(operationId);
    if (!random) {
      random = streamFor(plan.seed, operationId);
      this.streams.set(operationId, random);
    }
    // Two draws per request, always, so that the stream stays aligned whatever is configured.
    const latencyDraw = random();
    const outcomeDraw = random();
    let outcome: Outcome | undefined;
    let cumulative = 0;
    for (const candidate of route.outcomes) {
      cumulative += candidate.probability;
      if (outcomeDraw < cumulative) {
        outcome = candidate;
        break;
      }
    }
    const delayMs = route.latency && latencyDraw < route.latency.probability ? route.latency.delayMs : 0;
    if (delayMs > 0) this.count(operationId, "latency");
    if (outcome) this.count(operationId, outcome.kind);
    if (delayMs === 0) return this.apply(outcome, operationId, req, res);
    return new Promise<InterceptResult>((resolve) => {
      const timer = setTimeout(() => {
        this.delayed.delete(timer);
        resolve(this.apply(outcome, operationId, req, res));
      }, delayMs);
      this.delayed.set(timer, { req, resolve });
    });
  };

  /**
   * Cuts what faults still hold (the service is closing): requests a latency fault delays and
   * operations a land fault has not applied yet never run; answers a late or lost fault holds are
   * not sent.
   */
  close(): void {
    for (const [timer, held] of this.delayed) {
      clearTimeout(timer);
      held.req.socket.destroy();
      // Handled: the request's connection is gone, so nothing answers and nothing runs.
      held.resolve(true);
    }
    this.delayed.clear();
    for (const [timer, landing] of this.landing) {
      clearTimeout(timer);
      landing.req.socket.destroy();
      landing.resolve(false);
    }
    this.landing.clear();
    for (const answer of [...this.held]) answer.cut();
    this.held.clear();
  }

  private count(operationId: string, kind: FaultKind): void {
    this.injected[kind]++;
    const counts = this.byOperation[operationId] ?? {};
    this.byOperation[operationId] = counts;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }

  /** The operation runs as usual; its answer is held for `delayMs`, then sent (late) or cut (lost). */
  private hold(res: ServerResponse, mode: "late" | "lost", delayMs: number): InterceptResult {
    const answer = holdAnswer(res, mode, delayMs, () => this.held.delete(answer));
    this.held.add(answer);
    return false;
  }

  /** Resolves true `delayMs` from now, whatever the client does; false if the emulator closes first. */
  private applyLater(req: IncomingMessage, delayMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.landing.delete(timer);
        resolve(true);
      }, delayMs);
      this.landing.set(timer, { req, resolve });
    });
  }

  private apply(outcome: Outcome | undefined, operationId: string, req: IncomingMessage, res: ServerResponse): InterceptResult {
    if (!outcome) return false;
    switch (outcome.kind) {
      case "reset":
        // Before the operation runs and before any byte of an answer: the client sees ECONNRESET.
        req.socket.resetAndDestroy();
        return true;
      case "lost":
        if (!outcome.durationMs) return "lose-answer";
        return this.hold(res, "lost", outcome.durationMs);
      case "late":
        return this.hold(res, "late", outcome.durationMs ?? 0);
      case "land":
        return { applyWhen: this.applyLater(req, outcome.durationMs ?? 0) };
      case "hidden": {
        const delayMs = outcome.durationMs ?? 0;
        return {
          onRan: ({ status, body }) => {
            const id = createdId(body);
            if (status < 300 && id !== undefined) this.effects?.hideFromLists(id, delayMs);
          },
        };
      }
      default: {
        const status = Number(outcome.kind as StatusFaultKind);
        const retryAfterMs = outcome.durationMs ?? (status === 429 ? DEFAULT_429_RETRY_AFTER_MS : undefined);
        const headers: Record<string, string> = retryAfterMs === undefined ? {} : { "retry-after": retryAfterHeader(retryAfterMs) };
        req.resume(); // the body is not needed: discard it, so the connection stays reusable
        const send = this.errorSenders.get(operationId) ?? sendError;
        send(res, status, `injected fault: ${status} ${STATUS_CODES[status] ?? ""} on ${operationId}`.trimEnd(), headers);
        return true;
      }
    }
  }
}

/** The id of the resource a create answered (its body's `id`, on both surfaces), if any. */
function createdId(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("id" in body)) return undefined;
  return typeof body.id === "string" ? body.id : undefined;
}

/** Runs `first` (a user's interceptor), then `second` if the first let the request through. */
export function chainInterceptors(first: RouteInterceptor | undefined, second: RouteInterceptor | undefined): RouteInterceptor | undefined {
  if (!first) return second;
  if (!second) return first;
  return async (call) => {
    const decision = await first(call);
    return decision === false ? second(call) : decision;
  };
}
