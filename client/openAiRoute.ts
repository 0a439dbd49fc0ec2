/**
 * The job API's OpenAI-compatible route (`/openai/<route>`): the service turns the request into a
 * job whose input is `{"openai_route", "openai_input"}` and passes the worker's answer back, as
 * JSON or, for `"stream": true`, as server-sent events. Checks are done before sending, so a wrong
 * route or body fails at once with the value and the fix.
 */
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";
import { JobRequestError } from "./jobRequestError";
import { readServerSentEvents, type ServerSentEvent } from "./serverSentEvents";
import { pathOf } from "./transport";

export interface OpenAiRequest {
  /**
   * Milliseconds; default 315000 (the service waits up to 300 s for the job, plus a margin), or
   * the client's timeoutMs when that is longer. For `openai`: the whole call. For `openaiStream`:
   * the wait for the first event and each silence between two events.
   */
  timeoutMs?: number;
}

/** The data of the event that ends a successful stream (the OpenAI convention). */
export const DONE_DATA = "[DONE]";

/** A streamed answer that reported an error after it started (`event: error`, or data with `error`). */
export class OpenAiStreamError extends GpuCloudError {
  /** The route that was streaming, e.g. "/v1/chat/completions". */
  readonly route: string;
  /** The error event as sent. */
  readonly event: ServerSentEvent;
  constructor(route: string, event: ServerSentEvent, message: string) {
    super(`job API: the streamed answer of /openai${route} failed: ${message}`);
    this.route = route;
    this.event = event;
  }
}
nameErrorClass(OpenAiStreamError, "OpenAiStreamError");

/** `<endpointId>/openai<route>`, the route's own segments kept (already a path, not an id). */
export function openAiPath(endpointId: string, route: string): string {
  if (typeof route !== "string" || !route.startsWith("/") || route === "/") {
    throw new JobRequestError(
      "route",
      `job API: the OpenAI route must start with "/" and name a route (got ${JSON.stringify(route)}), e.g. "/v1/chat/completions"`,
    );
  }
  if (route.startsWith("/openai/")) {
    throw new JobRequestError(
      "route",
      `job API: give the OpenAI route without the /openai prefix (got ${JSON.stringify(route)}), e.g. ${JSON.stringify(route.slice("/openai".length))}`,
    );
  }
  return `${pathOf(endpointId, "openai")}${route.split("/").map(encodeURIComponent).join("/")}`;
}

function checkBody(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new JobRequestError(
      "body",
      `job API: an OpenAI request body must be a JSON object (got ${JSON.stringify(body) ?? String(body)}), e.g. {"model": "...", "messages": [...]}`,
    );
  }
  return body as Record<string, unknown>;
}

/** The body for `openai`: a streamed request would answer with events, not JSON. */
export function unstreamedBody(body: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  if (checkBody(body)["stream"] === true) {
    throw new JobRequestError(
      "body.stream",
      'job API: this body asks for a streamed answer ("stream": true); use openaiStream() for it, or leave "stream" out',
    );
  }
  return body;
}

/** The body for `openaiStream`: `"stream": true` is set for the caller. */
export function streamedBody(body: Record<string, unknown>): Record<string, unknown> {
  return { ...checkBody(body), stream: true };
}

/** The message of an error event, or undefined for an ordinary event. */
function streamError(event: ServerSentEvent): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    return event.event === "error" ? event.data : undefined;
  }
  const error = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["error"] : undefined;
  if (error === undefined || error === null) return event.event === "error" ? event.data : undefined;
  const message = typeof error === "object" ? (error as Record<string, unknown>)["message"] : error;
  return typeof message === "string" ? message : JSON.stringify(error);
}

/** The events of a streamed answer up to `[DONE]`; an error event throws OpenAiStreamError. */
export async function* readOpenAiEvents(body: AsyncIterable<Uint8Array>, route: string): AsyncGenerator<ServerSentEvent, void, undefined> {
  for await (const event of readServerSentEvents(body)) {
    if (event.data === DONE_DATA) return;
    const error = streamError(event);
    if (error !== undefined) throw new OpenAiStreamError(route, event, error);
    yield event;
  }
}
