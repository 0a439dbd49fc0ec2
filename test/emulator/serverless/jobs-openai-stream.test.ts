// /openai/* with "stream": true over real HTTP: SSE framing, order, incremental delivery, the
// [DONE] terminator, errors before and after the first byte; and /requests listing those jobs.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, spec, startHarness, type Harness } from "../../support/jobsHarness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [spec({ id: "s", workersMin: 1 }), spec({ id: "x", imageName: "acme/sse", workersMin: 1, workersMax: 1 })],
    options: { handlers: { "acme/sse": path.join(__dirname, "..", "..", "support", "fixtures", "openai-sse.cjs") } },
  });
  await h.until(async () => (await h.call("GET", "/v2/x/health")).body.workers.idle === 1);
});
afterAll(async () => {
  await h.close();
});

function post(ep: string, route: string, body: unknown): Promise<Response> {
  return fetch(`${h.url}/v2/${ep}/openai${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The raw event blocks of an SSE body (each without its terminating blank line). */
function blocks(text: string): string[] {
  expect(text.endsWith("\n\n")).toBe(true);
  return text.slice(0, -2).split("\n\n");
}

describe("/openai streamed", () => {
  it("streams a chat completion as chat.completion.chunk events ending in data: [DONE]", async () => {
    const r = await post("s", "/v1/chat/completions", {
      model: "m1",
      stream: true,
      messages: [{ role: "user", content: "hello big world" }],
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = blocks(await r.text());
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => {
      expect(e.startsWith("data: ")).toBe(true);
      return JSON.parse(e.slice(6));
    });
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "m1" && c.id === chunks[0].id)).toBe(true);
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe("hello big world");
    expect(chunks.slice(1, -1).length).toBe(3);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("stop");
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
  });

  it("streams a completion as text_completion events; without stream the answer stays one JSON body", async () => {
    const streamed = blocks(await (await post("s", "/v1/completions", { prompt: "a b", stream: true })).text());
    expect(streamed.map((e) => (e === "data: [DONE]" ? "DONE" : JSON.parse(e.slice(6)).choices[0].text))).toEqual(["a ", "b", "", "DONE"]);
    const plain = await post("s", "/v1/completions", { prompt: "a b" });
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(((await plain.json()) as { choices: { text: string }[] }).choices[0]!.text).toBe("a b");
  });

  it("writes each chunk as the handler yields it, in order", async () => {
    const r = await post("x", "/v1/chat/completions", { mode: "slow", stream: true });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('data: {"n":1}\n\n');
    // The job is still running when the first event arrives: delivery is incremental.
    const listed = (await h.call("GET", "/v2/x/requests")).body.requests;
    expect(listed[0]).toMatchObject({ origin: "openai", status: "IN_PROGRESS" });
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe('data: {"n":2}\n\ndata: {"n":3}\n\ndata: [DONE]\n\n');
  });

  it("ends a stream that fails after its first chunk with an error event and no [DONE]", async () => {
    const r = await post("x", "/v1/chat/completions", { mode: "fail", stream: true });
    expect(r.status).toBe(200);
    const events = blocks(await r.text());
    expect(events[0]).toBe('data: {"n":1}');
    expect(events).toHaveLength(2);
    const [kind, data] = events[1]!.split("\n");
    expect(kind).toBe("event: error");
    const error = JSON.parse(data!.slice(6)).error;
    expect(error).toMatchObject({ type: "server_error", code: 500 });
    expect(error.message).toContain("boom mid-stream");
  });

  it("answers a stream that fails before its first chunk with a JSON error, like the plain route", async () => {
    const r = await post("x", "/v1/chat/completions", { mode: "failFirst", stream: true });
    expect(r.status).toBe(500);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(((await r.json()) as { error: string }).error).toContain("refused before any chunk");
  });

  it("passes handler-framed text through verbatim and does not repeat [DONE]", async () => {
    const text = await (await post("x", "/v1/chat/completions", { mode: "framed", stream: true })).text();
    expect(text).toBe('data: {"x":1}\n\ndata: [DONE]\n\n');
  });

  it("sends a handler's whole (unstreamed) output as one event", async () => {
    const text = await (await post("x", "/v1/chat/completions", { mode: "whole", stream: true })).text();
    expect(text).toBe('data: {"whole":true}\n\ndata: [DONE]\n\n');
  });
});

describe("/requests", () => {
  it("lists the endpoint's recent jobs newest first, with the reference's record fields", async () => {
    const run = await h.call("POST", "/v2/s/run", { input: { a: 1 } });
    await h.until(async () => (await h.call("GET", `/v2/s/status/${run.body.id}`)).body.status === "COMPLETED");
    const r = await h.call("GET", "/v2/s/requests?limit=2");
    expect(r.status).toBe(200);
    expect(r.body.requests).toHaveLength(2);
    const [newest, older] = r.body.requests;
    expect(newest).toMatchObject({ id: run.body.id, status: "COMPLETED", origin: "run", lowPriority: false });
    for (const key of ["submittedAt", "startedAt", "finishedAt"]) expect(Date.parse(newest[key])).not.toBeNaN();
    expect(typeof newest.executionTime).toBe("number");
    expect(older.origin).toBe("openai");
    expect((await h.call("GET", "/v2/s/requests?limit=0")).status).toBe(400);
  });
});

describe("/openai streamed from a worker on the pull protocol", () => {
  it("each job-stream post becomes an event as it arrives; a generator error ends the answer with an error event", async () => {
    const ext = await startHarness({
      timeScale: 0.01,
      endpoints: [spec({ id: "ext", imageName: "ext/vllm:1" })],
      options: { externalImages: ["ext/vllm"], workerPollWaitMs: 30_000 },
    });
    try {
      // A worker's request: the bare key and JSON labelled as a form, as the service's SDK sends it.
      const worker = (method: string, p: string, body?: unknown) =>
        fetch(`${ext.url}/v2/ext${p}`, {
          method,
          headers: { authorization: KEY, "content-type": "application/x-www-form-urlencoded" },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      for (const outcome of ["ok", "error"] as const) {
        const answer = fetch(`${ext.url}/v2/ext/openai/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "m", stream: true }),
        });
        const taken = (await (await worker("GET", "/job-take/w1?job_in_progress=0")).json()) as { id: string; input: unknown };
        expect(taken.input).toEqual({ openai_route: "/v1/chat/completions", openai_input: { model: "m", stream: true } });
        // OpenAI-compatible workers yield text already framed as events.
        await worker("POST", `/job-stream/w1/${taken.id}?isStream=false`, { output: 'data: {"part":1}\n\n' });
        const r = await answer;
        expect(r.status).toBe(200);
        const reader = r.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"part":1}\n\n');
        await worker("POST", `/job-stream/w1/${taken.id}?isStream=false`, { output: { part: 2 } });
        const done = outcome === "ok" ? { output: [] } : { error: "handler: out of memory \ntraceback: ..." };
        await worker("POST", `/job-done/w1/${taken.id}?isStream=true`, done);
        let rest = "";
        for (let piece = await reader.read(); !piece.done; piece = await reader.read()) rest += new TextDecoder().decode(piece.value);
        if (outcome === "ok") expect(rest).toBe('data: {"part":2}\n\ndata: [DONE]\n\n');
        else {
          expect(rest.startsWith('data: {"part":2}\n\nevent: error\ndata: ')).toBe(true);
          expect(rest).toContain("out of memory");
          expect(rest).not.toContain("[DONE]");
        }
      }
    } finally {
      await ext.close();
    }
  });
});
