/**
 * Errors that become HTTP responses. Handlers throw these; the router turns them into
 * `{"error": "...", "status": N}` bodies. Anything else thrown is a bug and becomes a 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
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

/** Short, safe rendering of a client-supplied value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
