/**
 * A proxy in front of the emulator that records the management API calls passing through (method,
 * path and status), so a benchmark or a test can count them: calls per resource, list calls, 429s.
 * Given a clock (the emulator's service time), it also stamps when each call came in and when its
 * answer came back, so the time a run of calls spans can be read in service time.
 */
import * as http from "node:http";

export interface ProxiedCall {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** The emulator's answer (0 when it never answered). */
  status: number;
  /** When the call reached the proxy, by the clock given (0 without one). */
  sentAt: number;
  /** When the emulator's answer came back, by the clock given (0 without one, or no answer). */
  answeredAt: number;
  /** The request's body as text, when the proxy was asked to keep bodies. */
  body?: string;
}

export interface CountingProxy {
  /** Base origin to use instead of the emulator's (`http://127.0.0.1:<port>`). */
  url: string;
  /** The calls seen since the last take, and starts a new record. */
  take(): ProxiedCall[];
  close(): Promise<void>;
}

export async function countingProxy(
  target: string,
  clock: () => number = () => 0,
  options: { keepBodies?: boolean } = {},
): Promise<CountingProxy> {
  const origin = new URL(target);
  let calls: ProxiedCall[] = [];
  const server = http.createServer((req, res) => {
    const call: ProxiedCall = { method: req.method ?? "GET", path: req.url ?? "/", status: 0, sentAt: clock(), answeredAt: 0 };
    calls.push(call);
    if (options.keepBodies) {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => (call.body = Buffer.concat(chunks).toString("utf8")));
    }
    const upstream = http.request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        call.status = answer.statusCode ?? 0;
        call.answeredAt = clock();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  // The answers carry the target's Keep-Alive hint (the emulator's 65 s), and clients keep idle
  // connections by it: closing them sooner (Node's default 5 s) would reset a request sent on one,
  // a create among them, which is never sent again.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const seen = calls;
      calls = [];
      return seen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
