/**
 * The answer to an /openai/* request: the job's output as JSON, or, when the request body asks for
 * `"stream": true`, server-sent events made from the handler's stream chunks as they arrive.
 *
 * Framing (the OpenAI convention, which OpenAI-compatible servers and clients follow):
 *   - a chunk that is a string was framed by the handler (such servers yield `data: {...}\n\n`
 *     text) and is written as it is; any other chunk becomes one `data: <JSON>\n\n` event;
 *   - a COMPLETED job ends the body with `data: [DONE]\n\n` (unless the handler already sent it);
 *   - a job that fails, is cancelled, times out or is deleted after the first byte ends the body
 *     with `event: error` + `data: {"error": {"message", "type": "server_error", "code"}}` and no
 *     [DONE]; before the first byte it is an ordinary JSON error (500, 504 or 404) like the
 *     non-streamed answer.
 * A job whose handler did not stream sends its whole output as one event.
 */
import type { ServerResponse } from "node:http";
import type { EndpointRuntime } from "./endpoint";
import { HttpError } from "../http/errors";
import { isFinal, type Job } from "./job";
import type { LongPolls } from "./longPoll";

/** The event that ends a successful stream. */
export const SSE_DONE = "data: [DONE]\n\n";

/** One chunk as SSE text (see the framing rules above). */
export function sseFrame(chunk: unknown): string {
  return typeof chunk === "string" ? chunk : `data: ${JSON.stringify(chunk) ?? "null"}\n\n`;
}

function errorFrame(err: HttpError): string {
  return `event: error\ndata: ${JSON.stringify({ error: { message: err.message, type: "server_error", code: err.status } })}\n\n`;
}

/** Why a job gave no (more) answer: deleted, ended without completing, or still running after the wait. */
export function unfinishedError(job: Job, waitMs: number): HttpError {
  if (job.gone) return new HttpError(404, `job ${job.id} was deleted before it finished (its TTL passed)`);
  if (isFinal(job.status)) {
    return new HttpError(
      500,
      `the handler did not complete the request: job ${job.id} is ${job.status}${job.error ? `: ${job.error}` : ""}`,
    );
  }
  return new HttpError(504, `job ${job.id} did not finish within ${waitMs} ms; it is ${job.status} (poll /status/${job.id})`);
}

export interface OpenAiAnswer {
  job: Job;
  rt: EndpointRuntime;
  polls: LongPolls;
  res: ServerResponse;
  /** How long the request waits for the job, in service ms. */
  waitMs: number;
}

/** The non-streamed answer: the output of a COMPLETED job as the JSON body. */
export async function openAiJsonAnswer(a: OpenAiAnswer): Promise<{ status: 200; body: unknown }> {
  await a.polls.wait(a.job, a.waitMs, (x) => isFinal(x.status), a.res);
  if (a.job.status !== "COMPLETED" || a.job.gone) throw unfinishedError(a.job, a.waitMs);
  return { status: 200, body: a.job.output ?? null };
}

/** The streamed answer: one event per chunk, in order, written as the handler produces them. */
export async function sendOpenAiStream(a: OpenAiAnswer): Promise<void> {
  const { job, rt, polls, res } = a;
  const deadline = rt.clock.now() + a.waitMs;
  let wholeOutputSent = false;
  const take = (): unknown[] => {
    if (job.pending !== undefined && job.pending.length > 0) return rt.takeStream(job);
    if (!job.streamed && job.status === "COMPLETED" && !wholeOutputSent) {
      wholeOutputSent = true;
      return job.output === undefined ? [] : [job.output];
    }
    return [];
  };
  const next = async (): Promise<unknown[]> => {
    await polls.wait(job, Math.max(0, deadline - rt.clock.now()), (x) => rt.streamReady(x), res);
    return job.gone ? [] : take();
  };
  const clientGone = (): boolean => res.destroyed || res.writableEnded;

  // Until the first chunk the answer can still be an HTTP error.
  let chunks = await next();
  if (clientGone()) return;
  if (chunks.length === 0 && (job.gone || job.status !== "COMPLETED")) throw unfinishedError(job, a.waitMs);
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  // From here on a failure can only be reported in the stream, and the answer must always end.
  try {
    let last = "";
    for (;;) {
      for (const chunk of chunks) {
        last = sseFrame(chunk);
        res.write(last);
      }
      if (job.gone || isFinal(job.status) || rt.clock.now() >= deadline) break;
      chunks = await next();
      if (clientGone()) return;
    }
    if (job.status === "COMPLETED" && !job.gone) {
      if (!last.includes("[DONE]")) res.write(SSE_DONE);
    } else {
      res.write(errorFrame(unfinishedError(job, a.waitMs)));
    }
  } catch (err) {
    res.write(errorFrame(new HttpError(500, `internal error in the job service: ${err instanceof Error ? err.message : String(err)}`)));
  } finally {
    res.end();
  }
}
