/**
 * Forwards one request to one worker's HTTP server and streams its answer back: method, the path
 * after the endpoint id, the query, the headers (minus hop-by-hop ones and Authorization) and the
 * body go out; status, headers (minus hop-by-hop ones, plus X-Service-Worker-Id) and body come back.
 *
 * No retries, as on the service: if the worker fails before answering (its server throws, destroys
 * the socket, or the worker is stopped), the caller gets a 502 JSON error naming the worker, and
 * the request is not sent anywhere else. A failure after the answer started can only cut the
 * caller's connection. Backpressure runs both ways (undici pauses the worker's response while the
 * caller is slow; the request body is streamed).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher, Pool } from "undici";
import { HttpError } from "../../http/errors";
import { sendJobError } from "../api/answers";
import { requestHeaders, responseHeaders, WORKER_ID_HEADER } from "./headers";
import type { LbWorker } from "./lbWorker";

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Resolves when the exchange is over (answered, failed, or the caller went away); never rejects.
 * The request was already counted on `w` (requestStarted) when the worker was chosen; it is ended here.
 */
export function proxy(req: IncomingMessage, res: ServerResponse, w: LbWorker, endpointId: string, path: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const pool = w.pool;
    if (!pool || res.destroyed) {
      // Gone caller (hung up while waiting for a worker): nothing to send, nothing to answer.
      if (!res.destroyed)
        sendJobError(res, new HttpError(502, `worker ${w.id} of endpoint ${endpointId} is not serving; the request was not sent`));
      w.requestEnded();
      resolve();
      return;
    }
    let done = false;
    let controller: Dispatcher.DispatchController | undefined;
    const finish = (): void => {
      if (done) return;
      done = true;
      res.off("close", onClose);
      w.requestEnded();
      resolve();
    };
    const onClose = (): void => {
      if (done) return;
      controller?.abort(new Error("the caller closed the connection"));
      finish();
    };
    res.on("close", onClose);

    const fail = (err: Error): void => {
      if (done) return;
      if (!res.headersSent) {
        const why = w.takeFailure() ?? err.message;
        sendJobError(
          res,
          new HttpError(502, `worker ${w.id} of endpoint ${endpointId} failed while handling the request (${why}); it was not retried`, {
            [WORKER_ID_HEADER]: w.id,
          }),
        );
      } else {
        res.destroy();
      }
      finish();
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
      },
      onResponseStart(_c, statusCode, headers) {
        // 1xx informational answers are the worker's business; only the final one is relayed.
        if (statusCode < 200) return;
        res.writeHead(statusCode, responseHeaders(headers, w.id));
      },
      onResponseData(c, chunk) {
        if (!res.write(chunk)) {
          c.pause();
          res.once("drain", () => c.resume());
        }
      },
      onResponseEnd() {
        res.end();
        finish();
      },
      onResponseError(_c, err) {
        fail(err);
      },
    };

    const body = hasBody(req);
    try {
      dispatch(pool, req, path, body, handler);
    } catch (err) {
      // Options undici refuses (it normally reports through the handler; this is the fallback).
      fail(err instanceof Error ? err : new Error(String(err)));
    }
    if (!body) req.resume();
  });
}

function dispatch(pool: Pool, req: IncomingMessage, path: string, body: boolean, handler: Dispatcher.DispatchHandler): void {
  pool.dispatch(
    {
      method: req.method ?? "GET",
      path,
      headers: requestHeaders(req.rawHeaders, req.headers.connection),
      body: body ? req : null,
      // Never re-sent: a non-idempotent request is what makes undici avoid replaying it.
      idempotent: false,
      // No request timeout: a worker may stream for as long as it likes (undici's timers would
      // count real time, which the emulator's time scale does not apply to).
      headersTimeout: 0,
      bodyTimeout: 0,
    },
    handler,
  );
}
