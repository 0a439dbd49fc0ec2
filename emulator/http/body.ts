/** Reading a JSON request body with a size limit. */
import type { IncomingMessage } from "node:http";
import { HttpError, badRequest } from "./errors";

/** Reads the whole body; past `limitBytes` it stops reading and throws a 413. */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume(); // discard, so the response can still be written
    return Promise.reject(tooLarge(limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limitBytes) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks));
    });
    req.on("error", (error) => {
      if (!failed) {
        failed = true;
        reject(error);
      }
    });
  });
}

function tooLarge(limitBytes: number): HttpError {
  // Close the connection afterwards: the rest of an oversized body is not worth reading.
  return new HttpError(413, `request body exceeds the limit of ${limitBytes} bytes`, { connection: "close" });
}

/** Parses a body that must be a JSON object; an empty body counts as `{}`. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const text = body.toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw badRequest(`request body must be a JSON object, got ${kind}`);
  }
  return value as Record<string, unknown>;
}
