// What a failed HTTP exchange's error says about where it failed, from the error codes Node.js and
// undici put on it: the transport (transport.ts) and the connection check's single request
// (oneRequest.ts) type their failures by the same rules.

import type { FailureKind } from "./retry";

// Failure to set up a connection: nothing was sent.
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);
// An established connection broke: the request may have reached the service.
const SENT_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Error codes on an error, its cause and (for happy-eyeballs AggregateErrors) its members. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const visit = (e: unknown, depth: number): void => {
    if (depth > 3 || typeof e !== "object" || e === null) return;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    visit((e as { cause?: unknown }).cause, depth + 1);
    const members = (e as { errors?: unknown }).errors;
    if (Array.isArray(members)) for (const m of members) visit(m, depth + 1);
  };
  visit(error, 0);
  return codes;
}

/** Where an exchange failed: "connect" (nothing was sent), "timeout", or "connection" (broke after it was set up, or unknown). */
export function classifyNetworkError(error: unknown, timedOut: boolean): FailureKind {
  const codes = errorCodes(error);
  if (timedOut || codes.some((c) => TIMEOUT_CODES.has(c))) return "timeout";
  // "Never connected" only when a connect-phase code is present and nothing hints that bytes
  // went out on an established socket; when in doubt the failure counts as ambiguous.
  const connectPhase = codes.some((c) => CONNECT_CODES.has(c));
  const established = codes.some((c) => SENT_CODES.has(c));
  return connectPhase && !established ? "connect" : "connection";
}

/** The error's message, with its codes appended where the message does not name them. */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const codes = [...new Set(errorCodes(error))];
  const message =
    error.message ||
    (error instanceof AggregateError ? error.errors.map((e: unknown) => String((e as Error)?.message ?? e)).join("; ") : "");
  return codes.length > 0 && !codes.some((c) => message.includes(c)) ? `${message} (${codes.join(", ")})` : message;
}
