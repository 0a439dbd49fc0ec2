/**
 * How the job API answers, through the emulator's HTTP kit (../../http/respond.ts): JSON labelled
 * `application/json` (NOTES.md, job API: "every success answers HTTP 200 with Content-Type:
 * application/json"), and errors as `{"error": "..."}`, the body the service's clients read. An
 * answer is never written twice nor to a caller who went away (a long poll may end after either).
 */
import type { ServerResponse } from "node:http";
import { HttpError } from "../../http/errors";
import { sendEmpty, sendJson } from "../../http/respond";

export const JOB_JSON_CONTENT_TYPE = "application/json";

/** A JSON answer; `body` undefined: an empty one (204). */
export function sendJobJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) sendEmpty(res, status, headers);
  else sendJson(res, status, body, headers, JOB_JSON_CONTENT_TYPE);
}

/** An HttpError with its status and headers; anything else is a bug, answered 500 without a stack trace. */
export function sendJobError(res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) sendJobJson(res, error.status, { error: error.message }, error.headers);
  else sendJobJson(res, 500, { error: `internal error in the job service: ${error instanceof Error ? error.message : String(error)}` });
}
