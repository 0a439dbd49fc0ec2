// The client's error hierarchy. Every failure of a call to the service is an ApiError built by
// makeApiError, so callers can branch on the class (NotFoundError, RateLimitError, ...) and every
// message has the same shape: "<Operation> failed: <status> <reason>: <service's message>".
// All text is redacted here, once, before the Error captures its stack.

import { STATUS_CODES } from "node:http";
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";
import { redactText, redactUrl } from "./redact";
import { shouldRetry, type FailureKind } from "./retry";

export type { FailureKind } from "./retry";

export interface ApiErrorFields {
  /** HTTP status, or undefined when no answer arrived (connection error, timeout). */
  status: number | undefined;
  /** The service's own explanation (`error` / `message` / text body), redacted. */
  serviceMessage: string | undefined;
  /** Operation id from the reference, e.g. "CreatePod", "GetEndpoint", "RunJob". */
  operation: string;
  method: string;
  /** Path + query as sent (no scheme, host or credentials). */
  url: string;
  /** Whether the transport considered this failure worth retrying. */
  retryable: boolean;
  /** Set when there was no usable HTTP answer; undefined for plain HTTP error statuses. */
  kind: FailureKind | undefined;
  /** Milliseconds the service asked us to wait (Retry-After), when it said so. */
  retryAfterMs: number | undefined;
  /** The service's request id header, useful in support requests. */
  requestId: string | undefined;
  /** The answer's headers (lower-case names, values redacted); empty when no answer arrived. */
  headers: Readonly<Record<string, string>>;
}

export class ApiError extends GpuCloudError {
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly operation: string;
  readonly method: string;
  readonly url: string;
  readonly retryable: boolean;
  readonly kind: FailureKind | undefined;
  readonly retryAfterMs: number | undefined;
  readonly requestId: string | undefined;
  /** The answer's headers (lower-case names, redacted): RateLimit, Retry-After, request ids, ... */
  readonly headers: Readonly<Record<string, string>>;

  /** Prefer makeApiError, which picks the subclass and redacts; this only stores what it is given. */
  constructor(message: string, fields: ApiErrorFields, options?: { cause?: Error }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = fields.status;
    this.serviceMessage = fields.serviceMessage;
    this.operation = fields.operation;
    this.method = fields.method;
    this.url = fields.url;
    this.retryable = fields.retryable;
    this.kind = fields.kind;
    this.retryAfterMs = fields.retryAfterMs;
    this.requestId = fields.requestId;
    this.headers = fields.headers;
  }
}

/** 400 and 422: the service rejected the input (bad value, unknown key). */
export class BadRequestError extends ApiError {}
/** 401: missing or wrong API key. */
export class AuthenticationError extends ApiError {}
/** 403: the key is valid but not allowed to do this (it lacks the operation's scope). */
export class PermissionDeniedError extends ApiError {}
/** 402: the service refused to start something: the account's hourly spend cap or its balance. */
export class PaymentRequiredError extends ApiError {}
/** 410 from a /v1 URL: the service's REST v1 API is retired; the stack must point at v2. */
export class ApiRetiredError extends ApiError {}
/** 404: the resource does not exist (or no longer exists). */
export class NotFoundError extends ApiError {}
/** 409: conflicts with current state (name taken, volume still attached, ...). */
export class ConflictError extends ApiError {}
/** 413: request body too large. */
export class PayloadTooLargeError extends ApiError {}
/** 429: too many requests; `retryAfterMs` holds the service's hint when it gave one. */
export class RateLimitError extends ApiError {}
/** 5xx: the service failed. For a create, it may or may not have acted. */
export class ServerError extends ApiError {}
/** No answer: refused, reset, DNS failure. `kind` tells whether the request may have been sent. */
export class ConnectionError extends ApiError {}
/** No complete answer within the per-request timeout. The service may have acted. */
export class TimeoutError extends ApiError {}
/** A 2xx answer that is not JSON or does not match the expected shape. Never retried. */
export class ResponseValidationError extends ApiError {}

for (const [ctor, name] of [
  [ApiError, "ApiError"],
  [BadRequestError, "BadRequestError"],
  [AuthenticationError, "AuthenticationError"],
  [PermissionDeniedError, "PermissionDeniedError"],
  [PaymentRequiredError, "PaymentRequiredError"],
  [ApiRetiredError, "ApiRetiredError"],
  [NotFoundError, "NotFoundError"],
  [ConflictError, "ConflictError"],
  [PayloadTooLargeError, "PayloadTooLargeError"],
  [RateLimitError, "RateLimitError"],
  [ServerError, "ServerError"],
  [ConnectionError, "ConnectionError"],
  [TimeoutError, "TimeoutError"],
  [ResponseValidationError, "ResponseValidationError"],
] as const) {
  nameErrorClass(ctor, name);
}

export interface ApiErrorInput {
  operation: string;
  method: string;
  /** Path + query; scrubbed again here in case a secret slipped into it. */
  url: string;
  /** Whether the call is idempotent; decides `retryable` together with status/kind. */
  idempotent: boolean;
  status?: number | undefined;
  /** The service's message (already extracted from the body by parseErrorBody). */
  serviceMessage?: string | undefined;
  /** Failure without a usable HTTP answer (or with an invalid 2xx body). */
  kind?: FailureKind | undefined;
  /** What went wrong, for failures the service did not explain (network text, zod issues). */
  detail?: string | undefined;
  retryAfterMs?: number | undefined;
  requestId?: string | undefined;
  /** The answer's headers as received (multi-valued ones joined with ", "). */
  headers?: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** The underlying error; kept as a redacted copy so it cannot carry the key around. */
  cause?: unknown;
  /** Strings that must never appear in the error (the API key). */
  secrets?: readonly string[] | undefined;
}

type ApiErrorClass = new (message: string, fields: ApiErrorFields, options?: { cause?: Error }) => ApiError;

function classFor(status: number | undefined, kind: FailureKind | undefined, url: string): ApiErrorClass {
  if (kind === "invalid_response") return ResponseValidationError;
  if (kind === "timeout") return TimeoutError;
  if (kind === "connect" || kind === "connection") return ConnectionError;
  if (status === undefined) return ApiError;
  if (status === 400 || status === 422) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 402) return PaymentRequiredError;
  if (status === 403) return PermissionDeniedError;
  if (status === 410 && isV1Url(url)) return ApiRetiredError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 413) return PayloadTooLargeError;
  if (status === 429) return RateLimitError;
  if (status >= 500 && status <= 599) return ServerError;
  return ApiError;
}

/** The one place that turns a failed call into a typed, redacted error. */
export function makeApiError(input: ApiErrorInput): ApiError {
  const secrets = input.secrets ?? [];
  const scrub = (text: string | undefined): string | undefined => (text === undefined ? undefined : redactText(text, secrets));
  const serviceMessage = scrub(input.serviceMessage);
  const detail = scrub(input.detail);
  const url = redactUrl(input.url, secrets);
  const method = input.method.toUpperCase();
  const where = `(${method} ${url})`;

  let message: string;
  switch (input.kind) {
    case "connect":
      message = `${input.operation} failed: could not connect to the service ${where}: ${detail ?? "connection failed"}`;
      break;
    case "connection":
      message = `${input.operation} failed: connection lost before the service answered ${where}: ${detail ?? "connection closed"}`;
      break;
    case "timeout":
      message = `${input.operation} failed: ${detail ?? "timed out"} ${where}`;
      break;
    case "invalid_response":
      message = `${input.operation} failed: the ${statusLine(input.status)} answer did not match the expected shape ${where}: ${detail ?? "invalid body"}`;
      break;
    default:
      message = `${input.operation} failed: ${statusLine(input.status)}${serviceMessage ? `: ${serviceMessage}` : ""}`;
      message += statusAdvice(input.status, input.operation, method, url, serviceMessage);
  }

  const fields: ApiErrorFields = {
    status: input.status,
    serviceMessage,
    operation: input.operation,
    method,
    url,
    retryable: shouldRetry({ status: input.status, errorKind: input.kind, idempotent: input.idempotent }),
    kind: input.kind,
    retryAfterMs: input.retryAfterMs,
    requestId: scrub(input.requestId),
    headers: redactedHeaders(input.headers, secrets),
  };
  const cause = sanitizeCause(input.cause, secrets);
  const ErrorClass = classFor(input.status, input.kind, url);
  return new ErrorClass(redactText(message, secrets), fields, cause === undefined ? undefined : { cause });
}

function redactedHeaders(headers: ApiErrorInput["headers"], secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = redactText(Array.isArray(value) ? value.join(", ") : value, secrets);
  }
  return out;
}

/** What a rate-limit wait the transport will not take is about. */
export interface RateLimitWaitInput {
  operation: string;
  method: string;
  url: string;
  /** The spent window ("minute", "hour", "day"), when known. */
  window: string | undefined;
  /** Its quota, when the policy header gave it. */
  quota: number | undefined;
  /** When the window resets (transport clock, ms since the epoch). */
  resetAtMs: number;
  /** How long the wait would be. */
  waitMs: number;
  /** The longest wait the call may take (its deadline, or the transport's budget). */
  budgetMs: number;
  /** The 429 that asked for the wait, when there was one. */
  serviceMessage?: string | undefined;
  secrets?: readonly string[] | undefined;
}

/**
 * The RateLimitError for a wait longer than the call may take (an exhausted hour or day window, or
 * a long Retry-After): fails the call at once, naming the window, its reset and the fix.
 */
export function rateLimitWaitError(input: RateLimitWaitInput): RateLimitError {
  const window = input.window ? `the service's ${input.window} rate-limit window` : "the service's rate limit";
  const quota = input.quota !== undefined && input.window ? ` (${input.quota} requests per ${input.window})` : "";
  const message =
    `${input.operation} failed: ${window}${quota} is spent${input.serviceMessage ? ` (${input.serviceMessage})` : ""}; ` +
    `it resets at ${new Date(input.resetAtMs).toISOString()}, in ${duration(input.waitMs)}, later than this call may wait (${duration(input.budgetMs)}). ` +
    "Run again after the reset, spread the work over time (fewer resources per up, or `pulumi up --parallel` with a lower number), " +
    "or ask the service for a higher quota";
  const secrets = input.secrets ?? [];
  return new RateLimitError(redactText(message, secrets), {
    status: undefined,
    serviceMessage: input.serviceMessage === undefined ? undefined : redactText(input.serviceMessage, secrets),
    operation: input.operation,
    method: input.method.toUpperCase(),
    url: redactUrl(input.url, secrets),
    retryable: false,
    kind: undefined,
    retryAfterMs: input.waitMs,
    requestId: undefined,
    headers: {},
  });
}

/** "42 s", "30 min", "5 h 12 min". */
export function duration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.ceil(s / 60);
  if (min < 120) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** The management API's v1 paths: `/v1`, `/v1/...` (after any base path of a proxy). */
function isV1Url(url: string): boolean {
  return /(^|\/)v1(\/|\?|$)/.test(url.split("?")[0] ?? "");
}

/**
 * What to do about the answers the live service gives for reasons outside the request itself: a
 * retired API, a key without the operation's scope, a spend cap. Empty for every other status.
 */
function statusAdvice(
  status: number | undefined,
  operation: string,
  method: string,
  url: string,
  serviceMessage: string | undefined,
): string {
  if (status === 410 && isV1Url(url)) {
    return (
      ". The service's REST v1 API is retired (the live service answers 410 Gone since 2026-11-15): point the stack at the " +
      "management API v2, i.e. the same origin with /v2 instead of /v1: `pulumi config set gpucloud:apiUrl https://<api host>/v2` " +
      "(or GPUCLOUD_API_URL; the local emulator serves v2 at http://<host>:<port>/api/v2)"
    );
  }
  if (status === 403) {
    const scope = /scope "([^"]+)"/.exec(serviceMessage ?? "")?.[1];
    return scope !== undefined
      ? `. The API key lacks the scope "${scope}" that ${operation} (${method} ${url}) needs: use a key with it, or add it to this key in the console`
      : `. The API key is valid but lacks the permission (scope) for ${operation} (${method} ${url}): use a key whose permissions include it (Read/Write for this API in the console)`;
  }
  if (status === 402) {
    const cap = /spend cap of (\$[0-9.]+\/hour)/.exec(serviceMessage ?? "")?.[1];
    return (
      `. The service refused to start anything more for the account: ${cap !== undefined ? `its hourly spend cap of ${cap}` : "its hourly spend cap (GET /v2/account/limits, spendRate; $80/hour by default)"} ` +
      "or its balance. Stop or delete running pods and workers, lower workersMax, add funds, or ask the service for a higher cap; retrying does not help"
    );
  }
  return "";
}

function statusLine(status: number | undefined): string {
  if (status === undefined) return "no status";
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** A copy of the cause that keeps name, code and a redacted message, and nothing else. */
function sanitizeCause(cause: unknown, secrets: readonly string[]): Error | undefined {
  if (!(cause instanceof Error)) return undefined;
  const copy = new Error(redactText(cause.message, secrets));
  copy.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.defineProperty(copy, "code", { value: code, enumerable: false });
  return copy;
}

/** True for a NotFoundError (404). Gets and deletes throw it; callers treat it as "gone". */
export function isNotFound(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * True when a failed non-idempotent call (a create) may nevertheless have taken effect: the
 * connection broke after sending, the answer timed out, or the service answered 5xx.
 */
export function isAmbiguousFailure(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === "connection" || error.kind === "timeout") return true;
  return error.kind === undefined && error.status !== undefined && (error.status >= 500 || error.status === 408);
}
