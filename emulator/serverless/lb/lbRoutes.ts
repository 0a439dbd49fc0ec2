/**
 * Requests to a load-balancing endpoint, once authenticated and the endpoint found (api/router.ts):
 *
 * - the job API's queue operations (`/run`, `/runsync`, `/status`, `/status-sync`, `/stream`,
 *   `/cancel`, `/retry`, `/purge-queue`; also `/<verb>/...`) answer 404 with a JSON error saying the
 *   endpoint is a load-balancing endpoint (`noQueue`). Every other path, `/health`, `/ping`,
 *   `/requests` and `/openai/...` included, belongs to the worker: a worker may define any of them
 *   (its health check path often is `/ping` or `/health`), so the job API's `/health` is not served
 *   here; workers are listed by the management API (`GET /v1/endpoints/{id}?includeWorkers=true`).
 * - Limits: the route class `lb` (per account per endpoint, dynamic rule with healthy workers).
 * - `X-Service-Worker-Id: <worker id>` pins the request to that worker (409 when it is gone or
 *   unhealthy); without it the least busy healthy worker serves it, after a bounded wait for one.
 * - Worker faults (a `worker IMAGE` clause of a fault SPEC) act on the request once its worker is
 *   chosen (requestFaults.ts).
 */
import { HttpError } from "../../http/errors";
import { ANSWERED, type JobAnswer, type JobOperation, defineJobOperation } from "../api/operation";
import type { EndpointSpec } from "../contract";
import { WORKER_ID_HEADER } from "./headers";
import type { LbRuntime } from "./lbRuntime";
import { proxy } from "./proxy";
import { answerFault } from "./requestFaults";

/** The 404 of a queue operation sent to a load-balancing endpoint. */
export function noQueue(spec: EndpointSpec, verb: string): HttpError {
  return new HttpError(
    404,
    `endpoint ${spec.id} is a load-balancing endpoint: it has no job queue, so /${verb} is not available. ` +
      `Send requests to /v2/${spec.id}/<path>: they go straight to a worker's HTTP server`,
  );
}

/** Every method is forwarded; these are the ones the description lists. */
const FORWARDED = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

export const lbOperation: JobOperation<LbRuntime> = defineJobOperation({
  side: "proxy",
  operationId: "proxyToWorker",
  summary: "On a load-balancing endpoint: the request, any method and path, forwarded to one worker's HTTP server",
  tag: "load balancing",
  methods: FORWARDED,
  path: "/{endpoint_id}/{path}",
  limit: "lb",
  response: { status: 200, description: "The worker's answer (any status), with X-Service-Worker-Id." },
  errors: [404, 409, 502, 503],
  async handle({ rt, params, req, res }): Promise<JobAnswer> {
    const pin = req.headers[WORKER_ID_HEADER];
    const pinId = typeof pin === "string" && pin.trim() !== "" ? pin.trim() : undefined;
    const url = req.url ?? "";
    const q = url.indexOf("?");
    // The raw (still percent-encoded) path after the endpoint id: "" or "/...".
    const rest = params["path"] ?? "";
    const path = (rest === "" ? "/" : rest) + (q < 0 ? "" : url.slice(q));
    rt.requestArrived();
    try {
      const worker = pinId !== undefined ? rt.pinned(pinId) : await rt.worker(res);
      const fault = rt.requestFault(worker);
      const answered = fault !== undefined && (await answerFault(fault, { req, res, worker, endpointId: rt.spec.id, clock: rt.clock }));
      if (!answered) await proxy(req, res, worker, rt.spec.id, path);
    } finally {
      rt.requestDone();
    }
    return ANSWERED;
  },
});
