// Streams, progress, webhooks, /openai routing and user handler modules.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spec, startHarness, type Harness } from "../../support/jobsHarness";
import type { Json } from "../../support/wireJson";

let h: Harness;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-handlers-"));
  fs.writeFileSync(
    path.join(dir, "echo.js"),
    `exports.handler = async (job, ctx) => {
       if (job.input.fail) throw new Error("user handler says no: " + job.input.fail);
       if (job.input.progress) { ctx.progress("working"); await ctx.sleep(20000); }
       return { got: job.input, id: job.id, s3: job.s3Config ?? null };
     };`,
  );
  fs.writeFileSync(
    path.join(dir, "gen.js"),
    `exports.handler = async function* (job) {
       for (const w of job.input.words) yield w.toUpperCase();
     };`,
  );
  fs.writeFileSync(
    path.join(dir, "typed.ts"),
    `interface Job { id: string; input: { n: number } }
     export async function handler(job: Job): Promise<number> { return job.input.n * 2; }`,
  );
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [
      spec({ id: "s", workersMin: 1, workersMax: 2 }),
      spec({ id: "u", imageName: "acme/echo:2", workersMin: 1 }),
      spec({ id: "g", imageName: "acme/gen", workersMin: 1 }),
      spec({ id: "t", imageName: "acme/typed:latest", workersMin: 1 }),
      spec({ id: "idle", workersMin: 0, workersMax: 0 }),
    ],
    options: {
      handlers: {
        "acme/echo": path.join(dir, "echo.js"),
        "acme/gen": path.join(dir, "gen.js"),
        "acme/typed:latest": path.join(dir, "typed.ts"),
      },
      streamWaitMs: 3000,
      streamChunkMaxBytes: 1000,
    },
  });
  await h.until(async () => (await h.call("GET", "/v2/s/health")).body.workers.idle === 1);
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function drain(ep: string, id: string): Promise<{ items: unknown[]; calls: number; last: Json }> {
  const items: unknown[] = [];
  let calls = 0;
  for (;;) {
    const r = await h.call("GET", `/v2/${ep}/stream/${id}`);
    calls++;
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.stream)).toBe(true);
    for (const s of r.body.stream) items.push(s.output);
    if (r.body.status === "COMPLETED" || r.body.status === "FAILED") return { items, calls, last: r.body };
    if (calls > 200) throw new Error("stream never finished");
  }
}

describe("stream", () => {
  it("delivers chunks in order, each once, then the aggregate list as output", async () => {
    const chunks = ["a", "b", "c", "d", "e"];
    const run = await h.call("POST", "/v2/s/run", { input: { stream: chunks, delayMs: 10_000 } });
    const { items, calls } = await drain("s", run.body.id);
    expect(items).toEqual(chunks);
    expect(calls).toBeGreaterThan(1);
    const after = await h.call("POST", `/v2/s/stream/${run.body.id}`, {});
    expect(after.body).toEqual({ status: "COMPLETED", stream: [] });
    expect((await h.call("GET", `/v2/s/status/${run.body.id}`)).body.output).toEqual(chunks);
  });

  it("long-polls when nothing is ready, then answers an empty stream", async () => {
    const run = await h.call("POST", "/v2/idle/run", { input: {} });
    const t0 = Date.now();
    const r = await h.call("GET", `/v2/idle/stream/${run.body.id}`);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(h.real(3000) - 2);
    expect(r.body).toEqual({ status: "IN_QUEUE", stream: [] });
  });

  it("hands a non-streaming job's output out once, split when larger than a chunk", async () => {
    const big = "x".repeat(2500);
    const run = await h.call("POST", "/v2/s/runsync", { input: { output: big } });
    const r = await h.call("GET", `/v2/s/stream/${run.body.id}`);
    expect(r.body.stream.length).toBe(3);
    expect(r.body.stream.map((s: { output: string }) => s.output).join("")).toBe(big);
    expect((await h.call("GET", `/v2/s/stream/${run.body.id}`)).body.stream).toEqual([]);
  });

  it("streams a user async generator's yields", async () => {
    const run = await h.call("POST", "/v2/g/run", { input: { words: ["x", "y", "z"] } });
    const { items, last } = await drain("g", run.body.id);
    expect(items).toEqual(["X", "Y", "Z"]);
    expect(last.status).toBe("COMPLETED");
    expect((await h.call("GET", `/v2/g/status/${run.body.id}`)).body.output).toEqual(["X", "Y", "Z"]);
  });
});

describe("progress", () => {
  it("shows progress updates as the output in /status while the job runs", async () => {
    const run = await h.call("POST", "/v2/s/run", { input: { progress: ["10%", "50%", "90%"], delayMs: 40_000, output: "done" } });
    const seen: unknown[] = [];
    for (;;) {
      const b = (await h.call("GET", `/v2/s/status/${run.body.id}`)).body;
      if (b.status === "COMPLETED") {
        expect(b.output).toBe("done");
        break;
      }
      if (b.output !== undefined && seen[seen.length - 1] !== b.output) seen.push(b.output);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const order = ["10%", "50%", "90%"];
    expect(seen.map((s) => order.indexOf(s as string))).toEqual([...seen.map((s) => order.indexOf(s as string))].sort());
    expect(seen.every((s) => order.includes(s as string))).toBe(true);
  });
});

describe("user handler modules", () => {
  it("passes id, input and s3Config to a .js handler and returns its output", async () => {
    const s3Config = { accessId: "a", accessSecret: "b", bucketName: "bkt", endpointUrl: "https://s3.example.com" };
    const r = await h.call("POST", "/v2/u/runsync", { input: { q: 1 }, s3Config });
    expect(r.body.status).toBe("COMPLETED");
    expect(r.body.output).toEqual({ got: { q: 1 }, id: r.body.id, s3: s3Config });
  });

  it("fails the job with the message a handler throws; progress works", async () => {
    const r = await h.call("POST", "/v2/u/runsync", { input: { fail: "bad q" } });
    expect(r.body).toMatchObject({ status: "FAILED", error: "user handler says no: bad q" });
    const p = await h.call("POST", "/v2/u/run", { input: { progress: true } });
    const running = await h.until(async () => {
      const b = (await h.call("GET", `/v2/u/status/${p.body.id}`)).body;
      return b.status === "IN_PROGRESS" && b.output === "working" ? b : undefined;
    });
    expect(running.output).toBe("working");
  });

  it("loads a .ts handler through Node's type stripping", async () => {
    const r = await h.call("POST", "/v2/t/runsync", { input: { n: 21 } });
    expect(r.body).toMatchObject({ status: "COMPLETED", output: 42 });
  });
});

describe("/openai", () => {
  it("routes to the handler as openai_route + openai_input and answers with its output", async () => {
    const body = { model: "m1", messages: [{ role: "user", content: "hi there" }] };
    const r = await h.call("POST", "/v2/s/openai/v1/chat/completions", body);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body).toMatchObject({ object: "chat.completion", model: "m1" });
    expect(r.body.choices[0].message).toEqual({ role: "assistant", content: "hi there" });
    const models = await h.call("GET", "/v2/s/openai/v1/models");
    expect(models.body.data[0].id).toBe("emulator-echo");
    const viaUser = await h.call("POST", "/v2/u/openai/v1/embeddings", { input: "abc" });
    expect(viaUser.body.got).toEqual({ openai_route: "/v1/embeddings", openai_input: { input: "abc" } });
  });
});

describe("webhook", () => {
  it("retries a failing receiver: 3 POSTs in all, 10 s apart, body = record + input", async () => {
    const posts: { body: Json; at: number; method: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c: Buffer) => (data += c.toString()));
      req.on("end", () => {
        posts.push({ body: JSON.parse(data), at: Date.now(), method: req.method ?? "" });
        if (posts.length === 1) {
          res.writeHead(500);
          res.end("no");
        } else if (posts.length === 2) {
          req.socket.destroy(); // connection failure
        } else {
          res.writeHead(200);
          res.end("ok");
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const input = { output: { v: 1 }, tag: "hook" };
      const r = await h.call("POST", "/v2/s/runsync", { input, webhook: `http://127.0.0.1:${port}/hook` });
      await h.until(() => posts.length === 3, 15_000, "three webhook posts");
      await new Promise((res) => setTimeout(res, h.real(25_000)));
      expect(posts).toHaveLength(3);
      expect(posts.every((p) => p.method === "POST")).toBe(true);
      const { body } = posts[2]!;
      expect(body).toMatchObject({ id: r.body.id, status: "COMPLETED", output: { v: 1 }, input, workerId: r.body.workerId });
      expect(body.executionTime).toEqual(expect.any(Number));
      expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(h.real(10_000) - 2);

      // Every final state is reported, CANCELLED included.
      const q = await h.call("POST", "/v2/idle/run", { input: { n: 2 }, webhook: `http://127.0.0.1:${port}/hook` });
      await h.call("POST", `/v2/idle/cancel/${q.body.id}`);
      await h.until(() => posts.length === 4, 15_000, "cancel webhook");
      expect(posts[3]!.body).toEqual({ id: q.body.id, status: "CANCELLED", delayTime: expect.any(Number), input: { n: 2 } });
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});
