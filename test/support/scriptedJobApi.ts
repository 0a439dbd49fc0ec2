// A scripted job API on port 0 for client and smoke-test tests: it plays the job API's wire format
// (`{serverlessUrl}/<endpointId>/<action>[/<id>]`, HTTP 200 JSON for successes, `{"error": "..."}`
// bodies for failures, long polls held server-side) and records every request it saw.

import http from "node:http";
import type { AddressInfo } from "node:net";
import { JobClient, type JobClientOptions } from "../../client/jobClient";
import { Transport } from "../../client/transport";

export const KEY = "test-key-5e1f";
export const EP = "ep-abc";

interface Seen {
  method: string;
  /** Path without the query, e.g. "/v2/ep-abc/status-sync/job-1". */
  path: string;
  /** Path + query as received. */
  url: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Arrival time (ms, performance.now()). */
  at: number;
}

interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Hold the answer this long (a long poll). */
  delayMs?: number;
}

/** Answers one request; `n` counts the calls to this route so far, from 0. */
type Route = (req: Seen, n: number) => Reply;

interface JobApi {
  /** "http://127.0.0.1:<port>/v2" */
  url: string;
  requests: Seen[];
  /** "METHOD /path?query" of every request, in order. */
  lines(): string[];
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];

/** Has closeAll close this client (or server) too. */
export function closeLater(closeable: { close(): Promise<void> }): void {
  cleanups.push(() => closeable.close());
}

/** Closes every server and client the helpers below opened (call it from afterEach). */
export async function closeAll(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

/**
 * Routes are keyed "METHOD action", where action is the segment after the endpoint id
 * ("POST run", "GET status-sync", ...). An unscripted route answers 404 like the service.
 */
export async function startJobApi(routes: Record<string, Route>): Promise<JobApi> {
  const requests: Seen[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const parsed = new URL(req.url ?? "/", "http://x");
      const seen: Seen = {
        method: req.method ?? "",
        path: parsed.pathname,
        url: req.url ?? "",
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: performance.now(),
      };
      requests.push(seen);
      const action = parsed.pathname.split("/")[3] ?? "";
      const key = `${seen.method} ${action}`;
      const route = routes[key];
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      const reply: Reply = route ? route(seen, n) : { status: 404, body: { error: `no route ${key}` } };
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const api: JobApi = {
    url: `http://127.0.0.1:${port}/v2`,
    requests,
    lines: () => requests.map((r) => `${r.method} ${r.url}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  cleanups.push(api.close);
  return api;
}

/** A JobClient on the scripted API, built from options as users build it. */
export function jobClient(api: JobApi, options: JobClientOptions = {}): JobClient {
  const client = new JobClient({ apiKey: KEY, serverlessUrl: api.url, ...options });
  cleanups.push(() => client.close());
  return client;
}

/** A JobClient on the scripted API that never retries, as the tests of single calls want it. */
export function quietJobClient(api: JobApi): JobClient {
  const client = new JobClient(new Transport({ baseUrl: api.url, apiKey: KEY, maxRetries: 0, sleep: async () => undefined }));
  cleanups.push(() => client.close());
  return client;
}

/** Runs fn and returns what it threw or rejected with (synchronous throws included). */
export async function failureOf(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}

export const completed = (id: string, output: unknown) => ({
  id,
  status: "COMPLETED",
  output,
  delayTime: 12,
  executionTime: 340,
  workerId: "w-1",
});
