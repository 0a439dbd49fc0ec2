/**
 * Worker faults (faults/workerFaults.ts) on a load-balancing endpoint's request, once its worker is
 * chosen: there is no job, so they act on the exchange the worker would have served.
 *
 *   slow   the request waits DURATION (service time) on its worker, counted in flight, before it
 *          is forwarded
 *   fail   the worker answers 500 `{"error": "...injected fault..."}` (with X-Service-Worker-Id);
 *          the request is not forwarded to its server
 *   crash  the worker dies: it is stopped (requests in flight on it are cut, as when any worker
 *          stops) and the request answers the 502 of a worker that failed while handling it
 *
 * The service does not say how a degraded worker answers; these are the emulator's choices.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../clock";
import type { JobFault } from "../../faults";
import { HttpError } from "../../http/errors";
import { sendJobError } from "../api/answers";
import { WORKER_ID_HEADER } from "./headers";
import type { LbWorker } from "./lbWorker";

export interface FaultedExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The chosen worker; the request is counted on it (requestStarted) and ended here when answered here. */
  worker: LbWorker;
  endpointId: string;
  clock: Clock;
}

/** Applies `fault`; true when the request was answered here (not to be forwarded). */
export async function answerFault(fault: JobFault, { req, res, worker, endpointId, clock }: FaultedExchange): Promise<boolean> {
  if (fault.slowMs > 0) {
    fault.applied("slow");
    await clock.sleep(fault.slowMs);
  }
  const ending = fault.ending;
  if (ending === undefined) return false;
  fault.applied(ending.kind);
  req.resume(); // the body is not forwarded: discard it, so the connection stays reusable
  const headers = { [WORKER_ID_HEADER]: worker.id };
  if (ending.kind === "crash") {
    worker.stop();
    const message = `worker ${worker.id} of endpoint ${endpointId} failed while handling the request (it crashed: injected fault: ${ending.fault}); it was not retried`;
    if (!res.destroyed) sendJobError(res, new HttpError(502, message, headers));
  } else if (!res.destroyed) {
    sendJobError(
      res,
      new HttpError(500, `worker ${worker.id} of endpoint ${endpointId} failed the request: injected fault: ${ending.fault}`, headers),
    );
  }
  worker.requestEnded();
  return true;
}
