/**
 * Serves the job API (`/v2/...`) from its route table. The order of checks is the one the
 * service's clients see, and each step's answer is the job API's (`{"error": "..."}`, answers.ts):
 *
 *   public operations (the description), then: 503 while shutting down, 401 without a valid key,
 *   404 unknown endpoint; a load-balancing endpoint's requests all go to its one operation (404
 *   for the queue's operations, which it has not); otherwise the operation named after the
 *   endpoint id (404 listing the callers' operations), 405 for a method it does not answer (with
 *   `Allow`), 400/404 for its path parameters; then the limit it counts against (429), injected
 *   faults, and the operation (query, body, handler).
 *
 * Routes match the whole path: a caller's operation takes nothing after its parameters. Path
 * parameters are percent-decoded; a worker's ids end at their first `&` (WORKER-PROTOCOL.md).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJsonBody, readBody } from "../../http/body";
import { HttpError } from "../../http/errors";
import type { EndpointSpec, JobInterceptor, ServerlessDeps } from "../contract";
import type { EndpointRuntime } from "../endpoint";
import type { LbRuntime } from "../lb/lbRuntime";
import { noQueue } from "../lb/lbRoutes";
import type { Admission, LimitedRuntime } from "../limits";
import type { ResolvedOptions } from "../options";
import { sendJobError, sendJobJson } from "./answers";
import { ANSWERED, type JobOperation, type RawJobCall } from "./operation";

/** What the router needs from the service. */
export interface JobRouterContext {
  readonly deps: ServerlessDeps;
  readonly opts: ResolvedOptions;
  readonly closed: boolean;
  runtimeFor(spec: EndpointSpec): EndpointRuntime;
  lbRuntimeFor(spec: EndpointSpec): LbRuntime;
}

/** The route table, by what a request reaches. */
export interface JobTable {
  /** Needs no key and names no endpoint (the description). */
  public: readonly JobOperation<undefined>[];
  /** A queue-based endpoint's operations: the callers' and the workers'. */
  queue: readonly JobOperation<EndpointRuntime>[];
  /** Every request to a load-balancing endpoint. */
  lb: JobOperation<LbRuntime>;
}

export class JobRouter {
  private interceptor: JobInterceptor | undefined = undefined;
  private readonly publicByPath: ReadonlyMap<string, JobOperation<undefined>>;
  private readonly byVerb: ReadonlyMap<string, JobOperation<EndpointRuntime>>;
  /** What an unknown operation's 404 lists: the callers' operations, in table order. */
  private readonly callerVerbs: string;
  /** Operations a load-balancing endpoint answers 404, having no queue. */
  private readonly queueVerbs: ReadonlySet<string>;

  constructor(
    private readonly ctx: JobRouterContext,
    private readonly table: JobTable,
  ) {
    this.publicByPath = new Map(table.public.map((op) => [op.verb, op]));
    this.byVerb = new Map(table.queue.map((op) => [op.verb, op]));
    this.callerVerbs = [...new Set(table.queue.filter((op) => op.side === "caller").map((op) => op.verb))].join(", ");
    this.queueVerbs = new Set(table.queue.filter((op) => op.queue).map((op) => op.verb));
  }

  /** Injected faults (emulator/faults) on or off. */
  setInterceptor(interceptor: JobInterceptor | undefined): void {
    this.interceptor = interceptor;
  }

  /** Serves one request; `pathname` is the path after /v2 (`/abc123/run`). Never rejects. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> => {
    try {
      await this.route(req, res, pathname);
    } catch (error) {
      sendJobError(res, error);
      // An early error leaves the body unread: drain it so the connection can be reused.
      if (!req.complete) req.resume();
    }
  };

  private async route(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const parts = pathname.split("/");
    const publicOp = this.publicByPath.get(pathname.slice(1));
    if (publicOp) {
      checkMethod(publicOp, req.method ?? "GET");
      await this.serve(publicOp, { accountId: "", rt: undefined, params: {}, query: queryOf(req.url), req, res });
      return;
    }
    if (this.ctx.closed) throw new HttpError(503, "the job service is shutting down");
    const accountId = this.authenticate(req.headers.authorization);
    // parts[0] is "" (pathname starts with "/").
    const endpointId = decodeSegment(parts[1] ?? "");
    if (!endpointId) throw new HttpError(404, "no endpoint id in the path; expected /v2/<endpoint_id>/<operation>");
    const spec = this.ctx.deps.getEndpoint(accountId, endpointId);
    if (!spec) throw new HttpError(404, `endpoint ${JSON.stringify(endpointId)} not found`);
    const verb = parts[2] ?? "";

    if (spec.type === "LOAD_BALANCER") {
      if (this.queueVerbs.has(verb)) throw noQueue(spec, verb);
      const op = this.table.lb;
      // Everything after the (raw) endpoint segment goes to the worker, still percent-encoded.
      const path = pathname.slice(1 + (parts[1] ?? "").length);
      const params = { [op.params[0] ?? "path"]: path };
      await this.serve(op, { accountId, rt: this.ctx.lbRuntimeFor(spec), params, query: queryOf(req.url), req, res });
      return;
    }

    const op = this.byVerb.get(verb);
    if (!op)
      throw new HttpError(404, `unknown operation ${JSON.stringify(verb)} on endpoint ${endpointId}; expected one of ${this.callerVerbs}`);
    checkMethod(op, req.method ?? "GET");
    const { params, query } =
      op.side === "worker"
        ? workerParams(op, parts.slice(3), req.url)
        : { params: callerParams(op, parts.slice(3), pathname), query: queryOf(req.url) };
    await this.serve(op, { accountId, rt: this.ctx.runtimeFor(spec), params, query, req, res });
  }

  private authenticate(authorization: string | undefined): string {
    if (!authorization || authorization.trim() === "" || authorization.trim() === "Bearer") {
      throw new HttpError(401, "missing API key: send the header Authorization: Bearer <api key>");
    }
    const accountId = this.ctx.deps.resolveAccount(authorization);
    if (!accountId) throw new HttpError(401, "the API key is not valid");
    return accountId;
  }

  /** Counts the request against its limit, lets faults have their say, runs the operation and answers. */
  private async serve<R extends LimitedRuntime | undefined>(op: JobOperation<R>, call: Omit<RawJobCall<R>, "readBody">): Promise<void> {
    const { req, res, rt } = call;
    const admission: Admission | undefined =
      op.limit !== undefined && rt !== undefined ? rt.limiter.admit(call.accountId, op.limit, rt.readyWorkers) : undefined;
    try {
      const interceptor = this.interceptor;
      if (interceptor) {
        const pending = interceptor({ operationId: op.operationId, req, res });
        const decision = pending instanceof Promise ? await pending : pending;
        if (decision === true) return;
        if (decision === "lose-answer") cutInsteadOfAnswering(res);
        // An InterceptPlan (land, hidden) is never drawn for the job API's routes (FaultRoute.deferrable).
      }
      const answer = await op.run({
        ...call,
        readBody: (route) => readBody(req, this.ctx.opts.maxPayloadBytes[route]).then(parseJsonBody),
      });
      if (answer !== ANSWERED) sendJobJson(res, answer.status, answer.body);
    } finally {
      admission?.release();
    }
  }
}

function checkMethod(op: JobOperation<unknown>, method: string): void {
  if (op.side === "proxy" || op.methods.includes(method)) return;
  throw new HttpError(405, `/${op.verb} accepts ${op.methods.join(" or ")}, got ${method}`, { allow: op.methods.join(", ") });
}

/** A caller's parameters: the non-empty segments after the operation's name, decoded; exactly as many as it names. */
function callerParams(op: JobOperation<unknown>, segments: readonly string[], pathname: string): Record<string, string> {
  const rest = segments.filter((s) => s !== "").map(decodeSegment);
  const params: Record<string, string> = {};
  if (op.tail) {
    // The last parameter takes the rest ("" when none: the handler says what is missing).
    const last = op.params.length - 1;
    op.params.forEach((name, i) => {
      params[name] = i < last ? (rest[i] ?? "") : rest.slice(i).join("/");
    });
    return params;
  }
  const expected = op.params.map((name) => `<${name}>`).join("/");
  if (rest.length < op.params.length) {
    const missing = op.params[rest.length] ?? "";
    throw new HttpError(404, `missing ${missing.replace(/_/g, " ")}: expected /${op.verb}/${expected}`);
  }
  if (rest.length > op.params.length) {
    throw new HttpError(
      404,
      `no such path: ${pathname}; expected /v2/<endpoint_id>/${op.verb}${expected === "" ? "" : `/${expected}`} and nothing after it`,
    );
  }
  op.params.forEach((name, i) => {
    params[name] = rest[i] as string;
  });
  return params;
}

/**
 * A worker's ids, one per path segment, each up to its first `&` and decoded; every `name=value`
 * after a `&` joins the query (the worker SDK appends `&...` to URLs that have no `?`).
 */
function workerParams(
  op: JobOperation<unknown>,
  segments: readonly string[],
  url: string | undefined,
): { params: Record<string, string>; query: URLSearchParams } {
  const query = queryOf(url) ?? new URLSearchParams();
  const params: Record<string, string> = {};
  op.params.forEach((name, i) => {
    const raw = segments[i] ?? "";
    const amp = raw.indexOf("&");
    const id = amp < 0 ? raw : raw.slice(0, amp);
    if (amp >= 0) for (const [k, v] of new URLSearchParams(raw.slice(amp + 1))) query.append(k, v);
    let decoded: string;
    try {
      decoded = decodeURIComponent(id);
    } catch {
      throw new HttpError(400, `${name} ${JSON.stringify(id)} is not valid percent-encoding`);
    }
    if (decoded === "") {
      throw new HttpError(400, `missing ${name}: expected /<endpoint_id>/${op.verb}/${op.params.map((n) => `<${n}>`).join("/")}`);
    }
    params[name] = decoded;
  });
  return { params, query };
}

function queryOf(url: string | undefined): URLSearchParams | undefined {
  if (!url) return undefined;
  const q = url.indexOf("?");
  return q < 0 ? undefined : new URLSearchParams(url.slice(q + 1));
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new HttpError(400, `path segment ${JSON.stringify(s)} is not valid percent-encoding`);
  }
}

/**
 * A `lost` fault: the operation runs, and whatever would start its answer (JSON, events, a proxied
 * answer, an error) destroys the connection instead, so the client cannot tell whether it ran.
 */
function cutInsteadOfAnswering(res: ServerResponse): void {
  res.writeHead = () => {
    res.socket?.destroy();
    res.destroy();
    return res;
  };
}
