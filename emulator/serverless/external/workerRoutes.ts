/**
 * The worker side of the job API, `{serverless_url}/<endpoint_id>/<route>/<worker_id>[/<job_id>]`:
 * what a real worker sends (see WORKER-PROTOCOL.md in the reference). Differences from the caller
 * routes, all from how real workers behave:
 * - ids end at the first `&` (a worker appends `&name=value` to a URL without `?`), and what follows
 *   is read as query parameters;
 * - the job-done / job-stream body is JSON whatever its content type says;
 * - "nothing to do" is 204 after a long-poll, never 404 (a worker retries a 404 at once, in a loop);
 * - posts for jobs the worker no longer holds are answered 200 and ignored.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { EndpointRuntime } from "../endpoint";
import { HttpError, parseJsonBody, queryOf, readBody, sendJson } from "../http";
import type { ResolvedOptions } from "../options";
import type { DonePost } from "./pool";

type WorkerRoute = (c: WorkerCall) => Promise<void> | void;

export interface WorkerCall {
  req: IncomingMessage;
  res: ServerResponse;
  rt: EndpointRuntime;
  opts: ResolvedOptions;
  /** The route name (`job-take`, ...). */
  route: string;
  /** Path segments after the route name, still percent-encoded. */
  segments: string[];
}

const DonePostSchema = z.looseObject({
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  status: z.string({ error: 'job-done "status" must be a string such as "IN_PROGRESS"' }).optional(),
  stopPod: z.boolean({ error: 'job-done "stopPod" must be true or false' }).optional(),
});

const StreamPostSchema = z.looseObject({ output: z.unknown() });

const BATCH_ERROR = { error: "batch_size must be a whole number from 1 to 1000" };
const BatchSize = z.coerce.number(BATCH_ERROR).int(BATCH_ERROR).min(1, BATCH_ERROR).max(1000, BATCH_ERROR);

/**
 * The ids named `names`, one per path segment, each up to its first `&` and decoded; every
 * `name=value` after a `&` is added to the query parameters.
 */
function ids(c: WorkerCall, names: readonly string[]): { values: string[]; query: URLSearchParams } {
  const query = queryOf(c.req.url) ?? new URLSearchParams();
  const values = names.map((name, i) => {
    const raw = c.segments[i] ?? "";
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
      throw new HttpError(400, `missing ${name}: expected /<endpoint_id>/${c.route}/${names.map((n) => `<${n}>`).join("/")}`);
    }
    return decoded;
  });
  return { values, query };
}

function noContent(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204);
  res.end();
}

async function jsonPost<T>(c: WorkerCall, schema: z.ZodType<T>, what: string): Promise<T> {
  // Workers label the JSON body application/x-www-form-urlencoded: the label is ignored.
  const body = parseJsonBody(await readBody(c.req, c.opts.maxPayloadBytes.runsync));
  const r = schema.safeParse(body ?? {});
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new HttpError(400, `${what} body ${JSON.stringify(body)?.slice(0, 80)} is not accepted: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}

async function take(c: WorkerCall, batch: boolean): Promise<void> {
  const { values, query } = ids(c, ["worker_id"]);
  const pool = c.rt.external;
  const w = pool.seen(values[0] as string);
  if (query.get("job_in_progress") === "0") w.reported(new Set(), c.rt.clock.now());
  let max = 1;
  if (batch) {
    const r = BatchSize.safeParse(query.get("batch_size") ?? "1");
    if (!r.success) throw new HttpError(400, `${r.error.issues[0]?.message ?? "bad batch_size"}; got ${JSON.stringify(query.get("batch_size"))}`);
    max = r.data;
  }
  const jobs = await pool.take(w, max, c.res);
  if (jobs.length === 0) noContent(c.res);
  else sendJson(c.res, 200, batch ? jobs : jobs[0]);
}

const GET = "GET";
const POST = "POST";

const routes: Record<string, { method: typeof GET | typeof POST; run: WorkerRoute }> = {
  "job-take": { method: GET, run: (c) => take(c, false) },
  "job-take-batch": { method: GET, run: (c) => take(c, true) },
  "job-done": {
    method: POST,
    async run(c) {
      const { values, query } = ids(c, ["worker_id", "job_id"]);
      const post: DonePost = await jsonPost(c, DonePostSchema, "job-done");
      const pool = c.rt.external;
      pool.done(pool.seen(values[0] as string), values[1] as string, post, query.get("isStream") === "true");
      sendJson(c.res, 200, {});
    },
  },
  "job-stream": {
    method: POST,
    async run(c) {
      const { values } = ids(c, ["worker_id", "job_id"]);
      const post = await jsonPost(c, StreamPostSchema, "job-stream");
      const pool = c.rt.external;
      pool.chunk(pool.seen(values[0] as string), values[1] as string, post.output);
      sendJson(c.res, 200, {});
    },
  },
  ping: {
    method: GET,
    run(c) {
      const { values, query } = ids(c, ["worker_id"]);
      // `job_id`: the comma-joined ids the worker is running (absent when idle).
      const inProgress = (query.get("job_id") ?? "").split(",").filter((id) => id !== "");
      c.rt.external.seen(values[0] as string).reported(new Set(inProgress), c.rt.clock.now());
      sendJson(c.res, 200, {});
    },
  },
  "job-stop": {
    method: GET,
    async run(c) {
      const { values } = ids(c, ["worker_id"]);
      const pool = c.rt.external;
      const jobsToStop = await pool.stopPoll(pool.seen(values[0] as string), c.res);
      if (jobsToStop.length === 0) noContent(c.res);
      else sendJson(c.res, 200, { jobsToStop });
    },
  },
};

/** True for the route names of the worker pull protocol. */
export function isWorkerRoute(name: string): boolean {
  return Object.hasOwn(routes, name);
}

export async function handleWorkerRoute(c: WorkerCall): Promise<void> {
  const route = routes[c.route];
  if (!route) throw new HttpError(404, `unknown worker route ${JSON.stringify(c.route)}`);
  if (c.req.method !== route.method) {
    throw new HttpError(405, `/${c.route} accepts ${route.method}, got ${c.req.method ?? "none"}`, { allow: route.method });
  }
  await route.run(c);
}
