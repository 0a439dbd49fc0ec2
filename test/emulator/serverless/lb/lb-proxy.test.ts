// Load-balancing endpoints, the proxy: paths, methods, bodies and headers to the echo worker and to
// user server modules, the job API's queue verbs, auth, failures without retries, module shapes,
// and the type carried in the template env.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spec, startHarness, type Harness } from "../../../support/jobsHarness";
import { fixture, fixtureState, healthy, lbSpec, send, workersOf, type RawReply } from "./lb-harness";

let h: Harness;
const listenerState = fixtureState<{ seen: Record<string, number> }>("lb-listener.cjs");

beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [
      lbSpec({ id: "echo", workersMin: 1 }),
      // Type carried by the template env (spec.type stays QUEUE), as the provider sends it.
      spec({ id: "user", imageName: "acme/lb-user:1", type: "LOAD_BALANCER", workersMin: 2, workersMax: 2 }),
      lbSpec({ id: "esm", imageName: "acme/lb-esm", workersMin: 1 }),
      lbSpec({ id: "wrong", imageName: "acme/queue", workersMin: 0 }),
      lbSpec({ id: "badenv", env: { PORT: "http" }, workersMin: 0 }),
      lbSpec({ id: "other", accountId: "acct2" }),
      // The server module mapped to a queue endpoint by mistake (no type in spec or env).
      spec({ id: "queue", imageName: "acme/lb-user:1", workersMin: 0 }),
    ],
    options: {
      handlers: {
        "acme/lb-user": fixture("lb-listener.cjs"),
        "acme/lb-esm": fixture("lb-esm.mjs"),
        "acme/queue": fixture("queue-handler.cjs"),
      },
    },
  });
  await healthy(h, "echo", 1);
  await healthy(h, "user", 2);
  await healthy(h, "esm", 1);
});
afterAll(() => h.close());

/** Every proxied answer names the worker that served it, one of the endpoint's live workers. */
function expectWorker(r: RawReply, endpointId: string): void {
  expect(r.workerId).toMatch(/^[0-9a-z]{13}$/);
  expect(workersOf(h, endpointId, ["idle", "running"]).map((w) => w.id)).toContain(r.workerId);
}

describe("proxying to the built-in echo worker", () => {
  it("relays GET with a query string: method, path after the endpoint id, repeated query values, headers", async () => {
    const r = await send(h, "GET", "/v2/echo/some/deep/path?a=1&b=x&b=y&empty=", { headers: { "x-custom": "hello" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expectWorker(r, "echo");
    expect(r.json).toMatchObject({ method: "GET", path: "/some/deep/path", query: { a: "1", b: ["x", "y"], empty: "" }, body: "" });
    expect(r.json.headers["x-custom"]).toBe("hello");
    // The API key is for the service, never for the worker; Host is the worker's own.
    expect(r.json.headers.authorization).toBeUndefined();
    expect(r.json.headers.host).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it("relays POST with a JSON body (parsed), PUT with a text body (kept as text), DELETE and PATCH", async () => {
    const post = await send(h, "POST", "/v2/echo/items", {
      body: JSON.stringify({ n: 1, tags: ["a"] }),
      headers: { "content-type": "application/json" },
    });
    expect(post.status).toBe(200);
    expect(post.json).toMatchObject({ method: "POST", path: "/items", body: { n: 1, tags: ["a"] } });
    expectWorker(post, "echo");

    const put = await send(h, "PUT", "/v2/echo/items/7", { body: "plain words {not json}", headers: { "content-type": "text/plain" } });
    expect(put.json).toMatchObject({ method: "PUT", path: "/items/7", body: "plain words {not json}" });
    expect(put.json.headers["content-length"]).toBe(String("plain words {not json}".length));
    expectWorker(put, "echo");

    const del = await send(h, "DELETE", "/v2/echo/items/7?hard=true");
    expect(del.json).toMatchObject({ method: "DELETE", path: "/items/7", query: { hard: "true" } });
    expectWorker(del, "echo");

    const patch = await send(h, "PATCH", "/v2/echo/", { body: "[1,2]", headers: { "content-type": "application/merge-patch+json" } });
    expect(patch.json).toMatchObject({ method: "PATCH", path: "/", body: [1, 2] });
  });

  it("the endpoint root, percent-encoded paths (kept encoded) and HEAD requests reach the worker too", async () => {
    const root = await send(h, "GET", "/v2/echo");
    expect(root.json).toMatchObject({ method: "GET", path: "/" });
    const encoded = await send(h, "GET", "/v2/echo/a%20b/%2F?q=%26");
    expect(encoded.json).toMatchObject({ path: "/a%20b/%2F", query: { q: "&" } });
    const head = await send(h, "HEAD", "/v2/echo/x");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expectWorker(head, "echo");
  });

  it("hands /health, /ping, /requests and /openai/* to the worker (the worker owns every non-queue path)", async () => {
    for (const p of ["/health", "/ping", "/requests", "/openai/v1/models"]) {
      const r = await send(h, "GET", `/v2/echo${p}`);
      expect(r.status, p).toBe(200);
      expect(r.json.path, p).toBe(p);
      expectWorker(r, "echo");
    }
  });
});

describe("user server modules", () => {
  it("module.exports = listener: status codes, headers (repeated Set-Cookie) and bodies come back as the worker sent them", async () => {
    const r = await send(h, "POST", "/v2/user/code/418?q=1", { body: "tea" });
    expect(r.status).toBe(418);
    expect(r.json).toEqual({ server: "fixture", method: "POST", url: "/code/418?q=1", body: "tea" });
    expect(r.headers.get("x-fixture")).toBe("yes");
    expect(r.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expectWorker(r, "user");
  });

  it("export default (ESM module): served through require(esm)", async () => {
    const r = await send(h, "GET", "/v2/esm/anything?x=1");
    expect(r.json).toEqual({ esm: true, path: "/anything?x=1" });
    expectWorker(r, "esm");
  });

  it("a module exporting a queue handler fails the worker start with a clear 503", async () => {
    const r = await send(h, "GET", "/v2/wrong/x");
    expect(r.status).toBe(503);
    expect(r.json.error).toMatch(
      /endpoint wrong cannot start workers: module .*queue-handler\.cjs .* exports handler\(job, ctx\), a queue handler/,
    );
    expect(r.json.error).toMatch(/request listener/);
    expect(r.workerId).toBeNull();
    // The worker that tried is listed as unhealthy; later requests fail at once, naming the cause.
    expect(h.svc.workers("wrong").map((w) => w.status)).toEqual(["unhealthy"]);
    const again = await send(h, "GET", "/v2/wrong/y");
    expect(again.status).toBe(503);
    expect(again.json.error).toMatch(/queue handler/);
  });

  it("the other way round: a server module on a queue endpoint fails its jobs with a hint about the type", async () => {
    const r = await h.call("POST", "/v2/queue/runsync", { input: {} });
    expect(r.body.status).toBe("FAILED");
    expect(r.body.error).toMatch(
      /does not export a function named "handler"; it looks like an HTTP server for a load-balancing endpoint \(create the endpoint with type LOAD_BALANCER/,
    );
  });

  it("a bad PORT in the env is a worker start error naming the key and value", async () => {
    const r = await send(h, "GET", "/v2/badenv/");
    expect(r.status).toBe(503);
    expect(r.json.error).toBe(
      'endpoint badenv cannot start workers: PORT must be a TCP port number between 1 and 65535; got "http" (endpoint or template env)',
    );
  });
});

describe("failures are not retried", () => {
  it("a worker that destroys the socket gives a 502 JSON error, and only one worker ever saw the request", async () => {
    expect(workersOf(h, "user", ["idle"]).length).toBe(2);
    const before = listenerState.seen["/destroy"] ?? 0;
    const r = await send(h, "POST", "/v2/user/destroy", { body: "{}", headers: { "content-type": "application/json" } });
    expect(r.status).toBe(502);
    expect(r.json.error).toMatch(/^worker [0-9a-z]{13} of endpoint user failed while handling the request \(.+\); it was not retried$/);
    expectWorker(r, "user");
    expect(listenerState.seen["/destroy"]).toBe(before + 1);
  });

  it("a listener that throws gives a 502 naming the error; the worker keeps serving", async () => {
    const before = listenerState.seen["/boom"] ?? 0;
    const r = await send(h, "GET", "/v2/user/boom");
    expect(r.status).toBe(502);
    expect(r.json.error).toMatch(/its server threw: kaboom from the fixture/);
    expect(listenerState.seen["/boom"]).toBe(before + 1);
    const next = await send(h, "GET", "/v2/user/fine", { headers: { "x-service-worker-id": r.workerId ?? "" } });
    expect(next.status).toBe(200);
    expect(next.workerId).toBe(r.workerId);
  });
});

describe("the job API on a load-balancing endpoint", () => {
  it("answers the queue verbs with 404 JSON saying it is a load-balancing endpoint", async () => {
    const calls: [string, string][] = [
      ["POST", "/run"],
      ["POST", "/runsync"],
      ["GET", "/status/abc"],
      ["POST", "/status-sync/abc"],
      ["GET", "/stream/abc"],
      ["POST", "/cancel/abc"],
      ["POST", "/retry/abc"],
      ["POST", "/purge-queue"],
    ];
    for (const [method, p] of calls) {
      for (const ep of ["echo", "user"]) {
        const r = await send(h, method, `/v2/${ep}${p}`, method === "POST" ? { body: '{"input":{}}' } : {});
        expect(r.status, `${method} ${ep}${p}`).toBe(404);
        expect(r.json.error).toContain(
          `endpoint ${ep} is a load-balancing endpoint: it has no job queue, so /${p.split("/")[1]} is not available`,
        );
        expect(r.workerId).toBeNull();
      }
    }
    // Only the exact verb is reserved: similar paths belong to the worker.
    const similar = await send(h, "POST", "/v2/echo/runs/1");
    expect(similar.json.path).toBe("/runs/1");
  });

  it("refuses a missing or unknown key with 401 and another account's endpoint with 404", async () => {
    const none = await send(h, "GET", "/v2/echo/x", { key: null });
    expect(none.status).toBe(401);
    expect(none.json.error).toMatch(/missing API key/);
    const bad = await send(h, "GET", "/v2/echo/x", { key: "nope" });
    expect(bad.status).toBe(401);
    expect(bad.json.error).toBe("the API key is not valid");
    const foreign = await send(h, "GET", "/v2/other/x");
    expect(foreign.status).toBe(404);
    expect(foreign.workerId).toBeNull();
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After beyond the lb rate limit (per account per endpoint)", async () => {
    const lim = await startHarness({
      timeScale: 0.01,
      endpoints: [lbSpec({ id: "lim", workersMin: 1 })],
      options: { limits: { lb: { rate: 5 } }, perWorkerAllowance: { lb: { rate: null, concurrency: null } }, rateWindowMs: 600_000 },
    });
    try {
      await healthy(lim, "lim", 1);
      const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => send(lim, "GET", `/v2/lim/n/${i}`)));
      const ok = replies.filter((r) => r.status === 200);
      const limited = replies.filter((r) => r.status === 429);
      expect(ok.length).toBe(5);
      expect(limited.length).toBe(7);
      for (const r of ok) expect(r.workerId).not.toBeNull();
      expect(limited[0]?.json.error).toMatch(/^rate limit exceeded for load-balancing endpoint requests: at most 5 requests per 600 s/);
      expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await lim.close();
    }
  });
});
