/**
 * Errors that become HTTP responses, for every surface (/v1, /api/v2, the job API). Handlers throw
 * these; each surface renders them in its own body shape. Anything else thrown is a bug and
 * becomes a 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** One entry per field at fault, "invalid gpu.count: must be >= 1, got 0" (none: the message says it all); problem+json lists them. */
    readonly errors: readonly string[] = [],
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);

/** Same wording as the service: `{"error":"pod not found","status":404}`. */
export const notFound = (what: string): HttpError => new HttpError(404, `${what} not found`);

/** The request is valid but the current state forbids it (in use, name taken, no capacity). */
export const conflict = (message: string): HttpError => new HttpError(409, message);

/** Characters of a client-supplied value shown in an error message. */
const PREVIEW_CHARS = 80;

/**
 * Short, safe rendering of a client-supplied value for error messages. It stops as soon as it has
 * `PREVIEW_CHARS` characters, so a huge, deeply nested or cyclic value costs no more than a small one.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = preview(value, PREVIEW_CHARS + 1);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 3)}...` : text;
}

/**
 * JSON-like text of `value`, cut off once longer than `room`. Every nesting level spends at least
 * one character of `room`, so the recursion is at most `room` deep whatever the input.
 */
function preview(value: unknown, room: number): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "string") return JSON.stringify(value.length > room ? value.slice(0, Math.max(0, room)) : value);
    if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
    return String(value);
  }
  const array = Array.isArray(value);
  let out = array ? "[" : "{";
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (out.length >= room) return out;
    const item = (value as Record<string, unknown>)[key];
    const head = array ? "" : `${JSON.stringify(key.length > room ? key.slice(0, Math.max(0, room)) : key)}:`;
    out += `${first ? "" : ","}${head}`;
    out += preview(item, room - out.length);
    first = false;
  }
  return out + (array ? "]" : "}");
}
