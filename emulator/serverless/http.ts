/**
 * HTTP plumbing for the job API: JSON answers, JSON errors, bounded body reading. Every answer is
 * JSON (`{"error": "..."}` for failures) because the public clients parse every body as JSON.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** A failure with the HTTP status and the message the caller sees. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body) ?? "null";
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

/**
 * Reads the body up to `limit` bytes. A larger body is drained (so a keep-alive client still reads
 * our answer after it finishes sending) and answered with 413.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  const tooLarge = (): HttpError =>
    new HttpError(413, `request body is larger than the ${formatBytes(limit)} limit for this route`);
  if (Number.isFinite(declared) && declared > limit) {
    return new Promise((_, reject) => {
      req.on("end", () => reject(tooLarge()));
      req.on("error", () => reject(tooLarge()));
      req.resume();
    });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (over) reject(tooLarge());
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    });
    req.on("error", (err) => reject(new HttpError(400, `could not read request body: ${err.message}`)));
  });
}

/** Parses a JSON body; an empty body is `undefined` (the POSTs without arguments send none). */
export function parseJsonBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  const text = buf.toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function queryOf(url: string | undefined): URLSearchParams | undefined {
  if (!url) return undefined;
  const q = url.indexOf("?");
  return q < 0 ? undefined : new URLSearchParams(url.slice(q + 1));
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}
