/**
 * A stack that runs at the service's rate limit, shared by bench-ratelimit and its engine test: the
 * mix of resources it declares, and how an operation's management calls are judged against the
 * limit (the bound: the calls divided by the allowed rate; the service time they took; the ratio).
 */
import type * as sdk from "../../sdk";
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from "../../emulator/management/account/rateLimit";
import type { ProxiedCall } from "./countingProxy";

/** The goal: an operation's service time at most this many times its bound, and no 429. */
export const SERVICE_TIME_GOAL = 1.15;

/** How many resources of each kind a stack of `count` declares. */
export interface StackMix {
  templates: number;
  volumes: number;
  endpoints: number;
  pods: number;
}

/**
 * Declares `count` resources, in blocks of ten: a serverless template, a network volume, four
 * endpoints on that template (every other one keeping a worker up, which create waits for) and four
 * pods (create waits until each runs with a public IP). Call it inside a Pulumi program.
 */
export function declareMixedStack(gpucloud: Pick<typeof sdk, "Template" | "NetworkVolume" | "Endpoint" | "Pod">, count: number): StackMix {
  const mix: StackMix = { templates: 0, volumes: 0, endpoints: 0, pods: 0 };
  let template: sdk.Template | undefined;
  for (let i = 0; i < count; i++) {
    const slot = i % 10;
    if (slot === 0 || !template) {
      template = new gpucloud.Template(`tpl-${i}`, { name: `rl-worker-${i}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
      mix.templates++;
    } else if (slot === 1) {
      new gpucloud.NetworkVolume(`vol-${i}`, { name: `rl-vol-${i}`, size: 10, dataCenterId: "EU-RO-1" });
      mix.volumes++;
    } else if (slot <= 5) {
      new gpucloud.Endpoint(`ep-${i}`, {
        name: `rl-ep-${i}`,
        templateId: template.id,
        gpuTypeIds: ["NVIDIA L4"],
        workersMin: slot % 2,
        workersMax: 1,
      });
      mix.endpoints++;
    } else {
      new gpucloud.Pod(`pod-${i}`, {
        name: `rl-pod-${i}`,
        imageName: "ghcr.io/acme/trainer:1",
        gpuTypeIds: ["NVIDIA L4"],
        ports: ["8888/http"],
      });
      mix.pods++;
    }
  }
  return mix;
}

/** The emulator's default policy, the reference's example: 60 a minute, 3000 an hour, 50000 a day. */
export const DEFAULT_POLICY: Required<RateLimitOptions> = DEFAULT_RATE_LIMIT;

const WINDOW_MS = { perMinute: 60_000, perHour: 3_600_000, perDay: 86_400_000 } as const;

/**
 * The bound of `calls` calls, in service ms: the calls divided by the allowed rate. The rate is
 * that of the window allowing the fewest calls per unit of time among the windows whose quota the
 * calls exceed (the default policy's hour and day quotas allow a lower average rate than its
 * minute's, but a run of fewer calls than an hour's quota is bounded by the minute window alone);
 * when they exceed none, the minute's, as for a run that is not limited at all.
 */
export function boundMs(calls: number, policy: Required<RateLimitOptions>): number {
  const windows = (Object.keys(WINDOW_MS) as (keyof typeof WINDOW_MS)[]).filter((w) => calls > policy[w]);
  return Math.max((calls * WINDOW_MS.perMinute) / policy.perMinute, ...windows.map((w) => (calls * WINDOW_MS[w]) / policy[w]));
}

/** One operation's management calls as the rate limit sees them. */
export interface RateLimitedRun {
  calls: number;
  tooMany: number;
  /** Service ms from the first call's arrival to the last answer (what the rate limit bounds). */
  serviceMs: number;
  boundMs: number;
  /** serviceMs / boundMs (0 when there were no calls). */
  ratio: number;
}

export function judge(calls: readonly ProxiedCall[], policy: Required<RateLimitOptions>): RateLimitedRun {
  const bound = boundMs(calls.length, policy);
  if (calls.length === 0) return { calls: 0, tooMany: 0, serviceMs: 0, boundMs: 0, ratio: 0 };
  const first = Math.min(...calls.map((c) => c.sentAt));
  const last = Math.max(...calls.map((c) => Math.max(c.answeredAt, c.sentAt)));
  const serviceMs = last - first;
  return {
    calls: calls.length,
    tooMany: calls.filter((c) => c.status === 429).length,
    serviceMs,
    boundMs: bound,
    ratio: serviceMs / bound,
  };
}

/** `GET /pods: 40, POST /endpoints: 80`: calls per route, ids folded into `{id}`, most first. */
export function routesOf(calls: readonly ProxiedCall[], apiPath: string): string {
  const byRoute = new Map<string, number>();
  for (const call of calls) {
    // The first segment names the collection; a long lowercase one after it is an id.
    const segments = (call.path.split("?")[0] ?? "").slice(apiPath.length).split("/");
    const route = `${call.method} ${segments.map((seg, i) => (i > 1 && /^[a-z0-9]{10,}$/.test(seg) ? "{id}" : seg)).join("/")}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  }
  return [...byRoute]
    .sort((a, b) => b[1] - a[1])
    .map(([route, n]) => `${route}: ${n}`)
    .join(", ");
}
