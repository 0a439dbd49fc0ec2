/**
 * The /v2/<endpoint_id>/... job API: authentication, endpoint lookup, limits, body and query
 * validation, then one small function per operation. Every answer is JSON (but a streamed
 * /openai answer, which is server-sent events: openaiStream.ts); every failure is
 * `{"error": "..."}` with a 4xx that names the bad value (bad input never yields a 500).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointSpec, ServerlessDeps } from "./contract";
import type { EndpointRuntime } from "./endpoint";
import { describeValue } from "../http/errors";
import { HttpError, parseJsonBody, queryOf, readBody, sendError, sendJson } from "./http";
import { isFinal, toRecord, type Job } from "./job";
import type { LimitedRoute, ResolvedOptions } from "./options";
import type { LongPolls } from "./longPoll";
import { sendOpenAiJson, sendOpenAiStream } from "./openaiStream";
import { openaiJobInput, wantsStream } from "./openaiRequest";
import { streamHoldMs } from "./external/timing";
import { handleWorkerRoute, isWorkerRoute } from "./external/workerRoutes";
import { handleLb } from "./lb/lbRoutes";
import type { LbRuntime } from "./lb/lbRuntime";
import {
  describeIssues,
  JobRequestSchema,
  LimitQuery,
  parseQueryValue,
  QueryError,
  TtlQuery,
  WAIT_ERROR,
  WaitQuery,
  type JobRequest,
} from "./schemas";

/** What the routes need from the service. */
export interface RouteContext {
  readonly deps: ServerlessDeps;
  readonly opts: ResolvedOptions;
  readonly polls: LongPolls;
  readonly closed: boolean;
  runtimeFor(spec: EndpointSpec): EndpointRuntime;
  lbRuntimeFor(spec: EndpointSpec): LbRuntime;
}

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  accountId: string;
  rt: EndpointRuntime;
  query: URLSearchParams | undefined;
  /** Path segments after the operation (the job id, or the OpenAI route). */
  rest: string[];
}

type Op = {
  route: LimitedRoute;
  methods: readonly string[];
  needsId: boolean;
  run(c: Call): Promise<void> | void;
};

const GET_POST = ["GET", "POST"] as const;
const POST = ["POST"] as const;
const GET = ["GET"] as const;
const ANY = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

export function createRoutes(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void> {
  const { opts, polls } = ctx;

  // --- helpers -------------------------------------------------------------------------------

  const now = (c: Call): number => c.rt.clock.now();

  function queryValue<T>(c: Call, name: string, schema: Parameters<typeof parseQueryValue<T>>[0]): T | undefined {
    try {
      return parseQueryValue(schema, c.query?.get(name));
    } catch (err) {
      if (err instanceof QueryError) {
        // The service's exact wording for `wait`; other values also say what was received.
        const msg = err.message === WAIT_ERROR ? WAIT_ERROR : `${err.message}; got ${JSON.stringify(err.raw)}`;
        throw new HttpError(400, msg);
      }
      throw err;
    }
  }

  async function jobRequest(c: Call, limit: number): Promise<JobRequest> {
    const body = parseJsonBody(await readBody(c.req, limit));
    if (body === undefined) {
      throw new HttpError(400, 'request body must be a JSON object with an "input" object, e.g. {"input": {...}}');
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new HttpError(400, `request body must be a JSON object, got ${describeValue(body)}`);
    }
    const r = JobRequestSchema.safeParse(body);
    if (!r.success) throw new HttpError(400, describeIssues(r.error, body, "request body"));
    return r.data;
  }

  /** Control POSTs arrive with no body or `{}`: read (and bound) it, ignore its content. */
  async function ignoreBody(c: Call): Promise<void> {
    if (c.req.method === "GET" || c.req.method === "HEAD") return;
    parseJsonBody(await readBody(c.req, opts.maxPayloadBytes.other));
  }

  function job(c: Call): Job {
    const id = c.rest[0] ?? "";
    const j = c.rt.find(c.accountId, id);
    if (!j) throw new HttpError(404, `job ${JSON.stringify(id)} not found on endpoint ${c.rt.spec.id} (unknown, or deleted after its TTL or result retention)`);
    return j;
  }

  function syncRetention(waitMs: number): number {
    return Math.min(opts.syncRetentionMaxMs, Math.max(opts.syncRetentionMinMs, waitMs));
  }

  function sendRecord(c: Call, j: Job): void {
    if (j.gone) throw new HttpError(404, `job ${j.id} was deleted (its TTL passed or its endpoint was deleted)`);
    sendJson(c.res, 200, toRecord(j, now(c)));
  }

  // --- operations ----------------------------------------------------------------------------

  const ops: Record<string, Op> = {
    run: {
      route: "run",
      methods: POST,
      needsId: false,
      async run(c) {
        const body = await jobRequest(c, opts.maxPayloadBytes.run);
        const j = c.rt.submit(c.accountId, body, "run", opts.runRetentionMs);
        sendJson(c.res, 200, { id: j.id, status: "IN_QUEUE" });
      },
    },
    runsync: {
      route: "runsync",
      methods: POST,
      needsId: false,
      async run(c) {
        const wait = queryValue(c, "wait", WaitQuery) ?? opts.runsyncDefaultWaitMs;
        const body = await jobRequest(c, opts.maxPayloadBytes.runsync);
        const j = c.rt.submit(c.accountId, body, "runsync", syncRetention(wait));
        await polls.wait(j, wait, (x) => isFinal(x.status), c.res);
        if (j.gone) throw new HttpError(404, `job ${j.id} was deleted before it finished (its TTL passed)`);
        if (isFinal(j.status)) sendRecord(c, j);
        else sendJson(c.res, 200, { id: j.id, status: j.status });
      },
    },
    status: {
      route: "status",
      methods: GET_POST,
      needsId: true,
      async run(c) {
        await ignoreBody(c);
        const ttl = queryValue(c, "ttl", TtlQuery);
        const j = job(c);
        if (ttl !== undefined) c.rt.setTtl(j, ttl);
        sendRecord(c, j);
      },
    },
    "status-sync": {
      route: "status",
      methods: GET_POST,
      needsId: true,
      async run(c) {
        await ignoreBody(c);
        const wait = queryValue(c, "wait", WaitQuery) ?? opts.statusSyncDefaultWaitMs;
        const j = job(c);
        await polls.wait(j, wait, (x) => isFinal(x.status), c.res);
        sendRecord(c, j);
      },
    },
    stream: {
      route: "stream",
      methods: GET_POST,
      needsId: true,
      async run(c) {
        await ignoreBody(c);
        const j = job(c);
        await polls.wait(j, streamHoldMs(c.rt.clock, opts.streamWaitMs), (x) => c.rt.streamReady(x), c.res);
        if (j.gone) throw new HttpError(404, `job ${j.id} was deleted (its TTL passed or its endpoint was deleted)`);
        const items = c.rt.takeStream(j);
        const body: { status: string; stream: { output: unknown }[]; error?: string } = {
          status: j.status,
          stream: items.map((output) => ({ output })),
        };
        if (j.error !== undefined) body.error = j.error;
        sendJson(c.res, 200, body);
      },
    },
    cancel: {
      route: "cancel",
      methods: POST,
      needsId: true,
      async run(c) {
        await ignoreBody(c);
        const j = job(c);
        c.rt.cancel(j);
        // A job that had already finished keeps (and reports) its final state.
        sendJson(c.res, 200, { id: j.id, status: j.status });
      },
    },
    retry: {
      route: "retry",
      methods: POST,
      needsId: true,
      async run(c) {
        await ignoreBody(c);
        const j = job(c);
        c.rt.retry(j);
        sendJson(c.res, 200, { id: j.id, status: "IN_QUEUE" });
      },
    },
    "purge-queue": {
      route: "purgeQueue",
      methods: POST,
      needsId: false,
      async run(c) {
        await ignoreBody(c);
        const removed = c.rt.purge(c.accountId);
        sendJson(c.res, 200, { removed, status: "completed" });
      },
    },
    health: {
      route: "health",
      methods: GET,
      needsId: false,
      run(c) {
        sendJson(c.res, 200, c.rt.health());
      },
    },
    requests: {
      route: "requests",
      methods: GET,
      needsId: false,
      run(c) {
        const limit = queryValue(c, "limit", LimitQuery) ?? opts.requestsLogSize;
        sendJson(c.res, 200, { requests: c.rt.log.list(c.accountId, limit, now(c)) });
      },
    },
    openai: {
      route: "openai",
      methods: ANY,
      needsId: false,
      async run(c) {
        const route = "/" + c.rest.join("/");
        if (route === "/") throw new HttpError(404, "missing OpenAI route after /openai, e.g. /openai/v1/chat/completions");
        const body = parseJsonBody(await readBody(c.req, opts.maxPayloadBytes.openai));
        const input = openaiJobInput(route, body);
        const wait = opts.openaiWaitMs;
        const j = c.rt.submit(c.accountId, { input }, "openai", syncRetention(wait));
        const answer = { job: j, rt: c.rt, polls, res: c.res, waitMs: wait };
        await (wantsStream(body) ? sendOpenAiStream(answer) : sendOpenAiJson(answer));
      },
    },
  };

  const OP_NAMES = Object.keys(ops).join(", ");

  // --- entry ---------------------------------------------------------------------------------

  async function route(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (ctx.closed) throw new HttpError(503, "the job service is shutting down");
    const authorization = req.headers.authorization;
    if (!authorization || authorization.trim() === "" || authorization.trim() === "Bearer") {
      throw new HttpError(401, "missing API key: send the header Authorization: Bearer <api key>");
    }
    const accountId = ctx.deps.resolveAccount(authorization);
    if (!accountId) throw new HttpError(401, "the API key is not valid");

    const parts = pathname.split("/");
    // parts[0] is "" (pathname starts with "/").
    const endpointId = decodeSegment(parts[1] ?? "");
    const opName = parts[2] ?? "";
    if (!endpointId) throw new HttpError(404, "no endpoint id in the path; expected /v2/<endpoint_id>/<operation>");
    const spec = ctx.deps.getEndpoint(accountId, endpointId);
    if (!spec) throw new HttpError(404, `endpoint ${JSON.stringify(endpointId)} not found`);
    if (spec.type === "LOAD_BALANCER") {
      // Everything after the (raw) endpoint segment goes to the worker, still percent-encoded.
      const rest = pathname.slice(1 + (parts[1] ?? "").length);
      await handleLb(ctx.lbRuntimeFor(spec), req, res, accountId, spec, rest);
      return;
    }
    if (isWorkerRoute(opName)) {
      await handleWorkerRoute({ req, res, rt: ctx.runtimeFor(spec), opts, route: opName, segments: parts.slice(3) });
      return;
    }
    const op = Object.hasOwn(ops, opName) ? ops[opName] : undefined;
    if (!op) {
      throw new HttpError(404, `unknown operation ${JSON.stringify(opName)} on endpoint ${endpointId}; expected one of ${OP_NAMES}`);
    }
    const method = req.method ?? "GET";
    if (!op.methods.includes(method)) {
      throw new HttpError(405, `/${opName} accepts ${op.methods.join(" or ")}, got ${method}`, { allow: op.methods.join(", ") });
    }
    const rest = parts.slice(3).filter((s) => s !== "").map(decodeSegment);
    if (op.needsId && rest.length === 0) throw new HttpError(404, `missing job id: expected /${opName}/<job_id>`);
    if (opName !== "openai" && rest.length > (op.needsId ? 1 : 0)) {
      throw new HttpError(404, `no such path: ${pathname}; expected /v2/<endpoint_id>/${opName}${op.needsId ? "/<job_id>" : ""} and nothing after it`);
    }

    const rt = ctx.runtimeFor(spec);
    const admission = rt.limiter.admit(accountId, op.route, rt.readyWorkers);
    try {
      await op.run({ req, res, accountId, rt, query: queryOf(req.url), rest });
    } finally {
      admission.release();
    }
  }

  return async (req, res, pathname) => {
    try {
      await route(req, res, pathname);
    } catch (err) {
      if (err instanceof HttpError) sendError(res, err);
      else sendJson(res, 500, { error: `internal error in the job service: ${err instanceof Error ? err.message : String(err)}` });
      // An early error leaves the body unread: drain it so the connection can be reused.
      if (!req.complete) req.resume();
    }
  };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new HttpError(400, `path segment ${JSON.stringify(s)} is not valid percent-encoding`);
  }
}
