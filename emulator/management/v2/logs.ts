/**
 * /api/v2 log streams: getPodLogs (`GET /pods/{id}/logs`) and getWorkerLogs (`GET
 * /serverless/{id}/workers/{workerId}/logs`), as Server-Sent Events (logs/eventStream.ts). Where a
 * stream starts: `Last-Event-ID` "takes precedence over `since` and `tail`"; `since` is "ignored when
 * `Last-Event-ID` is provided" and makes `tail` ignored; else the last `tail` lines (default 100,
 * 0..5000). What a pod's and a worker's log hold: management/pods/podLogs.ts,
 * serverless/workerLogBook.ts.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Operation, Reply } from "../../http/router";
import { type LogStart, streamLog } from "../../logs/eventStream";
import { LogRing, parseLogTime } from "../../logs/logRing";
import { LOG_TAIL_DEFAULT, LogStreamQuery } from "../../vocabulary/schemas/v2/logs";
import { invalid, notFound } from "../errors";
import { endpointOf, podOf } from "../lookup";
import type { V2Context } from "./operation";

/** The documented failures of both streams (management-api-v2-paths.txt: 401 403 404 429). */
const LOG_ERRORS = [400, 404] as const;

/** The reference's header parameter of both streams. */
const LAST_EVENT_ID = {
  name: "Last-Event-ID",
  description:
    "SSE reconnect cursor: the id (a timestamp) of the last event received. Takes precedence over `since` and `tail`: the stream resumes after it.",
  format: "date-time",
};

/** Where the stream starts; a `Last-Event-ID` that is not a timestamp is a 400 naming it. */
function startOf(query: LogStreamQuery, headers: IncomingHttpHeaders): LogStart {
  const header = headers["last-event-id"];
  const lastEventId = Array.isArray(header) ? header[header.length - 1] : header;
  if (lastEventId !== undefined && lastEventId !== "") {
    const afterUs = parseLogTime(lastEventId);
    if (afterUs === undefined) {
      throw invalid(
        "Last-Event-ID",
        `must be the id of an event this stream sent, an RFC 3339 timestamp such as "2026-12-02T07:54:51.123456Z" (got ${JSON.stringify(lastEventId.slice(0, 80))}); ` +
          "leave it out to start from the last `tail` lines",
      );
    }
    return { afterUs };
  }
  if (query.since !== undefined) return { fromUs: parseLogTime(query.since) ?? 0 };
  return { tail: query.tail ?? LOG_TAIL_DEFAULT };
}

function streamed(current: () => LogRing | undefined, query: LogStreamQuery, headers: IncomingHttpHeaders): Reply {
  const request = { source: query.source, start: startOf(query, headers) };
  return { status: 200, stream: (res, answerHeaders) => streamLog(res, current, request, answerHeaders) };
}

export function v2LogOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /pods/{id}/logs", "getPodLogs", "pods:read", "Stream pod logs"],
      {
        query: LogStreamQuery,
        headers: [LAST_EVENT_ID],
        answer: [200, undefined, "Pod log event stream"],
        contentType: "text/event-stream",
        errors: LOG_ERRORS,
      },
      ({ account, id, query, headers }) => {
        const pod = podOf(account, id);
        // A pod restored from the state file has no log until something is written to it.
        ctx.podLogs.of(pod.id);
        return streamed(() => (account.pods.get(pod.id) === pod ? ctx.podLogs.find(pod.id) : undefined), query, headers);
      },
    ),
    route(
      ["GET /serverless/{id}/workers/{workerId}/logs", "getWorkerLogs", "serverless:read", "Stream serverless worker logs"],
      {
        query: LogStreamQuery,
        headers: [LAST_EVENT_ID],
        answer: [200, undefined, "Worker log event stream"],
        contentType: "text/event-stream",
        errors: LOG_ERRORS,
      },
      ({ account, id, params, query, headers }) => {
        const endpoint = endpointOf(account, id);
        const workerId = params["workerId"] ?? "";
        const kept = ctx.serverless.workerLog?.(endpoint.id, workerId);
        if (kept)
          return streamed(
            () => (account.endpoints.get(endpoint.id) === endpoint ? ctx.serverless.workerLog?.(endpoint.id, workerId) : undefined),
            query,
            headers,
          );
        // A listed worker with nothing written yet (a load-balancing endpoint's): an empty log.
        if (!ctx.serverless.workers(endpoint.id).some((w) => w.id === workerId)) throw notFound("worker");
        const empty = new LogRing(() => ctx.clock.now());
        return streamed(() => (account.endpoints.get(endpoint.id) === endpoint ? empty : undefined), query, headers);
      },
    ),
  ];
}
