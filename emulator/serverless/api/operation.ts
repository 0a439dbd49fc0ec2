/**
 * One entry of the job API's route table: the methods and path it answers, the limit each request
 * counts against, its query and body schemas, its documentation (the management entry's
 * `OperationDoc`, http/router.ts) and its handler. The tables: `routes.ts` (what callers send),
 * `../external/workerRoutes.ts` (the worker pull protocol), `../lb/lbRoutes.ts` (load-balancing
 * endpoints) and `openapi.ts` (the description); `router.ts` serves them.
 *
 * What a job entry has that a management entry has not, each for the job API's wire: several
 * methods for one operation (some clients send POST to /status), a payload limit per route, the
 * order of checks the service's clients see (the query before the body is read), requests held
 * open (long polls) and answers the handler writes itself (server-sent events, proxied answers).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import type { OperationDoc } from "../../http/router";
import type { LimitedRoute, PayloadRoute } from "../options";
import { HttpError } from "../../http/errors";
import { type JobQuery, type JobQueryShape, parseJobQuery } from "../schemas";

/** Who sends an operation's requests; it decides how the router reads the path (router.ts). */
export type JobSide =
  /** A client of a queue-based endpoint: ids percent-decoded, nothing after them. */
  | "caller"
  /** A worker (WORKER-PROTOCOL.md): an id ends at its first `&`, what follows is query; later segments are ignored. */
  | "worker"
  /** Any request to a load-balancing endpoint: the path after the endpoint id goes to a worker as sent. */
  | "proxy"
  /** No key and no endpoint: the API's description. */
  | "public";

/** A request body: its limit, its schema, and what the handler gets from it. */
export interface JobBody<B> {
  /** The payload limit it is read under (options.maxPayloadBytes). */
  limit: PayloadRoute;
  /** What the description shows. Bodies are parsed as JSON whatever their content type. */
  schema: z.ZodType;
  /** Methods whose requests are answered without reading a body (a control route's GET). */
  notReadOn?: readonly string[];
  /** The handler's value made from the parsed JSON (undefined: empty body), or a 400 HttpError naming what is wrong. */
  parse(json: unknown, verb: string): B;
}

/** What a handler gets once path, query and body are read and valid. */
export interface JobCall<R, Q, B> {
  /** The caller's account ("" for public operations). */
  accountId: string;
  /** The endpoint's runtime (undefined for public operations). */
  rt: R;
  /** Path parameters after the operation's name, by the names in its path. */
  params: Readonly<Record<string, string>>;
  query: Q;
  body: B;
  req: IncomingMessage;
  /** Long polls park on it (a closed connection ends them); handlers that stream write to it. */
  res: ServerResponse;
}

/** A JSON answer (`body` undefined: an empty one, e.g. 204). */
export interface JsonAnswer {
  status: number;
  body?: unknown;
}

/** The handler has written its answer itself (server-sent events, a proxied answer). */
export const ANSWERED: unique symbol = Symbol("answered by the handler");

export type JobAnswer = JsonAnswer | typeof ANSWERED;

/** A request as the router hands it over: path parameters read, query and body not yet. */
export interface RawJobCall<R> extends Omit<JobCall<R, unknown, unknown>, "query" | "body"> {
  query: URLSearchParams | undefined;
  /** Reads and parses the JSON body under a payload limit (undefined: empty). */
  readBody(limit: PayloadRoute): Promise<unknown>;
}

export interface JobOperationSpec<R, S extends JobQueryShape, B> extends OperationDoc {
  side: JobSide;
  /** The methods it answers; the first is the one documented as its own, the others are tolerated. */
  methods: readonly [string, ...string[]];
  /** Path under /v2 with `{name}` segments: `/{endpoint_id}/status/{job_id}`. */
  path: string;
  /**
   * The last path parameter takes the rest of the path, several segments (`/openai/v1/models`);
   * `missing` is the 404 when there is none (once the request is counted, before its body is read).
   */
  tail?: { missing: string };
  /** The operation works on the endpoint's job queue: a load-balancing endpoint, which has none, answers 404. */
  queue?: true;
  /** What an empty 204 answer means, for operations that give one (a worker's long poll that found nothing). */
  noContent?: string;
  /** The per-endpoint limit (../limits.ts) each request counts against; none for workers and the description. */
  limit?: LimitedRoute;
  query?: S;
  body?: JobBody<B>;
  handle(call: JobCall<R, JobQuery<S>, B>): JobAnswer | Promise<JobAnswer>;
}

/** A table entry with its types erased, as the router and the description read it. */
export interface JobOperation<R> extends OperationDoc {
  side: JobSide;
  methods: readonly [string, ...string[]];
  path: string;
  /** The literal segment that names the operation: after the endpoint id (`status`), or the whole path of a public one. */
  verb: string;
  /** Names of the path parameters after `verb`. */
  params: readonly string[];
  /** Whether the last parameter takes the rest of the path. */
  tail: boolean;
  queue: boolean;
  noContent: string | undefined;
  limit: LimitedRoute | undefined;
  query: JobQueryShape;
  body: JobBody<unknown> | undefined;
  run(call: RawJobCall<R>): Promise<JobAnswer>;
}

const NO_QUERY: JobQueryShape = {};

export function defineJobOperation<R, S extends JobQueryShape = Record<never, never>, B = undefined>(
  spec: JobOperationSpec<R, S, B>,
): JobOperation<R> {
  const { query, body, handle, tail, queue, noContent, limit, ...doc } = spec;
  const segments = spec.path.split("/").filter((s) => s !== "");
  const names = (from: number): string[] => segments.slice(from).map((s) => s.slice(1, -1));
  // public: the whole path names it; proxy: everything after the endpoint id is its parameter.
  const verb = spec.side === "public" ? segments.join("/") : spec.side === "proxy" ? "" : (segments[1] ?? "");
  const params = spec.side === "public" ? [] : names(spec.side === "proxy" ? 1 : 2);
  const last = params[params.length - 1];
  return {
    ...doc,
    verb,
    params,
    tail: tail !== undefined,
    queue: queue ?? false,
    noContent,
    limit,
    query: query ?? NO_QUERY,
    body,
    async run(raw) {
      if (tail && last !== undefined && raw.params[last] === "") throw new HttpError(404, tail.missing);
      // The query is checked before the body is read: a bad `wait` is answered without reading 20 MB.
      const parsedQuery = query ? parseJobQuery(query, raw.query) : ({} as JobQuery<S>);
      const reads = body !== undefined && !body.notReadOn?.includes(raw.req.method ?? "GET");
      const parsedBody = (reads ? body.parse(await raw.readBody(body.limit), verb) : undefined) as B;
      return handle({
        accountId: raw.accountId,
        rt: raw.rt,
        params: raw.params,
        query: parsedQuery,
        body: parsedBody,
        req: raw.req,
        res: raw.res,
      });
    },
  };
}
