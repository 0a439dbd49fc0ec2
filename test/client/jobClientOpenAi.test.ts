// JobClient's /openai/* (plain and streamed), /requests and the status ttl check, against the
// emulator's job API on a real HTTP server.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerError } from "../../client/errors";
import { JobClient, JobRequestError, OpenAiStreamError, type ServerSentEvent } from "../../client/jobClient";
import { KEY, spec, startHarness, type Harness } from "../support/jobsHarness";

let h: Harness;
let client: JobClient;

beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.01,
    endpoints: [spec({ id: "s", workersMin: 1 }), spec({ id: "x", imageName: "acme/sse", workersMin: 1, workersMax: 1 })],
    options: { handlers: { "acme/sse": path.join(__dirname, "..", "support", "fixtures", "openai-sse.cjs") } },
  });
  client = new JobClient({ apiKey: KEY, serverlessUrl: `${h.url}/v2`, maxRetries: 0 });
  await h.until(async () => (await client.health("x")).workers.idle === 1);
});
afterAll(async () => {
  await client.close();
  await h.close();
});

async function collect(events: AsyncIterable<ServerSentEvent>): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const chat = { model: "m1", messages: [{ role: "user", content: "one two three" }] };

describe("JobClient.openai", () => {
  it("passes a chat completion through as the worker answered it", async () => {
    const answer = (await client.openai("s", "/v1/chat/completions", chat)) as {
      object: string;
      choices: { message: { content: string } }[];
    };
    expect(answer.object).toBe("chat.completion");
    expect(answer.choices[0]!.message.content).toBe("one two three");
  });

  it("a request without a body is a GET (/v1/models)", async () => {
    const models = (await client.openai("s", "/v1/models")) as { object: string; data: { id: string }[] };
    expect(models.object).toBe("list");
    expect(models.data.length).toBeGreaterThan(0);
  });

  it("a handler failure is a ServerError carrying the service's message", async () => {
    const error = await client.openai("x", "/v1/chat/completions", { mode: "failFirst" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(String((error as Error).message)).toContain("refused before any chunk");
  });

  it("refuses a wrong route or a streaming body before sending, naming the value and the fix", async () => {
    await expect(client.openai("s", "v1/models")).rejects.toThrow(/must start with "\/".*"v1\/models"/);
    await expect(client.openai("s", "/openai/v1/models")).rejects.toThrow(/without the \/openai prefix.*"\/v1\/models"/);
    await expect(client.openai("s", "/v1/chat/completions", { ...chat, stream: true })).rejects.toThrow(/use openaiStream\(\)/);
    await expect(client.openai("s", "/v1/chat/completions", [] as unknown as Record<string, unknown>)).rejects.toBeInstanceOf(
      JobRequestError,
    );
  });
});

describe("JobClient.openaiStream", () => {
  it("yields the chunks as server-sent events, in order, and stops at [DONE]", async () => {
    const events = await collect(client.openaiStream("s", "/v1/chat/completions", chat));
    expect(events.every((e) => e.event === "message")).toBe(true);
    const chunks = events.map(
      (e) => JSON.parse(e.data) as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[] },
    );
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe("one two three");
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe("stop");
    expect(events.some((e) => e.data === "[DONE]")).toBe(false);
  });

  it("yields each event as it arrives, before the job has finished", async () => {
    const stream = client.openaiStream("x", "/v1/chat/completions", { mode: "slow" });
    const first = await stream.next();
    expect(first.value).toEqual({ event: "message", data: '{"n":1}' });
    const listed = await client.requests("x", { limit: 1 });
    expect(listed[0]).toMatchObject({ origin: "openai", status: "IN_PROGRESS" });
    expect((await collect(stream)).map((e) => e.data)).toEqual(['{"n":2}', '{"n":3}']);
  });

  it("an error after the first chunk throws OpenAiStreamError once the earlier events were yielded", async () => {
    const seen: string[] = [];
    const error = await (async () => {
      for await (const e of client.openaiStream("x", "/v1/chat/completions", { mode: "fail" })) seen.push(e.data);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['{"n":1}']);
    expect(error).toBeInstanceOf(OpenAiStreamError);
    expect((error as OpenAiStreamError).route).toBe("/v1/chat/completions");
    expect((error as OpenAiStreamError).message).toContain("boom mid-stream");
  });

  it("an error before the first chunk is the usual ApiError", async () => {
    await expect(collect(client.openaiStream("x", "/v1/chat/completions", { mode: "failFirst" }))).rejects.toBeInstanceOf(ServerError);
  });

  it("stopping early closes the answer; the client keeps working", async () => {
    for await (const e of client.openaiStream("x", "/v1/chat/completions", { mode: "slow" })) {
      expect(e.data).toBe('{"n":1}');
      break;
    }
    expect((await client.health("s")).jobs).toBeDefined();
  });
});

describe("JobClient.requests and status ttl", () => {
  it("lists recent jobs newest first, typed", async () => {
    const job = await client.runSync("s", { input: { hello: 1 } }, { waitMs: 5_000 });
    const [newest] = await client.requests("s", { limit: 5 });
    expect(newest).toMatchObject({ id: job.id, status: "COMPLETED", origin: "runsync", lowPriority: false });
    expect(typeof newest!.executionTime).toBe("number");
    await expect(client.requests("s", { limit: 0 })).rejects.toThrow(/limit must be a whole number between 1 and 1000 \(got 0\)/);
  });

  it("status checks ttlMs against 10 s..7 d before sending", async () => {
    const job = await client.run("s", { input: {} });
    expect((await client.status("s", job.id, { ttlMs: 60_000 })).id).toBe(job.id);
    for (const bad of [5_000, 8 * 24 * 3_600_000, 12.5]) {
      const error = await client.status("s", job.id, { ttlMs: bad }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobRequestError);
      expect((error as JobRequestError).path).toBe("ttl");
      expect((error as Error).message).toContain(`(got ${bad})`);
    }
    await expect(client.status("s", job.id, { ttlMs: 5_000 })).rejects.toThrow(/use 10000\.\.604800000 ms/);
  });
});
