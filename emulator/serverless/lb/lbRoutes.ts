/**
 * Requests to a load-balancing endpoint, after authentication and endpoint lookup (routes.ts):
 *
 * - `/run`, `/runsync`, `/status`, `/status-sync`, `/stream`, `/cancel`, `/retry`, `/purge-queue`
 *   (the queue verbs; also `/<verb>/...`) answer 404 with a JSON error saying the endpoint is a
 *   load-balancing endpoint. Every other path, `/health`, `/ping`, `/requests` and `/openai/...`
 *   included, belongs to the worker: a worker may define any of them (its health check path often
 *   is `/ping` or `/health`), so the job API's `/health` is not served here; workers are listed by
 *   the management API (`GET /v1/endpoints/{id}?includeWorkers=true`).
 * - Limits: the route class `lb` (per account per endpoint, dynamic rule with healthy workers).
 * - `X-Service-Worker-Id: <worker id>` pins the request to that worker (409 when it is gone or
 *   unhealthy); without it the least busy healthy worker serves it, after a bounded wait for one.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointSpec } from "../contract";
import { HttpError } from "../http";
import { WORKER_ID_HEADER } from "./headers";
import type { LbRuntime } from "./lbRuntime";
import { proxy } from "./proxy";

/** The job API's queue verbs: on a load-balancing endpoint they answer 404 instead of reaching the worker. */
export const QUEUE_VERBS: ReadonlySet<string> = new Set([
  "run",
  "runsync",
  "status",
  "status-sync",
  "stream",
  "cancel",
  "retry",
  "purge-queue",
]);

export async function handleLb(
  rt: LbRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  accountId: string,
  spec: EndpointSpec,
  /** The raw (still percent-encoded) path after the endpoint id: "" or "/...". */
  rest: string,
): Promise<void> {
  const first = rest.split("/", 2)[1] ?? "";
  if (QUEUE_VERBS.has(first)) {
    throw new HttpError(
      404,
      `endpoint ${spec.id} is a load-balancing endpoint: it has no job queue, so /${first} is not available. ` +
        `Send requests to /v2/${spec.id}/<path>: they go straight to a worker's HTTP server`,
    );
  }
  const pin = req.headers[WORKER_ID_HEADER];
  const pinId = typeof pin === "string" && pin.trim() !== "" ? pin.trim() : undefined;
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const path = (rest === "" ? "/" : rest) + (q < 0 ? "" : url.slice(q));

  const admission = rt.limiter.admit(accountId, "lb", rt.ready);
  rt.requestArrived();
  try {
    const worker = pinId !== undefined ? rt.pinned(pinId) : await rt.worker(res);
    await proxy(req, res, worker, spec.id, path);
  } finally {
    rt.requestDone();
    admission.release();
  }
}
