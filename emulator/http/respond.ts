/** Writing responses: always JSON with an explicit length (keeps keep-alive connections reusable). */
import type { ServerResponse } from "node:http";
import { MAX_JSON_DEPTH } from "./body";

/** The JSON label of /v1 and /api/v2 answers. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** `contentType`: the surface's JSON label (the job API's is `application/json`, as its clients are used to). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  contentType: string = JSON_CONTENT_TYPE,
): void {
  const text = jsonText(body);
  // Every character takes one UTF-8 byte exactly when the text is ASCII (any other takes two or
  // more), the common case: its latin1 bytes are then its UTF-8 bytes, and node copies them out
  // with the header in one write instead of encoding them character by character into a buffer
  // of their own first. Other text is encoded once, into bytes node writes as they are.
  const length = Buffer.byteLength(text, "utf8");
  res.writeHead(status, {
    ...headers,
    "content-type": contentType,
    "content-length": length,
  });
  if (length === text.length) res.end(text, "latin1");
  else res.end(Buffer.from(text, "utf8"));
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { ...headers, "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

export function sendError(res: ServerResponse, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { error: message, status }, headers);
}

/**
 * JSON text of an answer. A value JSON.stringify cannot render (nested too deep for the stack,
 * cyclic, a BigInt: possible in what a user's handler returns) is answered with the offending parts
 * replaced by a string saying why, so one stored value can never make every later read of it fail.
 */
export function jsonText(body: unknown): string {
  try {
    return JSON.stringify(body) ?? "null";
  } catch {
    return JSON.stringify(renderable(body, 0, new Set())) ?? "null";
  }
}

function renderable(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value === null || typeof value !== "object") return value;
  const toJson = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJson === "function") return renderable(toJson.call(value) as unknown, depth + 1, ancestors);
  if (ancestors.has(value)) return "[not renderable as JSON: a reference to itself]";
  if (depth >= MAX_JSON_DEPTH) return `[not renderable as JSON: nested deeper than ${MAX_JSON_DEPTH} levels]`;
  ancestors.add(value);
  const out = Array.isArray(value)
    ? value.map((item: unknown) => renderable(item, depth + 1, ancestors))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderable(item, depth + 1, ancestors)]));
  ancestors.delete(value);
  return out;
}
