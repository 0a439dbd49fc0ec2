// A real HTTP server on port 0 that answers from a script, one step per request (the last step
// repeats), and records every request: the transport is tested against real sockets, so resets and
// timeouts are real too.

import http from "node:http";
import net, { type AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path + query as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Step = (req: RecordedRequest, res: http.ServerResponse) => void | Promise<void>;

export interface ScriptedServer {
  /** "http://127.0.0.1:<port>" (no path). */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(steps: Step[] | Step): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const script = Array.isArray(steps) ? steps : [steps];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const step = script[Math.min(requests.length - 1, script.length - 1)];
      if (!step) throw new Error("empty script");
      void Promise.resolve(step(recorded, res)).catch((e: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with the given status (a body of undefined sends no body). */
export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, body === undefined ? headers : { "content-type": "application/json", ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
}

/** Answers a raw text body. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Step {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "text/plain", ...headers });
    res.end(body);
  };
}

/** Kills the connection without answering (a reset after the request was received). */
export const dropConnection: Step = (_req, res) => {
  res.socket?.destroy();
};

/** Never answers (until the server closes). */
export const hang: Step = () => undefined;

/** A local port nothing listens on (bound, then closed): a connection to it is refused. */
export async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
