/**
 * RFC 9457 problem details, the error format of /api/v2 (and of the retired /v1's 410):
 * `application/problem+json` `{title, status, detail, errors?}`. It renders any HttpError (a
 * domain refusal is one); `errors[]` names each field at fault, so a 400 or 422 always says which
 * field was wrong, the value given and what would be accepted.
 */
import { STATUS_CODES, type ServerResponse } from "node:http";
import { HttpError } from "./errors";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

export function problemBody(error: unknown): ProblemBody {
  if (error instanceof HttpError) {
    const body: ProblemBody = { title: STATUS_CODES[error.status] ?? "Error", status: error.status, detail: error.message };
    if (error.errors.length > 0) body.errors = [...error.errors];
    else if (error.status === 400 || error.status === 422) body.errors = [error.message];
    return body;
  }
  // A bug, not a client error: say so without a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  return { title: STATUS_CODES[500] ?? "Internal Server Error", status: 500, detail: `internal error: ${message}` };
}

export function sendProblem(res: ServerResponse, error: unknown, extraHeaders: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = problemBody(error);
  const json = JSON.stringify(body);
  res.writeHead(body.status, {
    ...extraHeaders,
    ...(error instanceof HttpError ? error.headers : {}),
    "content-type": PROBLEM_CONTENT_TYPE,
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
}
