/**
 * The management v2 surface: its route table, served under /api/v2 by a router of its own with
 * problem+json errors and the per-account rate limit, over the same store as /v1.
 */
import { createClock } from "../../clock";
import { Router, type RouteInterceptor, type RouterOptions } from "../../http/router";
import type { FaultRoute } from "../../faults";
import type { ManagementContext } from "../context";
import { V2_BASE_PATH } from "./openapi";
import { Refusal } from "../errors";
import { sendProblem } from "./problem";
import { RateLimiter } from "../account/rateLimit";
import { v2Operations } from "./routes";

export interface V2Surface {
  router: Router;
  /** The v2 operations as fault-injection routes: paths carry /api/v2 so selectors can tell them from /v1's. */
  faultRoutes: FaultRoute[];
  /** Called once the server listens: endpoints' requestUrls are built on the job API base. */
  setServerlessUrl(url: string): void;
}

export type V2RouterOptions = Pick<RouterOptions, "bodyLimitBytes" | "resolveAccount" | "scopesOf" | "onMutation" | "persist" | "onReply"> & {
  interceptor: RouteInterceptor | undefined;
};

export function createV2Surface(ctx: ManagementContext, options: V2RouterOptions): V2Surface {
  let serverlessUrl = "";
  const operations = v2Operations({ ctx, serverlessUrl: () => serverlessUrl });
  // Service time: the emulator's clock, or (test seam) one derived from the given wall clock.
  const seam = ctx.options.rateLimitClock;
  const serviceNow = seam ? createClock(ctx.options.timeScale, seam).now : ctx.clock.now;
  const limiter = ctx.options.rateLimit === false ? undefined : new RateLimiter(ctx.options.rateLimit, serviceNow, ctx.options.timeScale);
  const router = new Router(operations, {
    ...options,
    unknownFieldStatus: 422,
    basePath: V2_BASE_PATH,
    renderError: sendProblem,
    admit: limiter
      ? (accountId) => {
          const decision = limiter.take(accountId);
          if (!decision.allowed) {
            const detail = `rate limit exceeded for the ${decision.window ?? "minute"} window; retry after ${decision.headers["retry-after"] ?? "?"} s (quota: ${decision.headers["ratelimit-policy"] ?? ""})`;
            throw new Refusal(429, detail, [], decision.headers);
          }
          return decision.headers;
        }
      : undefined,
  });
  return {
    router,
    faultRoutes: operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: `${V2_BASE_PATH}${op.path}`,
      sendError: (res, status, message, headers) => sendProblem(res, new Refusal(status, message, [], headers)),
    })),
    setServerlessUrl(url) {
      serverlessUrl = url;
    },
  };
}
