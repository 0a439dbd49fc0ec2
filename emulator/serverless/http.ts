/**
 * HTTP plumbing for the job API: JSON answers and JSON errors. Every answer is
 * JSON (`{"error": "..."}` for failures) because the public clients parse every body as JSON.
 */
import type { ServerResponse } from "node:http";
import type { HttpError } from "../http/errors";
import { jsonText } from "../http/respond";

// One error class and one body reader for every surface of the emulator.
export { HttpError } from "../http/errors";
export { parseJsonBody, readBody } from "../http/body";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = jsonText(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { error: err.message }, err.headers);
}

export function queryOf(url: string | undefined): URLSearchParams | undefined {
  if (!url) return undefined;
  const q = url.indexOf("?");
  return q < 0 ? undefined : new URLSearchParams(url.slice(q + 1));
}
