/**
 * A small router for the management API: exact segments and `{param}` segments, one table of
 * operations that is also the source of the OpenAPI description (openapi.ts), so the two cannot
 * drift. Requests that need no body and whose handler is synchronous are served without a single
 * await (the hot path of GET /pods/{id}).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { parseJsonObject, readBody } from "./body";
import { HttpError, badRequest } from "./errors";
import { sendEmpty, sendError, sendJson, sendText } from "./respond";
import { parseWith } from "./validation";

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

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
}

/** Documentation of an operation (rendered into /v1/openapi.json). */
export interface OperationDoc {
  operationId: string;
  summary: string;
  tag: string;
  /** components.schemas name of the request body. */
  bodyName?: string;
  response: { status: number; description: string; schemaName?: string; array?: boolean };
  /** Error statuses this operation can answer (401 is implied unless public). */
  errors: readonly number[];
}

export interface OperationSpec<Q, B> extends OperationDoc {
  method: Method;
  /** Path after /v1, with `{name}` parameters: "/pods/{podId}". */
  path: string;
  /** No API key needed (openapi.json, docs). */
  public?: boolean;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Advice for specific keys the body schema rejects (e.g. create-only fields in an update). */
  unknownFieldHints?: Readonly<Record<string, string>>;
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
  run(call: RawCall): Reply | Promise<Reply>;
}

export function defineOperation<Q = undefined, B = undefined>(spec: OperationSpec<Q, B>): Operation {
  const { query, body, unknownFieldHints, handle, ...doc } = spec;
  return {
    ...doc,
    public: spec.public ?? false,
    querySchema: query,
    bodySchema: body,
    run(raw) {
      const parsedQuery = query
        ? parseWith(query, raw.query, { where: "query parameter", unknownFieldStatus: 400 })
        : (undefined as Q);
      const parsedBody = body
        ? parseWith(body, raw.body, { where: "request body", unknownFieldStatus: raw.unknownFieldStatus, unknownFieldHints })
        : (undefined as B);
      return handle({ accountId: raw.accountId, params: raw.params, query: parsedQuery, body: parsedBody });
    },
  };
}

/**
 * Fault-injection seam (not implemented here): called after auth, before the body is read.
 * Return true when the interceptor has written the response itself (e.g. an injected 503),
 * false to let the operation run.
 */
export type RouteInterceptor = (call: {
  operationId: string;
  method: Method;
  path: string;
  accountId: string;
  req: IncomingMessage;
  res: ServerResponse;
}) => boolean | Promise<boolean>;

export interface RouterOptions {
  bodyLimitBytes: number;
  unknownFieldStatus: number;
  resolveAccount(authorization: string | undefined): string | undefined;
  interceptor?: RouteInterceptor | undefined;
  /** Called after every successful POST/PATCH/DELETE (state persistence hooks in here). */
  onMutation?: (() => void) | undefined;
}

interface CompiledRoute {
  op: Operation;
  segments: string[];
}

export class Router {
  /** Routes by segment count: a request only compares against paths of its own length. */
  private readonly byLength = new Map<number, CompiledRoute[]>();

  constructor(
    readonly operations: readonly Operation[],
    private readonly options: RouterOptions,
  ) {
    for (const op of operations) {
      const segments = op.path.split("/").filter((s) => s !== "");
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ op, segments });
      this.byLength.set(segments.length, list);
    }
  }

  /** Serves one request; `path` is the part after /v1, `search` the query string without "?". */
  handle(req: IncomingMessage, res: ServerResponse, path: string, search: string): void {
    try {
      const match = this.match(req.method ?? "GET", path);
      const { op, params } = match;
      let accountId = "";
      if (!op.public) {
        const resolved = this.options.resolveAccount(req.headers.authorization);
        if (resolved === undefined) {
          throw new HttpError(
            401,
            req.headers.authorization
              ? "invalid API key"
              : "missing API key: send the header `Authorization: Bearer <api key>`",
          );
        }
        accountId = resolved;
      }
      const raw: RawCall = {
        accountId,
        params,
        query: op.querySchema ? parseQuery(search) : {},
        body: {},
        unknownFieldStatus: this.options.unknownFieldStatus,
      };
      const interceptor = this.options.interceptor;
      if (interceptor) {
        void Promise.resolve(interceptor({ operationId: op.operationId, method: op.method, path, accountId, req, res }))
          .then((handled) => (handled ? undefined : this.withBody(req, res, op, raw)))
          .catch((error: unknown) => fail(res, error));
        return;
      }
      this.withBody(req, res, op, raw);
    } catch (error) {
      fail(res, error);
    }
  }

  private withBody(req: IncomingMessage, res: ServerResponse, op: Operation, raw: RawCall): void {
    if (!op.bodySchema) {
      this.run(res, op, raw);
      return;
    }
    readBody(req, this.options.bodyLimitBytes).then(
      (buffer) => {
        try {
          raw.body = parseJsonObject(buffer);
          this.run(res, op, raw);
        } catch (error) {
          fail(res, error);
        }
      },
      (error: unknown) => fail(res, error),
    );
  }

  private run(res: ServerResponse, op: Operation, raw: RawCall): void {
    const reply = op.run(raw);
    if (reply instanceof Promise) {
      reply.then(
        (r) => this.write(res, op, r),
        (error: unknown) => fail(res, error),
      );
    } else {
      this.write(res, op, reply);
    }
  }

  private write(res: ServerResponse, op: Operation, reply: Reply): void {
    if (reply.text !== undefined) sendText(res, reply.status, reply.text, reply.contentType ?? "text/plain; charset=utf-8");
    else if (reply.body === undefined) sendEmpty(res, reply.status);
    else sendJson(res, reply.status, reply.body);
    if (op.method !== "GET" && reply.status < 400) this.options.onMutation?.();
  }

  private match(method: string, path: string): { op: Operation; params: Record<string, string> } {
    const parts = path.split("/").filter((s) => s !== "");
    const allowed: string[] = [];
    for (const route of this.byLength.get(parts.length) ?? []) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.op.method === method) return { op: route.op, params };
      allowed.push(route.op.method);
    }
    if (allowed.length > 0) {
      throw new HttpError(405, `method ${method} is not allowed on /v1${path}; allowed: ${allowed.join(", ")}`, {
        allow: allowed.join(", "),
      });
    }
    throw new HttpError(404, `no such operation: ${method} /v1${path}`);
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    const got = parts[i] as string;
    if (want.startsWith("{")) {
      params ??= {};
      params[want.slice(1, -1)] = decodeSegment(got);
    } else if (want !== got) {
      return undefined;
    }
  }
  return params ?? {};
}

function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
  }
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

export function fail(res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    sendError(res, error.status, error.message, error.headers);
  } else {
    // A bug, not a client error: say so without leaking a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    sendError(res, 500, `internal error: ${message}`);
  }
}
