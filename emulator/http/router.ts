/**
 * A small router for the management API: exact segments and `{param}` segments, static ones
 * matched first (routeTable.ts); one table of operations that is also the source of the OpenAPI
 * description (openapi.ts), so the two cannot drift. Requests that need no body and whose handler is synchronous are served without a single
 * await (the hot path of GET /pods/{id}).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { type BodyLimit, parseJsonObject, readBody } from "./body";
import { HttpError } from "./errors";
import { sendEmpty, sendError, sendJson, sendText } from "./respond";
import { RouteTable } from "./routeTable";
import { parseWith } from "./validation";

import type { InterceptPlan, Method, ReplyEvent, RouteInterceptor } from "./interception";

export type { InterceptPlan, InterceptResult, Method, ReplyEvent, RouteInterceptor } from "./interception";

export interface Reply {
  status: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  /** A non-JSON body (the docs page), sent with `contentType`. */
  text?: string;
  contentType?: string;
}

/** What a handler receives once auth, query and body have been validated. */
export interface Call<Q, B> {
  accountId: string;
  params: Readonly<Record<string, string>>;
  query: Q;
  body: B;
  /** The body as the client sent it (its parsed JSON, before the schema adds defaults): what a size rule measures. */
  sentBody: Readonly<Record<string, unknown>>;
}

/** Documentation of an operation (rendered into its surface's openapi.json: openapi.ts). */
export interface OperationDoc {
  operationId: string;
  summary: string;
  tag: string;
  /** components.schemas name of the request body. */
  bodyName?: string;
  response: { status: number; description: string; schemaName?: string; array?: boolean };
  /** What an empty 204 means, for an operation that may give one besides its answer (a pod action that deletes). */
  noContent?: string | undefined;
  /** Error statuses this operation can answer (401 is implied unless public). */
  errors: readonly number[];
  /** The API-key scope the operation needs (management v2; see management/account/scopes.ts). */
  scope?: string;
}

/**
 * How an operation reads its query or body with a schema: the value, or an HttpError in the
 * surface's words (validation.ts). `unknownFieldStatus` is the router's, for unknown body fields.
 */
export type Validate = <T>(schema: z.ZodType<T>, raw: unknown, where: "request body" | "query parameter", unknownFieldStatus: number) => T;

export interface OperationSpec<Q, B> extends OperationDoc {
  method: Method;
  /** Path after the surface's base, with `{name}` parameters: "/pods/{podId}". */
  path: string;
  /** No API key needed (openapi.json, docs). */
  public?: boolean;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * This route's own body limit, in place of the router's `bodyLimitBytes`. It is measured before
   * authentication, as the service's gateway measures such a body before the API sees the key
   * (management-api-v2-today.md 5.2: createPod's 413 is "rejected before auth"), so an oversized
   * body is refused whatever key it carries and is not counted against the account's rate limit.
   */
  bodyLimit?: BodyLimit;
  /** Advice for specific keys the body schema rejects (e.g. create-only fields in an update). */
  unknownFieldHints?: Readonly<Record<string, string>>;
  /** Default: the first problem as a 400 (an unknown body field: the router's unknownFieldStatus), naming the hints. */
  validate?: Validate;
  handle(call: Call<Q, B>): Reply | Promise<Reply>;
}

/** Raw inputs handed to an operation; it validates them itself. */
export interface RawCall {
  accountId: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: Record<string, unknown>;
  unknownFieldStatus: number;
}

/** An operation with its types erased, ready for the route table. */
export interface Operation extends OperationDoc {
  method: Method;
  path: string;
  public: boolean;
  querySchema: z.ZodType | undefined;
  bodySchema: z.ZodType | undefined;
  /** The route's own body limit, read before auth (OperationSpec.bodyLimit); undefined: the router's, after auth. */
  bodyLimit: BodyLimit | undefined;
  run(call: RawCall): Reply | Promise<Reply>;
  /**
   * `run` in two steps: the query and body are checked now (throwing as `run` does), the handler
   * runs when the returned function is called (an operation a fault applies later, InterceptPlan).
   */
  prepare(call: RawCall): () => Reply | Promise<Reply>;
}

export function defineOperation<Q = undefined, B = undefined>(spec: OperationSpec<Q, B>): Operation {
  const { query, body, bodyLimit, unknownFieldHints, validate, handle, ...doc } = spec;
  const read: Validate =
    validate ??
    ((schema, raw, where, unknownFieldStatus) =>
      where === "request body"
        ? parseWith(schema, raw, { where, unknownFieldStatus, unknownFieldHints })
        : parseWith(schema, raw, { where, unknownFieldStatus: 400 }));
  const prepare = (raw: RawCall): (() => Reply | Promise<Reply>) => {
    const parsedQuery = query ? read(query, raw.query, "query parameter", raw.unknownFieldStatus) : (undefined as Q);
    const parsedBody = body ? read(body, raw.body, "request body", raw.unknownFieldStatus) : (undefined as B);
    return () => handle({ accountId: raw.accountId, params: raw.params, query: parsedQuery, body: parsedBody, sentBody: raw.body });
  };
  return {
    ...doc,
    public: spec.public ?? false,
    querySchema: query,
    bodySchema: body,
    bodyLimit: body ? bodyLimit : undefined,
    run: (raw) => prepare(raw)(),
    prepare,
  };
}

export interface RouterOptions {
  bodyLimitBytes: number;
  unknownFieldStatus: number;
  resolveAccount(authorization: string | undefined): string | undefined;
  interceptor?: RouteInterceptor | undefined;
  /** Called after every successful POST/PATCH/DELETE (state persistence hooks in here). */
  onMutation?: (() => void) | undefined;
  /**
   * Makes a successful POST/PATCH/DELETE durable before it is answered (the state file's writer).
   * Concurrent mutations share one write. When it rejects, the request is answered 503 with the
   * reason instead of its success: a change that may not survive a restart is never acknowledged.
   */
  persist?: (() => Promise<void>) | undefined;
  /** Observer of every operation's reply, sent or lost (tests count creates with it). */
  onReply?: ((event: ReplyEvent) => void) | undefined;
  /** The path this router serves under, for messages (default "/v1"). */
  basePath?: string | undefined;
  /**
   * Writes an error answer (default: `{"error": "...", "status": N}`) with `headers` (those
   * `admit` gave the request) besides the error's own.
   */
  renderError?: ((res: ServerResponse, error: unknown, headers: AnswerHeaders) => void) | undefined;
  /**
   * Called after auth for every non-public operation, before faults and the body: returns headers
   * that every answer to the request carries (rate-limit state), or throws an HttpError to refuse
   * the request (429; the error carries its own headers).
   */
  admit?: ((accountId: string) => AnswerHeaders) | undefined;
  /**
   * The scopes of the key in `authorization`, or undefined when it has every scope. An operation
   * whose `scope` is not among them is refused 403 (after `admit`, so the refusal is counted and
   * carries the rate-limit state like any authenticated answer).
   */
  scopesOf?: ((authorization: string | undefined) => ReadonlySet<string> | undefined) | undefined;
}

/** Headers an answer carries besides its content headers. */
export type AnswerHeaders = Readonly<Record<string, string>>;

const NO_HEADERS: AnswerHeaders = {};

export class Router {
  /** Static segments before parameterised ones (routeTable.ts). */
  private readonly table: RouteTable<Operation>;
  private interceptor: RouteInterceptor | undefined;
  private readonly fail: (res: ServerResponse, error: unknown, headers: AnswerHeaders) => void;
  private readonly basePath: string;

  constructor(
    readonly operations: readonly Operation[],
    private readonly options: RouterOptions,
  ) {
    this.interceptor = options.interceptor;
    this.fail = options.renderError ?? fail;
    this.basePath = options.basePath ?? "/v1";
    this.table = new RouteTable(operations.map((op) => ({ method: op.method, path: op.path, value: op })));
  }

  /** Replaces the interceptor, e.g. when fault injection is switched on or off at run time. */
  setInterceptor(interceptor: RouteInterceptor | undefined): void {
    this.interceptor = interceptor;
  }

  /** Serves one request; `path` is the part after /v1, `search` the query string without "?". */
  handle(req: IncomingMessage, res: ServerResponse, path: string, search: string): void {
    let route: { op: Operation; params: Record<string, string> };
    let headers = NO_HEADERS;
    try {
      const match = this.match(req.method ?? "GET", path);
      if ("notAllowed" in match) {
        // A 405 to an authenticated caller is an authenticated answer: counted, with the rate-limit state.
        const caller = this.options.resolveAccount(req.headers.authorization);
        if (caller !== undefined && this.options.admit) headers = this.options.admit(caller);
        throw match.notAllowed;
      }
      route = match;
    } catch (error) {
      this.fail(res, error, headers);
      return;
    }
    const limit = route.op.bodyLimit;
    if (limit) {
      // The route's own limit is measured before anything else, auth included (OperationSpec.bodyLimit).
      readBody(req, limit.bytes, limit.fix).then(
        (body) => this.authorized(req, res, route, path, search, body),
        (error: unknown) => this.fail(res, error, NO_HEADERS),
      );
      return;
    }
    this.authorized(req, res, route, path, search, undefined);
  }

  /** Auth, the account's admission, the scope and the interceptor; then the body (`read`: already read). */
  private authorized(
    req: IncomingMessage,
    res: ServerResponse,
    { op, params }: { op: Operation; params: Record<string, string> },
    path: string,
    search: string,
    read: Buffer | undefined,
  ): void {
    let headers = NO_HEADERS;
    try {
      let accountId = "";
      if (!op.public) {
        const resolved = this.options.resolveAccount(req.headers.authorization);
        if (resolved === undefined) {
          throw new HttpError(
            401,
            req.headers.authorization ? "invalid API key" : "missing API key: send the header `Authorization: Bearer <api key>`",
          );
        }
        accountId = resolved;
        if (this.options.admit) headers = this.options.admit(accountId);
        if (op.scope !== undefined) checkScope(op, this.options.scopesOf?.(req.headers.authorization));
      }
      const raw: RawCall = {
        accountId,
        params,
        query: op.querySchema ? parseQuery(search) : {},
        body: {},
        unknownFieldStatus: this.options.unknownFieldStatus,
      };
      const interceptor = this.interceptor;
      if (interceptor) {
        // An interceptor may answer itself (an injected fault): its answers carry the headers too,
        // so they go on the response object, where every writer picks them up.
        for (const name in headers) res.setHeader(name, headers[name] as string);
        headers = NO_HEADERS;
        void Promise.resolve(interceptor({ operationId: op.operationId, method: op.method, path, accountId, req, res }))
          .then((decision) => {
            if (decision === true) return;
            const plan = typeof decision === "object" ? decision : undefined;
            this.withBody(req, res, op, raw, decision === "lose-answer", NO_HEADERS, read, plan);
          })
          .catch((error: unknown) => this.fail(res, error, NO_HEADERS));
        return;
      }
      this.withBody(req, res, op, raw, false, headers, read);
    } catch (error) {
      this.fail(res, error, headers);
    }
  }

  /**
   * `lost`: every outcome, success or failure, ends in a destroyed connection instead of an answer.
   * `headers`: what `admit` gave the request, for whichever answer it gets. `plan`: an
   * interceptor's plan for when the operation is applied and what follows it.
   */
  private withBody(
    req: IncomingMessage,
    res: ServerResponse,
    op: Operation,
    raw: RawCall,
    lost: boolean,
    headers: AnswerHeaders,
    read: Buffer | undefined,
    plan?: InterceptPlan,
  ): void {
    if (!op.bodySchema) {
      this.run(res, op, raw, lost, headers, plan);
      return;
    }
    const parsed = (buffer: Buffer): void => {
      try {
        raw.body = parseJsonObject(buffer);
        this.run(res, op, raw, lost, headers, plan);
      } catch (error) {
        this.failOrLose(res, error, lost, headers);
      }
    };
    if (read) parsed(read);
    else readBody(req, this.options.bodyLimitBytes).then(parsed, (error: unknown) => this.failOrLose(res, error, lost, headers));
  }

  private run(res: ServerResponse, op: Operation, raw: RawCall, lost: boolean, headers: AnswerHeaders, plan?: InterceptPlan): void {
    const applyWhen = plan?.applyWhen;
    if (applyWhen) {
      this.runLater(res, op, raw, lost, headers, plan, applyWhen);
      return;
    }
    let reply: Reply | Promise<Reply>;
    try {
      reply = op.run(raw);
    } catch (error) {
      this.failOrLose(res, error, lost, headers);
      return;
    }
    this.settle(res, op, raw, reply, lost, headers, plan);
  }

  /**
   * The request is checked now and applied when `applyWhen` says, whether or not its client is
   * still there (an answer to a client that left is lost, and `onReply` says so).
   */
  private runLater(
    res: ServerResponse,
    op: Operation,
    raw: RawCall,
    lost: boolean,
    headers: AnswerHeaders,
    plan: InterceptPlan,
    applyWhen: Promise<boolean>,
  ): void {
    let apply: () => Reply | Promise<Reply>;
    try {
      apply = op.prepare(raw);
    } catch (error) {
      this.failOrLose(res, error, lost, headers);
      return;
    }
    void applyWhen.then((go) => {
      if (!go) return;
      const gone = lost || res.destroyed;
      let reply: Reply | Promise<Reply>;
      try {
        reply = apply();
      } catch (error) {
        this.failOrLose(res, error, gone, headers);
        return;
      }
      this.settle(res, op, raw, reply, gone, headers, plan);
    });
  }

  private settle(
    res: ServerResponse,
    op: Operation,
    raw: RawCall,
    reply: Reply | Promise<Reply>,
    lost: boolean,
    headers: AnswerHeaders,
    plan: InterceptPlan | undefined,
  ): void {
    if (reply instanceof Promise) {
      reply.then(
        (r) => this.write(res, op, raw, r, lost, headers, plan),
        (error: unknown) => this.failOrLose(res, error, lost, headers),
      );
    } else {
      this.write(res, op, raw, reply, lost, headers, plan);
    }
  }

  private write(
    res: ServerResponse,
    op: Operation,
    raw: RawCall,
    reply: Reply,
    lost: boolean,
    headers: AnswerHeaders,
    plan?: InterceptPlan,
  ): void {
    // Before the save and the answer: the management handlers are synchronous, so their change and
    // this call are one step, and no list sees a resource the plan hides before it is hidden.
    plan?.onRan?.({ status: reply.status, body: reply.body });
    const mutated = op.method !== "GET" && reply.status < 400;
    if (mutated) this.options.onMutation?.();
    const persist = mutated ? this.options.persist : undefined;
    if (persist) {
      // Answer only once the change is durable: a crash right after the answer loses nothing.
      void persist().then(
        () => this.send(res, op, raw, reply, lost, headers),
        (error: unknown) => this.failOrLose(res, notSaved(error), lost, headers),
      );
      return;
    }
    this.send(res, op, raw, reply, lost, headers);
  }

  private failOrLose(res: ServerResponse, error: unknown, lost: boolean, headers: AnswerHeaders): void {
    if (lost) loseAnswer(res);
    else this.fail(res, error, headers);
  }

  private send(res: ServerResponse, op: Operation, raw: RawCall, reply: Reply, lost: boolean, headers: AnswerHeaders): void {
    if (lost) loseAnswer(res);
    else if (reply.text !== undefined) sendText(res, reply.status, reply.text, reply.contentType ?? "text/plain; charset=utf-8", headers);
    else if (reply.body === undefined) sendEmpty(res, reply.status, headers);
    else sendJson(res, reply.status, reply.body, headers);
    this.options.onReply?.({
      basePath: this.basePath,
      operationId: op.operationId,
      method: op.method,
      accountId: raw.accountId,
      params: raw.params,
      status: reply.status,
      body: reply.body,
      lost,
    });
  }

  private match(method: string, path: string): { op: Operation; params: Record<string, string> } | { notAllowed: HttpError } {
    const match = this.table.match(method, path);
    if (match === undefined) throw new HttpError(404, `no such operation: ${method} ${this.basePath}${path}`);
    if ("allowed" in match) {
      const allowed = match.allowed.join(", ");
      return {
        notAllowed: new HttpError(405, `method ${method} is not allowed on ${this.basePath}${path}; allowed: ${allowed}`, {
          allow: allowed,
        }),
      };
    }
    return { op: match.found.value, params: match.params };
  }
}

/** 403 when the key's scopes (undefined: all) do not include the operation's. */
function checkScope(op: Operation, scopes: ReadonlySet<string> | undefined): void {
  if (scopes === undefined || op.scope === undefined || scopes.has(op.scope)) return;
  const held = scopes.size > 0 ? [...scopes].join(", ") : "none";
  throw new HttpError(
    403,
    `access denied: ${op.operationId} (${op.method} ${op.path}) needs the API key scope "${op.scope}", which this key lacks (its scopes: ${held}); ` +
      `use a key with "${op.scope}" or add it to this key`,
  );
}

/** Query string to a plain object; a repeated key becomes an array (`?gpuTypeId=a&gpuTypeId=b`). */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (search === "") return out;
  for (const [key, value] of new URLSearchParams(search)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

/** The change was made in memory but could not be written to the state file. */
function notSaved(error: unknown): HttpError {
  const reason = error instanceof Error ? error.message : String(error);
  return new HttpError(
    503,
    `the change was made but could not be saved to the state file (${reason}), so it would be lost if the emulator stopped now; ` +
      "the emulator keeps retrying the write: free disk space or fix the permissions of the state file's directory, then check the resource and retry if needed",
    { "retry-after": "1" },
  );
}

/** The operation ran (or failed) but the client gets no answer: the connection is cut. */
function loseAnswer(res: ServerResponse): void {
  res.socket?.destroy();
  res.destroy();
}

export function fail(res: ServerResponse, error: unknown, headers: AnswerHeaders = NO_HEADERS): void {
  if (error instanceof HttpError) {
    sendError(res, error.status, error.message, { ...headers, ...error.headers });
  } else {
    // A bug, not a client error: say so without leaking a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    sendError(res, 500, `internal error: ${message}`, headers);
  }
}
