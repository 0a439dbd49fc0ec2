// The one HTTP transport: every call to the service (management API and job API) goes through
// Transport.request. It adds auth, a per-request timeout, retries (policy in retry.ts), and turns
// every failure into a typed, redacted ApiError (errors.ts). Nothing else in the package speaks
// HTTP, retries or reads error bodies.

import { DEFAULT_CREATE_TIMEOUT_MS } from "./config";
import { setTimeout as delay } from "node:timers/promises";
import type { Dispatcher, Pool } from "undici";
import { parseErrorBody } from "./errorBody";
import { GpuCloudError } from "./gpuCloudError";
import { makeApiError, rateLimitWaitError, ApiError, type ApiErrorInput } from "./errors";
import { redactText, stripUserInfo } from "./redact";
import {
  DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
  MAX_RETRY_AFTER_MS,
  backoffDelayMs,
  isIdempotentMethod,
  parseRateLimit,
  parseRetryAfterMs,
  windowNamedIn,
  type RateLimitWindow,
} from "./retry";
import { sharedGate, type GateTicket, type RateLimitGate } from "./rateLimitGate";
import { classifyNetworkError, describeNetworkError } from "./networkErrors";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 4;
export const DEFAULT_USER_AGENT = "pulumi-gpucloud";

export interface RetryInfo {
  operation: string;
  method: string;
  /** Path + query, redacted. */
  url: string;
  /** 1 for the first retry. */
  attempt: number;
  /** How long the transport waits before it. */
  delayMs: number;
  /** The failure being retried. */
  error: ApiError;
}

/** A wait for a spent rate-limit window (see TransportOptions.onRateLimitWait). */
export interface RateLimitWaitInfo {
  operation: string;
  method: string;
  /** "hour", "day", ... as the service names the window. */
  window: string;
  /** The window's quota, when the policy header gave it. */
  quota: number | undefined;
  /** How long the transport waits. */
  waitMs: number;
  /** When the window resets (ms since the epoch, transport clock). */
  resetAtMs: number;
}

export interface TransportOptions {
  /** Base URL including its version path, e.g. "http://127.0.0.1:8787/v1". */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout (headers and body), default 30 s. */
  timeoutMs?: number | undefined;
  /**
   * Timeout of a create (a POST whose operation creates: createPod, CreateEndpoint, ...), default
   * 120 s: the service may take longer to make a resource than to answer a read, and a create that
   * times out is never sent again (it may still be made), so its timeout fits the service, not the reads.
   */
  createTimeoutMs?: number | undefined;
  /** Retries after the first attempt, default 4 (so at most 5 attempts). */
  maxRetries?: number | undefined;
  userAgent?: string | undefined;
  /** Keep-alive connections to the origin, default 8. */
  connections?: number | undefined;
  /** Waits between retries; injectable so tests can record delays instead of sleeping. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Jitter source in [0, 1); injectable for deterministic tests. */
  random?: (() => number) | undefined;
  /** Told about every retry, so callers can log or count them (the transport never logs). */
  onRetry?: ((info: RetryInfo) => void) | undefined;
  /**
   * Told before every wait for a spent rate-limit window that lasts longer than a minute window
   * would (an hour or day window), so a long wait is logged, not silent.
   */
  onRateLimitWait?: ((info: RateLimitWaitInfo) => void) | undefined;
  /**
   * The longest wait for a rate-limit window a call takes when it has no `deadlineMs` (default 15
   * minutes): a longer one fails the call at once with a RateLimitError naming the window.
   */
  maxRateLimitWaitMs?: number | undefined;
  /** The clock pacing reads; injectable for tests. */
  now?: (() => number) | undefined;
  /** How list query parameters are written (default "comma", v2's documented style; v1 repeats keys). */
  arrayQuery?: ArrayQueryStyle | undefined;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type QueryScalar = string | number | boolean | Date;
/** Arrays are written as TransportOptions.arrayQuery says; undefined and null are left out. */
export type QueryValue = QueryScalar | readonly QueryScalar[] | undefined | null;

export interface RequestSpec {
  method: HttpMethod;
  /** Path below the base URL, starting with "/" (ids already encoded, see pathOf). */
  path: string;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  /** Serialised as JSON. */
  body?: unknown;
  /** Operation id for messages, e.g. "CreatePod". */
  operation: string;
  /** Defaults from the method: GET/PUT/PATCH/DELETE yes, POST no. */
  idempotent?: boolean | undefined;
  /** Restrict the accepted success statuses (default: any 2xx). */
  okStatuses?: readonly number[] | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Overrides the transport's timeout for this call (long polls). */
  timeoutMs?: number | undefined;
  /** Overrides the transport's retry count for this call. */
  maxRetries?: number | undefined;
  /** Cancels the call (and any wait between retries); rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * When the operation must be done (ms since the epoch, transport clock): a rate-limit wait that
   * would end later fails the call at once with a RateLimitError. Default: now + maxRateLimitWaitMs.
   */
  deadlineMs?: number | undefined;
  /**
   * Strings the body carries that must never appear in an error, besides the API key (an account
   * secret's value, which a service's validation message could echo back).
   */
  redact?: readonly string[] | undefined;
}

/**
 * A request whose answer is returned as it came, whatever its status (a load-balancing endpoint's
 * worker answers for itself: a 404 there is an answer, not a transport failure). Only a 429, which
 * the service gives before passing the request on, and connection failures are retried or thrown.
 */
export interface RawRequestSpec extends Omit<RequestSpec, "body" | "okStatuses"> {
  /** Sent as is; give its content-type in `headers`. */
  rawBody?: string | undefined;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text. */
  text: string;
}

/** One problem a schema found: where (the property path) and what. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * What the transport needs of a body's schema: a zod schema is one. Written out structurally so that
 * the public declarations (JobClient takes a Transport) do not name zod's types.
 */
export interface BodySchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** A 2xx answer whose body is read as it arrives (server-sent events). */
export interface StreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, piece by piece; stopping the iteration early closes the connection. */
  body: AsyncIterable<Uint8Array>;
}

export interface TypedRequestSpec<T> extends RequestSpec {
  /** Validates the 2xx body; an empty body is parsed as undefined. */
  schema: BodySchema<T>;
}

/** Joins path segments, percent-encoding each id: pathOf("pods", id, "start"). */
export function pathOf(...segments: readonly string[]): string {
  return `/${segments.map((s) => encodeURIComponent(s)).join("/")}`;
}

/**
 * `/{collection}/{id}[/{after}...]` for `operation`, refusing an empty id before anything is sent:
 * "GET /pods/" would be a list call, "DELETE /pods/" something worse.
 */
export function idPath(operation: string, collection: string, id: string, ...after: readonly string[]): string {
  return pathOf(collection, requireId(operation, id), ...after);
}

/** The id, refused before anything is sent when it is empty. */
export function requireId(operation: string, id: string): string {
  if (typeof id !== "string" || id.trim() === "") {
    throw new GpuCloudError(`${operation}: id must be a non-empty string (got ${JSON.stringify(id)})`);
  }
  return id;
}

/**
 * How a list goes into a query string. "comma": one comma-separated value, as the v2 reference
 * describes every array query parameter ("Comma-separated ..."; e.g. the catalog's `include`,
 * `product`, `countryCodes`). "repeat": the key once per item, OpenAPI's default (form, explode),
 * which the v1 reference's array parameters (`dataCenterId`, `gpuTypeId`) take as they state no style.
 */
export type ArrayQueryStyle = "comma" | "repeat";

/**
 * "/pods" + {a: 1, b: ["x", "y"]} -> "/pods?a=1&b=x%2Cy" ("comma") or "/pods?a=1&b=x&b=y" ("repeat").
 */
export function withQuery(
  path: string,
  query: Readonly<Record<string, QueryValue>> | undefined,
  arrays: ArrayQueryStyle = "comma",
): string {
  if (!query) return path;
  const params = new URLSearchParams();
  const scalar = (v: QueryScalar): string => (v instanceof Date ? v.toISOString() : String(v));
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) params.append(key, scalar(value as QueryScalar));
    else if (arrays === "repeat") for (const item of value as readonly QueryScalar[]) params.append(key, scalar(item));
    else if (value.length > 0) params.append(key, (value as readonly QueryScalar[]).map(scalar).join(","));
  }
  const qs = params.toString();
  return qs === "" ? path : `${path}?${qs}`;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What #send takes: a JSON request, or a raw one that accepts any status. */
/** A POST that makes a resource (the reference's operation ids: createPod, CreateEndpoint, ...). */
function isCreate(spec: RequestSpec): boolean {
  return spec.method === "POST" && /^create/i.test(spec.operation);
}

type SendSpec = RequestSpec & { rawBody?: string | undefined; anyStatus?: boolean; streamBody?: boolean };
/** `stream` is the unread body when the spec asked for `streamBody` (then `text` is ""). */
type OnSuccess<T> = (
  text: string,
  status: number,
  url: string,
  headers: Record<string, string | string[] | undefined>,
  stream?: AsyncIterable<Uint8Array>,
) => T;

/** Thrown inside an attempt; carries what the retry loop needs besides the error itself. */
interface AttemptFailure {
  error: ApiError;
  retryAfterHeader: string | undefined;
}

export class Transport {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly createTimeoutMs: number;
  readonly maxRetries: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  // A true private field: not enumerable, not shown by util.inspect, not serialisable.
  readonly #apiKey: string;
  /** One keep-alive pool per transport, i.e. per origin, made on the first request (see #poolOf). */
  #pool: Pool | undefined;
  #closed = false;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #userAgent: string;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;
  /** The account's rate-limit windows, shared by every transport of the process with this origin and key (rateLimitGate.ts). */
  readonly #gate: RateLimitGate;
  readonly #onRateLimitWait: ((info: RateLimitWaitInfo) => void) | undefined;
  readonly #maxRateLimitWaitMs: number;
  readonly #now: () => number;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new GpuCloudError(`Transport: baseUrl is not a valid URL (got "${stripUserInfo(options.baseUrl)}")`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new GpuCloudError(`Transport: baseUrl must be http(s) (got "${stripUserInfo(options.baseUrl)}")`);
    }
    if (!options.apiKey) throw new GpuCloudError("Transport: apiKey is empty");
    this.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.createTimeoutMs = options.createTimeoutMs ?? DEFAULT_CREATE_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.sleep = options.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
    this.random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
    this.#onRateLimitWait = options.onRateLimitWait;
    this.#maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
    this.#now = options.now ?? Date.now;
    this.#origin = url.origin;
    this.#options = options;
    // One gate per API, not per host: the emulator serves /v1, /api/v2 and the job API on one origin,
    // and only the management API's windows are the account's management quota.
    this.#gate = sharedGate(this.#now, `${url.origin}${this.#basePath}`, options.apiKey);
  }

  /**
   * A transport to another base URL (e.g. a load-balancing endpoint's own host) with this one's key,
   * timeouts, retries and hooks, and connections of its own. The caller closes it.
   */
  withBaseUrl(baseUrl: string): Transport {
    return new Transport({ ...this.#options, baseUrl });
  }

  /** Sends a request and returns the validated 2xx body. */
  async request<T>(spec: TypedRequestSpec<T>): Promise<T> {
    return this.#send(spec, (text, status, url) => this.#parseBody(spec, text, status, url));
  }

  /** Sends a request and returns its answer, any status but 429 (see RawRequestSpec). */
  async requestRaw(spec: RawRequestSpec): Promise<RawResponse> {
    return this.#send({ ...spec, anyStatus: true }, (text, status, _url, headers) => ({ status, headers, text }));
  }

  /**
   * Sends a request and returns its 2xx answer without reading the body, for answers that stream.
   * Failures before the answer starts are retried and typed as for `request`; once it has started,
   * `timeoutMs` bounds the silence between two pieces of the body, not the whole answer.
   */
  async requestStream(spec: RequestSpec): Promise<StreamResponse> {
    return this.#send({ ...spec, streamBody: true }, (_text, status, _url, headers, body) => ({
      status,
      headers,
      body: body ?? emptyBody(),
    }));
  }

  /** Sends a request whose answer body does not matter (deletes, start/stop): any 2xx resolves. */
  async requestVoid(spec: RequestSpec): Promise<void> {
    await this.#send(spec, () => undefined);
  }

  /** `text` with the API key, any bearer token and each of `extra` replaced by "[redacted]", as in the transport's errors. */
  redact(text: string, extra: readonly string[] = []): string {
    return redactText(text, [this.#apiKey, ...extra]);
  }

  /** Closes the keep-alive connections. The transport cannot be used afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#pool?.close();
  }

  /**
   * The keep-alive pool, made on the first request: undici is loaded only by a process that calls
   * the service (a preview of unchanged resources never does). Timeouts are enforced per request.
   */
  #poolOf(): Pool {
    if (this.#closed) throw new GpuCloudError("Transport: used after close()");
    if (!this.#pool) {
      const { Pool: UndiciPool } = require("undici") as typeof import("undici");
      this.#pool = new UndiciPool(this.#origin, { connections: this.#options.connections ?? 8 });
    }
    return this.#pool;
  }

  async #send<T>(spec: SendSpec, onSuccess: OnSuccess<T>): Promise<T> {
    const idempotent = spec.idempotent ?? isIdempotentMethod(spec.method);
    const maxRetries = spec.maxRetries ?? this.maxRetries;
    const deadlineMs = spec.deadlineMs ?? this.#now() + this.#maxRateLimitWaitMs;
    for (let attempt = 0; ; attempt++) {
      spec.signal?.throwIfAborted();
      const ticket = await this.#paced(spec, deadlineMs);
      try {
        return await this.#attempt(spec, idempotent, onSuccess, ticket);
      } catch (thrown) {
        // Not in flight any more, whatever failed (an answer has settled it already); a request
        // whose connection could not be made was not counted by the service.
        const failure = thrown as Partial<AttemptFailure>;
        this.#gate.settle(ticket, this.#now(), [], false, failure.error instanceof ApiError && failure.error.kind === "connect");
        if (!(failure.error instanceof ApiError)) throw thrown;
        const error = failure.error;
        if (!error.retryable || attempt >= maxRetries) throw error;
        // A 429's Retry-After is the exceeded window's reset: honoured at any length, within the deadline.
        const delayMs = backoffDelayMs(
          attempt,
          failure.retryAfterHeader,
          this.random,
          this.#now(),
          error.status === 429 ? Number.POSITIVE_INFINITY : MAX_RETRY_AFTER_MS,
        );
        if (error.status === 429) this.#checkRateLimitWait(spec, delayMs, deadlineMs, error, this.#gate.holding(this.#now()));
        this.#onRetry?.({
          operation: spec.operation,
          method: error.method,
          url: error.url,
          attempt: attempt + 1,
          delayMs,
          error,
        });
        await untilAborted(this.sleep(delayMs), spec.signal);
      }
    }
  }

  /**
   * Waits until the account's rate-limit windows have room for this request (rateLimitGate.ts) and
   * counts it; a wait for a spent window is reported (hour and day windows) or, past the deadline,
   * refused.
   */
  async #paced(spec: SendSpec, deadlineMs: number): Promise<GateTicket> {
    let now = this.#now();
    for (;;) {
      const decision = this.#gate.take(now);
      if (decision.go) return decision.ticket;
      this.#checkRateLimitWait(spec, decision.waitMs, deadlineMs, undefined, decision.window);
      const until = now + decision.waitMs;
      // Waiting for an answer uses the real timer as its bound, not the injectable sleep: a test's
      // sleep that returns at once would spin here without ever letting the answer in.
      const wait = decision.untilAnswer ? Promise.race([delay(decision.waitMs), this.#gate.nextAnswer()]) : this.sleep(decision.waitMs);
      await untilAborted(wait, spec.signal);
      // A wait for a reset has reached it, whatever the clock says (an injected one need not move).
      now = decision.untilAnswer ? this.#now() : Math.max(this.#now(), until);
    }
  }

  /**
   * Before a wait of `waitMs` for the rate limit (pacing, or a 429's Retry-After): fails the call at
   * once when the wait would end after its deadline, and reports a wait for a spent window longer
   * than a minute's.
   */
  #checkRateLimitWait(
    spec: SendSpec,
    waitMs: number,
    deadlineMs: number,
    refusal: ApiError | undefined,
    spent: RateLimitWindow | undefined,
  ): void {
    const now = this.#now();
    const named = windowNamedIn(refusal?.serviceMessage);
    const window = named ?? spent?.name;
    const quota = named === undefined || named === spent?.name ? spent?.quota : undefined;
    if (now + waitMs > deadlineMs) {
      throw rateLimitWaitError({
        operation: spec.operation,
        method: spec.method,
        url: withQuery(`${this.#basePath}${spec.path}`, spec.query, this.#options.arrayQuery),
        window,
        quota,
        resetAtMs: now + waitMs,
        waitMs,
        budgetMs: Math.max(0, deadlineMs - now),
        serviceMessage: refusal?.serviceMessage,
        secrets: [this.#apiKey],
      });
    }
    if (window !== undefined && (window !== "minute" || waitMs > 60_000) && (spent !== undefined || refusal !== undefined)) {
      this.#onRateLimitWait?.({ operation: spec.operation, method: spec.method, window, quota, waitMs, resetAtMs: now + waitMs });
    }
  }

  /** Gives the request back to the gate with the windows its answer reported (RateLimit / RateLimit-Policy, any status). */
  #observeRateLimit(ticket: GateTicket, headers: Record<string, string | string[] | undefined>): void {
    this.#gate.settle(ticket, this.#now(), parseRateLimit(header(headers, "ratelimit"), header(headers, "ratelimit-policy")));
  }

  async #attempt<T>(spec: SendSpec, idempotent: boolean, onSuccess: OnSuccess<T>, ticket: GateTicket): Promise<T> {
    const pathAndQuery = withQuery(`${this.#basePath}${spec.path}`, spec.query, this.#options.arrayQuery);
    const method = spec.method;
    const timeoutMs = spec.timeoutMs ?? (isCreate(spec) ? this.createTimeoutMs : this.timeoutMs);
    const fail = (
      fields: Omit<ApiErrorInput, "operation" | "method" | "url" | "idempotent" | "secrets">,
      retryAfterHeader?: string,
    ): AttemptFailure => ({
      error: makeApiError({
        ...fields,
        operation: spec.operation,
        method,
        url: pathAndQuery,
        idempotent,
        secrets: [this.#apiKey, ...(spec.redact ?? [])],
      }),
      retryAfterHeader,
    });

    const headers: Record<string, string> = {
      // v2 errors are RFC 9457 problem documents (application/problem+json): say the client takes them.
      accept: "application/json, application/problem+json",
      "user-agent": this.#userAgent,
      ...lowerKeys(spec.headers),
      authorization: `Bearer ${this.#apiKey}`,
    };
    let body: string | undefined = spec.rawBody;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }

    // One deadline for the whole exchange, headers and body, so a service that trickles its body
    // cannot hold a call forever (a streamed body is bounded by bodyTimeout, the silence between
    // pieces, instead). The caller's signal is chained in.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(spec.signal?.reason);
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });

    try {
      let status: number;
      let responseHeaders: Record<string, string | string[] | undefined>;
      let text = "";
      let stream: AsyncIterable<Uint8Array> | undefined;
      // Outside the try: a transport used after close() is the caller's mistake, not a network failure to retry.
      const pool = this.#poolOf();
      try {
        const response: Dispatcher.ResponseData = await pool.request({
          method,
          path: pathAndQuery,
          headers,
          body: body ?? null,
          signal: controller.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        status = response.statusCode;
        responseHeaders = response.headers;
        if (spec.streamBody && status >= 200 && status <= 299) stream = response.body;
        else text = await response.body.text();
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        const kind = classifyNetworkError(error, timedOut);
        throw fail({
          kind,
          detail: kind === "timeout" ? `no complete answer within ${timeoutMs} ms` : describeNetworkError(error),
          cause: error,
        });
      }

      this.#observeRateLimit(ticket, responseHeaders);
      const requestId = header(responseHeaders, "x-request-id");
      const ok = spec.anyStatus ? status !== 429 : spec.okStatuses ? spec.okStatuses.includes(status) : status >= 200 && status <= 299;
      if (ok) {
        try {
          return onSuccess(text, status, pathAndQuery, responseHeaders, stream);
        } catch (error) {
          if (error instanceof ApiError) throw { error, retryAfterHeader: undefined } satisfies AttemptFailure;
          throw error;
        }
      }
      if (status >= 200 && status <= 299) {
        throw fail({
          status,
          kind: "invalid_response",
          detail: `status ${status} is not one of ${spec.okStatuses?.join(", ")}`,
          requestId,
          headers: responseHeaders,
        });
      }
      const retryAfterHeader = header(responseHeaders, "retry-after");
      throw fail(
        {
          status,
          serviceMessage: parseErrorBody(text),
          retryAfterMs: parseRetryAfterMs(retryAfterHeader),
          requestId,
          headers: responseHeaders,
        },
        retryAfterHeader,
      );
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  /** JSON-parses and validates a 2xx body; failures are ResponseValidationErrors. */
  #parseBody<T>(spec: TypedRequestSpec<T>, text: string, status: number, url: string): T {
    const invalid = (detail: string): ApiError =>
      makeApiError({
        operation: spec.operation,
        method: spec.method,
        url,
        idempotent: false,
        status,
        kind: "invalid_response",
        detail,
        secrets: [this.#apiKey, ...(spec.redact ?? [])],
      });
    let data: unknown;
    if (text.trim() !== "") {
      try {
        data = JSON.parse(text);
      } catch {
        throw invalid(`body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
      }
    }
    const result = spec.schema.safeParse(data);
    if (result.success) return result.data;
    throw invalid(formatIssues(result.error.issues));
  }
}

/** "desiredStatus: Invalid input; workers.0.id: Required" (first few issues, paths first). */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
    return `${path}: ${issue.message}`;
  });
  const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : "";
  return `${shown.join("; ")}${more}`;
}

async function* emptyBody(): AsyncGenerator<Uint8Array, void, undefined> {}

/** Resolves with `wait`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    wait.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function lowerKeys(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers) for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}
