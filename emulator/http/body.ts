/**
 * Reading a JSON request body, the one reader of every surface (/v1, /api/v2, the job API):
 * bounded in size (413) and in nesting depth (400), both checked before anything parses or walks it.
 */
import type { IncomingMessage } from "node:http";
import { HttpError, badRequest } from "./errors";

/** Payload limits are decimal, as the service states them: 1 MB is 1,000,000 bytes. */
export const MB = 1_000_000;

/**
 * Deepest nesting of arrays and objects accepted in a JSON body (the top-level object is level 1).
 * Deeper bodies get a 400 before they are parsed, so no later step (validation, storage, answers
 * that echo the value) can run out of stack on them.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Bytes of an oversized body read and discarded before answering 413. A client that sends its whole
 * body before reading the answer (as most blocking HTTP clients do) then gets the 413 instead of a
 * reset connection, and the connection stays usable. Past this bound the 413 is sent at once and
 * the connection closed.
 */
export const DRAIN_LIMIT_BYTES = 64 * MB;

/** What a 413 tells the client to do when the route says nothing more specific. */
const GENERIC_FIX = "send less data, or pass large data by reference (a URL or an object key)";

/**
 * A route's own body limit (a route-table entry declares it, http/router.ts): its size and what a
 * client must do when over it, said in the 413.
 */
export interface BodyLimit {
  readonly bytes: number;
  readonly fix: string;
}

/**
 * Reads the whole body. A body over `limitBytes` is drained (up to DRAIN_LIMIT_BYTES more) and then
 * answered with 413, so every client sees the same answer however it sends. `fix` is what the 413
 * advises.
 */
export function readBody(req: IncomingMessage, limitBytes: number, fix = GENERIC_FIX): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limitBytes + DRAIN_LIMIT_BYTES) {
      req.resume();
      reject(tooLarge(limitBytes, fix, true));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limitBytes;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > limitBytes) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (size > limitBytes + DRAIN_LIMIT_BYTES) reject(tooLarge(limitBytes, fix, true));
    });
    req.on("end", () => {
      if (over) reject(tooLarge(limitBytes, fix, false));
      else resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    });
    req.on("error", (error) => reject(badRequest(`could not read the request body: ${error.message}`)));
  });
}

function tooLarge(limitBytes: number, fix: string, close: boolean): HttpError {
  return new HttpError(
    413,
    `request body exceeds the limit of this route: it is larger than the ${formatBytes(limitBytes)} limit (${limitBytes} bytes); ${fix}`,
    // Past the drain bound the rest of the body is not worth reading: answer, then close.
    close ? { connection: "close" } : {},
  );
}

/** "10 MB", "64 KiB", "512 bytes": sizes as a person reads them. */
export function formatBytes(n: number): string {
  if (n >= MB && n % MB === 0) return `${n / MB} MB`;
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000} kB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * Byte offset where `body` nests arrays and objects deeper than `maxDepth`, or -1. Scans the bytes
 * without parsing; brackets inside strings do not count. The bytes it looks at are ASCII, which
 * never occur inside a multi-byte UTF-8 sequence.
 */
export function tooDeepAt(body: Buffer, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/** Parses a JSON body; an empty (or blank) body is `undefined`. Too deep or invalid JSON is a 400. */
export function parseJsonBody(body: Buffer): unknown {
  // Valid JSON nested more than MAX_JSON_DEPTH levels holds more than MAX_JSON_DEPTH opening
  // brackets and as many closing ones, so a body shorter than that is not scanned: it is either
  // shallow enough or not JSON, which the parser refuses. Most bodies are that short.
  const deepAt = body.length > 2 * MAX_JSON_DEPTH + 1 ? tooDeepAt(body, MAX_JSON_DEPTH) : -1;
  if (deepAt !== -1) {
    throw badRequest(
      `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at byte ${deepAt}); ` +
        `the limit is ${MAX_JSON_DEPTH} levels: flatten the structure, or send deep data as a JSON string`,
    );
  }
  const text = body.toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Parses a body that must be a JSON object; an empty body counts as `{}`. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const value = parseJsonBody(body);
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw badRequest(`request body must be a JSON object, got ${kind}`);
  }
  return value as Record<string, unknown>;
}
