/**
 * The HTTP server: plain node:http with keep-alive, /v1 to the management router, /v2 to the job
 * side, anything else a JSON 404. No framework: the whole dispatch is a prefix check and a
 * segment match, which keeps GET /v1/pods/{id} close to a bare node:http server in throughput.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { ServerlessService } from "../serverless/contract";
import { installClientErrorHandlers } from "./clientErrors";
import { HttpError } from "./errors";
import { sendProblem } from "./problem";
import { type Router, fail } from "./router";

export interface HttpServerOptions {
  /** Every /v1 call answers 410 Gone, naming the /api/v2 URL (the live service since 2026-11-15). */
  v1Retired?: boolean | undefined;
}

export function createHttpServer(
  router: Router,
  serverless: ServerlessService,
  v2Router?: Router,
  options: HttpServerOptions = {},
): Server {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    if (options.v1Retired && (pathname === "/v1" || pathname.startsWith("/v1/"))) {
      sendV1Retired(req, res, pathname);
    } else if (pathname === "/v1" || pathname.startsWith("/v1/")) {
      router.handle(req, res, pathname.slice(3), q === -1 ? "" : url.slice(q + 1));
    } else if (v2Router && (pathname === "/api/v2" || pathname.startsWith("/api/v2/"))) {
      // Management v2; checked before /v2 so that /api/v2/pods is never read as an endpoint id.
      v2Router.handle(req, res, pathname.slice(7), q === -1 ? "" : url.slice(q + 1));
    } else if (pathname === "/v2" || pathname.startsWith("/v2/")) {
      serverless.handle(req, res, pathname.slice(3)).catch((error: unknown) => fail(res, error));
    } else {
      fail(res, new HttpError(404, `no such path: ${pathname} (the management API is under /v1 and /api/v2, the job API under /v2)`));
    }
  };
  const server = createServer({ keepAlive: true }, handler);
  // Longer than common client pool idle times (undici: 4 s), so the server is not the side that
  // closes a connection a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  installClientErrorHandlers(server, handler);
  return server;
}

/**
 * The retired v1 API's answer: 410 Gone as problem+json, naming the v2 URL of the same path (v2
 * spells some collections differently, so it is a pointer to the API, not a promise of the route).
 */
function sendV1Retired(req: IncomingMessage, res: ServerResponse, pathname: string): void {
  const origin = `http://${req.headers.host ?? "localhost"}`;
  const v2Url = `${origin}/api/v2${pathname.slice(3)}`;
  const detail =
    `the REST v1 API is retired (since 2026-11-15) and no longer serves ${req.method ?? "GET"} ${pathname}; ` +
    `use the management API v2 at ${origin}/api/v2 (this path there: ${v2Url})`;
  sendProblem(res, new HttpError(410, detail));
}
