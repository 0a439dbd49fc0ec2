import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApiError,
  BadRequestError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../../client/errors";
import { Transport, type RetryInfo, type TransportOptions } from "../../client/transport";
import { dropConnection, hang, json, startScriptedServer, text, type ScriptedServer, type Step } from "../support/scriptedServer";

const KEY = "test-key-SECRET-0123456789";
const Thing = z.object({ id: z.string() });

let server: ScriptedServer | undefined;
let transport: Transport | undefined;
afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = undefined;
  server = undefined;
});

async function setup(steps: Step[] | Step, options: Partial<TransportOptions> = {}) {
  server = await startScriptedServer(steps);
  const delays: number[] = [];
  const retries: RetryInfo[] = [];
  transport = new Transport({
    baseUrl: `${server.origin}/v1`,
    apiKey: KEY,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    onRetry: (info) => retries.push(info),
    ...options,
  });
  return { server, transport, delays, retries };
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected a rejection");
}

describe("Transport against a scripted server", () => {
  it("keeps the answer's headers on the error, names in lower case and the key redacted", async () => {
    const { transport } = await setup(
      json(409, { error: "name taken" }, { "X-Request-Id": "req-7", "X-Echo": `Bearer ${KEY}`, RateLimit: '"default";r=3;t=20' }),
    );
    const error = await rejection(transport.request({ method: "GET", path: "/pods/p", operation: "GetPod", schema: Thing }));
    expect(error.headers["x-request-id"]).toBe("req-7");
    expect(error.headers["ratelimit"]).toBe('"default";r=3;t=20');
    expect(error.headers["x-echo"]).not.toContain(KEY);
    expect(error.requestId).toBe("req-7");
  });

  it("sends Bearer auth, JSON headers, base path, query; parses the body", async () => {
    const { server, transport } = await setup(json(201, { id: "p1", extra: true }));
    const result = await transport.request({
      method: "POST",
      path: "/pods",
      query: { a: 1, list: ["x", "y"], skip: undefined, flag: true },
      body: { name: "n" },
      operation: "CreatePod",
      schema: Thing,
    });
    expect(result).toEqual({ id: "p1" });
    const req = server.requests[0]!;
    expect(req.method).toBe("POST");
    // A list is one comma-separated value (the reference's style for array query parameters).
    expect(req.url).toBe("/v1/pods?a=1&list=x%2Cy&flag=true");
    expect(req.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["accept"]).toBe("application/json, application/problem+json");
    expect(req.headers["user-agent"]).toBe("pulumi-gpucloud");
    expect(JSON.parse(req.body)).toEqual({ name: "n" });
  });

  it("sends no Content-Type without a body", async () => {
    const { server, transport } = await setup(json(200, { id: "p" }));
    await transport.request({ method: "GET", path: "/pods/p", operation: "GetPod", schema: Thing });
    expect(server.requests[0]!.headers["content-type"]).toBeUndefined();
  });

  it("retries a GET on 503 then succeeds", async () => {
    const { server, transport, delays, retries } = await setup([
      json(503, { error: "busy" }),
      json(503, { error: "busy" }),
      json(200, { id: "ok" }),
    ]);
    await expect(transport.request({ method: "GET", path: "/pods/ok", operation: "GetPod", schema: Thing })).resolves.toEqual({ id: "ok" });
    expect(server.requests).toHaveLength(3);
    // equal jitter with random 0.5: 0.75 * cap
    expect(delays).toEqual([375, 750]);
    expect(retries.map((r) => [r.attempt, r.operation, r.error.status])).toEqual([
      [1, "GetPod", 503],
      [2, "GetPod", 503],
    ]);
  });

  it("honours Retry-After on 429, even for a non-idempotent POST", async () => {
    const { server, transport, delays } = await setup([
      json(429, { error: "slow down" }, { "retry-after": "2" }),
      json(200, { id: "made" }),
    ]);
    await expect(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing })).resolves.toEqual({
      id: "made",
    });
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it("ignores an insane Retry-After and uses backoff", async () => {
    const { transport, delays } = await setup([json(503, {}, { "retry-after": "86400" }), json(200, { id: "x" })]);
    await transport.request({ method: "GET", path: "/x", operation: "GetPod", schema: Thing });
    expect(delays).toEqual([375]);
  });

  it("gives up after maxRetries with the last error (RateLimitError keeps retryAfterMs)", async () => {
    const { server, transport, delays } = await setup(json(429, { error: "rate limited" }, { "retry-after": "1" }), { maxRetries: 2 });
    const e = await rejection(transport.request({ method: "GET", path: "/x", operation: "ListPods", schema: Thing }));
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.retryAfterMs).toBe(1000);
    expect(e.message).toBe("ListPods failed: 429 Too Many Requests: rate limited");
    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([1000, 1000]);
  });

  it("does not retry a non-idempotent POST on 500", async () => {
    const { server, transport, delays } = await setup(json(500, { error: "boom" }));
    const e = await rejection(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing }));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.retryable).toBe(false);
    expect(e.message).toBe("CreatePod failed: 500 Internal Server Error: boom");
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it("retries an explicitly idempotent POST on 502", async () => {
    const { server, transport } = await setup([json(502), json(200, {})]);
    await transport.requestVoid({ method: "POST", path: "/pods/p/stop", operation: "StopPod", idempotent: true });
    expect(server.requests).toHaveLength(2);
  });

  it("retries a GET whose connection is reset, then succeeds", async () => {
    const { server, transport, retries } = await setup([dropConnection, json(200, { id: "after-reset" })]);
    await expect(transport.request({ method: "GET", path: "/pods/a", operation: "GetPod", schema: Thing })).resolves.toEqual({
      id: "after-reset",
    });
    expect(server.requests).toHaveLength(2);
    expect(retries[0]!.error).toBeInstanceOf(ConnectionError);
    expect(retries[0]!.error.kind).toBe("connection");
  });

  it("does not retry a POST whose connection is reset after sending", async () => {
    const { server, transport } = await setup(dropConnection);
    const e = await rejection(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing }));
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e.kind).toBe("connection");
    expect(e.status).toBeUndefined();
    expect(e.message).toMatch(/^CreatePod failed: connection lost before the service answered \(POST \/v1\/pods\)/);
    expect(server.requests).toHaveLength(1);
  });

  it("a refused connection (nothing sent) is retried even for a POST, then reported", async () => {
    // Grab a free port, then close the server so nothing listens there.
    const s = await startScriptedServer(json(200, {}));
    const origin = s.origin;
    await s.close();
    const delays: number[] = [];
    transport = new Transport({ baseUrl: `${origin}/v1`, apiKey: KEY, maxRetries: 2, sleep: async (ms) => void delays.push(ms) });
    const e = await rejection(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing }));
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e.kind).toBe("connect");
    expect(e.message).toContain("could not connect");
    expect(e.message).toContain("ECONNREFUSED");
    expect(delays).toHaveLength(2);
  });

  it("times out with TimeoutError (and retries a GET before giving up)", async () => {
    const { server, transport } = await setup(hang, { timeoutMs: 150, maxRetries: 1 });
    const e = await rejection(transport.request({ method: "GET", path: "/slow", operation: "GetPod", schema: Thing }));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.kind).toBe("timeout");
    expect(e.message).toBe("GetPod failed: no complete answer within 150 ms (GET /v1/slow)");
    expect(server.requests).toHaveLength(2);
  });

  it("a POST that times out is not retried", async () => {
    const { server, transport } = await setup(hang, { timeoutMs: 150, createTimeoutMs: 150 });
    const e = await rejection(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing }));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it("a body that trickles past the deadline is a timeout too", async () => {
    const trickle: Step = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":');
    };
    const { transport } = await setup(trickle, { timeoutMs: 150, maxRetries: 0 });
    const e = await rejection(transport.request({ method: "GET", path: "/x", operation: "GetPod", schema: Thing }));
    expect(e).toBeInstanceOf(TimeoutError);
  });

  it("DELETE answered 200 with a body or 204 without: both resolve", async () => {
    const { server, transport } = await setup([json(200, { deleted: true }), json(204)]);
    await expect(transport.requestVoid({ method: "DELETE", path: "/pods/a", operation: "DeletePod" })).resolves.toBeUndefined();
    await expect(transport.requestVoid({ method: "DELETE", path: "/pods/b", operation: "DeletePod" })).resolves.toBeUndefined();
    expect(server.requests.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("an empty 2xx body is parsed as undefined (z.void / z.unknown work)", async () => {
    const { transport } = await setup(json(204));
    await expect(transport.request({ method: "POST", path: "/x", operation: "StartPod", schema: z.void() })).resolves.toBeUndefined();
  });

  it("404 -> NotFoundError with the service's message, not retried", async () => {
    const { server, transport } = await setup(json(404, { error: "pod not found", status: 404 }));
    const e = await rejection(transport.request({ method: "GET", path: "/pods/nope", operation: "GetPod", schema: Thing }));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.serviceMessage).toBe("pod not found");
    expect(e.message).toBe("GetPod failed: 404 Not Found: pod not found");
    expect(e.url).toBe("/v1/pods/nope");
    expect(server.requests).toHaveLength(1);
  });

  it("422 with a plain-text body -> BadRequestError with that text", async () => {
    const { transport } = await setup(text(422, "Extra input keys: foo"));
    const e = await rejection(transport.request({ method: "POST", path: "/pods", body: {}, operation: "CreatePod", schema: Thing }));
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.message).toBe("CreatePod failed: 422 Unprocessable Entity: Extra input keys: foo");
  });

  it("a 2xx that does not match the schema -> ResponseValidationError naming the paths, not retried", async () => {
    const { server, transport } = await setup(json(200, { id: 42 }));
    const e = await rejection(transport.request({ method: "GET", path: "/pods/a", operation: "GetPod", schema: Thing }));
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.status).toBe(200);
    expect(e.retryable).toBe(false);
    expect(e.message).toMatch(/^GetPod failed: the 200 OK answer did not match the expected shape \(GET \/v1\/pods\/a\): id: /);
    expect(server.requests).toHaveLength(1);
  });

  it("a 2xx that is not JSON -> ResponseValidationError", async () => {
    const { transport } = await setup(text(200, "<html>oops</html>"));
    const e = await rejection(transport.request({ method: "GET", path: "/pods/a", operation: "GetPod", schema: Thing }));
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.message).toContain("not JSON");
  });

  it("okStatuses restricts the accepted 2xx", async () => {
    const { transport } = await setup(json(202, { id: "x" }));
    const e = await rejection(transport.request({ method: "GET", path: "/x", operation: "JobStatus", schema: Thing, okStatuses: [200] }));
    expect(e).toBeInstanceOf(ResponseValidationError);
    expect(e.status).toBe(202);
  });

  it("the key never appears in any error, even when the service echoes it", async () => {
    const { transport } = await setup([
      json(401, { message: `bad key ${KEY}` }),
      (req, res) => {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end(`you sent: ${req.headers["authorization"]}`);
      },
    ]);
    const e1 = await rejection(transport.request({ method: "GET", path: "/pods", operation: "ListPods", schema: Thing }));
    const e2 = await rejection(transport.request({ method: "GET", path: "/pods", operation: "ListPods", schema: Thing }));
    for (const e of [e1, e2]) {
      for (const view of [e.message, e.stack ?? "", JSON.stringify(e), e.serviceMessage ?? "", String(e.cause ?? "")]) {
        expect(view).not.toContain(KEY);
      }
    }
    expect(e2.message).toBe("ListPods failed: 400 Bad Request: you sent: Bearer [redacted]");
  });

  it("the transport itself does not expose the key", async () => {
    const { transport } = await setup(json(200, {}));
    expect(JSON.stringify(transport)).not.toContain(KEY);
    const { inspect } = await import("node:util");
    expect(inspect(transport, { depth: 4 })).not.toContain(KEY);
  });

  it("a caller's AbortSignal cancels the call and any retry wait", async () => {
    const { transport } = await setup(hang, { timeoutMs: 5000 });
    const controller = new AbortController();
    const p = transport.request({ method: "GET", path: "/x", operation: "GetPod", schema: Thing, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("cancelled by caller")), 50);
    await expect(p).rejects.toThrow("cancelled by caller");
  });

  it("rejects a bad baseUrl or empty key at construction", () => {
    expect(() => new Transport({ baseUrl: "nope", apiKey: KEY })).toThrow(/not a valid URL/);
    expect(() => new Transport({ baseUrl: "http://h/v1", apiKey: "" })).toThrow(/apiKey/);
  });
});

describe("Transport retry waits", () => {
  it("an abort during the wait between retries stops at once", async () => {
    server = await startScriptedServer(json(503, {}));
    const controller = new AbortController();
    transport = new Transport({
      baseUrl: `${server.origin}/v1`,
      apiKey: KEY,
      // A wait that never ends unless aborted; the caller aborts once it has begun (not after a
      // fixed delay, which on a busy machine can fall before the first answer is back).
      sleep: () => {
        setImmediate(() => controller.abort(new Error("stop waiting")));
        return new Promise<void>(() => undefined);
      },
    });
    const p = transport.request({ method: "GET", path: "/x", operation: "GetPod", schema: Thing, signal: controller.signal });
    await expect(p).rejects.toThrow("stop waiting");
    expect(server.requests).toHaveLength(1);
  });
});

describe("Transport.requestStream", () => {
  async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
    let out = "";
    for await (const piece of body) out += Buffer.from(piece).toString("utf8");
    return out;
  }
  /** Four events, `gapMs` apart. */
  const events =
    (gapMs: number): Step =>
    (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      const next = (): void => {
        n++;
        if (n < 4) {
          res.write(`data: ${n}\n\n`);
          setTimeout(next, gapMs);
        } else res.end(`data: ${n}\n\n`);
      };
      next();
    };
  const ALL = "data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n";

  it("hands back the body unread, piece by piece, after retrying a failure before the answer started", async () => {
    const { transport: t, retries } = await setup([json(503, { error: "warming up" }), events(20)]);
    const answer = await t.requestStream({ method: "GET", path: "/events", operation: "Events" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expect(await readAll(answer.body)).toBe(ALL);
    expect(retries).toHaveLength(1);
  });

  it("timeoutMs bounds the silence between pieces, not the whole answer", async () => {
    const { transport: t } = await setup([events(60), events(1500)], { timeoutMs: 120 });
    // 3 x 60 ms: longer than timeoutMs in all, but never silent for that long.
    const steady = await t.requestStream({ method: "GET", path: "/events", operation: "Events" });
    expect(await readAll(steady.body)).toBe(ALL);
    // The HTTP library checks idle bodies on a coarse tick (about 1 s), hence the long stall.
    const stalled = await t.requestStream({ method: "GET", path: "/events", operation: "Events" });
    await expect(readAll(stalled.body)).rejects.toThrow(/timeout/i);
  });

  it("a non-2xx answer is the usual typed error with the service's message", async () => {
    const { transport: t } = await setup(json(400, { error: "model is required" }));
    const error = await t.requestStream({ method: "POST", path: "/events", operation: "Events", body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain("model is required");
  });
});
