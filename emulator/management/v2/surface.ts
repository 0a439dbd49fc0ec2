/**
 * The management v2 surface: its route table, served under /api/v2 by a router of its own with
 * problem+json errors and the account's request rate limit, over the same store as /v1.
 */
import type { FaultRoute } from "../../faults";
import { HttpError } from "../../http/errors";
import { sendProblem } from "../../http/problem";
import { Router, type RouteInterceptor, type RouterOptions } from "../../http/router";
import { requestAdmission } from "../account/rateLimit";
import type { ManagementContext } from "../context";
import { V2_BASE_PATH } from "./openapi";
import { v2Context } from "./operation";
import { v2Operations } from "./routes";

export interface V2Surface {
  router: Router;
  /** The v2 operations as fault-injection routes: paths carry /api/v2 so selectors can tell them from /v1's. */
  faultRoutes: FaultRoute[];
  /** Called once the server listens: endpoints' requestUrls are built on the job API base. */
  setServerlessUrl(url: string): void;
}

export type V2RouterOptions = Pick<
  RouterOptions,
  "bodyLimitBytes" | "resolveAccount" | "scopesOf" | "onMutation" | "persist" | "onReply"
> & {
  interceptor: RouteInterceptor | undefined;
};

export function createV2Surface(ctx: ManagementContext, options: V2RouterOptions): V2Surface {
  let serverlessUrl = "";
  const operations = v2Operations(v2Context(ctx, () => serverlessUrl));
  const router = new Router(operations, {
    ...options,
    unknownFieldStatus: 422,
    basePath: V2_BASE_PATH,
    renderError: sendProblem,
    admit: requestAdmission(ctx.options, ctx.clock.now),
  });
  return {
    router,
    faultRoutes: operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: `${V2_BASE_PATH}${op.path}`,
      sendError: (res, status, message, headers) => sendProblem(res, new HttpError(status, message, headers)),
    })),
    setServerlessUrl(url) {
      serverlessUrl = url;
    },
  };
}
