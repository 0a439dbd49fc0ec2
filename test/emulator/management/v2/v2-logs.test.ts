/**
 * /api/v2 log streams over real HTTP: GET /pods/{id}/logs and GET /serverless/{id}/workers/{workerId}/logs
 * as Server-Sent Events. The event shape (`data` {source, line, ts}, `id` = ts) is held against the
 * project's description of the wire (fixtures/v2-wire.json: the operations' `events`); `tail`,
 * `source`, `since` and `Last-Event-ID` choose what is sent; a pod's log holds its boot and status
 * lines and what a test writes; a worker's log its job lines, what a handler logs, and a worker
 * process's own output. The events are read by the small reader below, not by the client package's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, KEY_B, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { checkV2Event } from "../../../support/v2Corpus";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem, waitForStatus } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator({
    workers: { "example/printing-worker": "sh -c 'echo booting the model; echo weights loaded; sleep 30'" },
  });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

interface Event {
  id: string | undefined;
  data: { source: string; line: string; ts: string };
}

interface Stream {
  status: number;
  headers: Headers;
  events: Event[];
  /** Comments (": ...") seen. */
  comments: string[];
}

function parse(block: string): { event?: Event; comment?: string } {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) return { comment: line.slice(1).trim() };
    if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  return { event: { id, data: JSON.parse(data.join("\n")) as Event["data"] } };
}

/**
 * Opens a stream and reads until `enough` says so. The emulator writes the whole backfill in one
 * piece, so the default (`backfill`) stops after the first complete piece.
 */
async function open(
  path: string,
  options: { headers?: Record<string, string>; key?: string; enough?: (s: Stream) => boolean; onBackfill?: () => void } = {},
): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${emu.apiUrlV2}${path}`, {
    headers: { authorization: `Bearer ${options.key ?? emu.apiKey}`, ...options.headers },
    signal: controller.signal,
  });
  const stream: Stream = { status: res.status, headers: res.headers, events: [], comments: [] };
  if (res.status !== 200 || !res.body) {
    stream.comments.push(await res.text());
    return stream;
  }
  const enough = options.enough ?? (() => true);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let backfilled = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const { event, comment } = parse(buffer.slice(0, end));
        if (event) stream.events.push(event);
        if (comment !== undefined) stream.comments.push(comment);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
      }
      if (buffer !== "") continue;
      if (!backfilled) {
        backfilled = true;
        options.onBackfill?.();
      }
      if (enough(stream)) break;
    }
  } finally {
    controller.abort();
  }
  return stream;
}

const lines = (s: Stream) => s.events.map((e) => e.data.line);

async function runningPod(name: string): Promise<string> {
  const created = await v2.post("/pods", { ...V2_GPU_POD, name });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await waitForStatus(v2, id, "RUNNING");
  return id;
}

describe("GET /api/v2/pods/{id}/logs", () => {
  it("streams the pod's boot and status lines as events of the described shape, id = ts, in order", async () => {
    const id = await runningPod("logged");
    const stream = await open(`/pods/${id}/logs`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.headers.get("cache-control")).toBe("no-cache");
    expect(stream.headers.get("x-accel-buffering")).toBe("no");
    expect(stream.headers.get("ratelimit")).toMatch(/minute/);
    expect(lines(stream)).toEqual([
      expect.stringMatching(/^status PROVISIONING: .*1x NVIDIA GeForce RTX 4090 in .*image example\/app:1$/),
      "status STARTING: pulling example/app:1 and starting the container",
      "status RUNNING: the container is running",
    ]);
    for (const event of stream.events) {
      expect(checkV2Event("getPodLogs", event.data)).toEqual([]);
      expect(event.data.source).toBe("system");
      expect(event.id).toBe(event.data.ts);
      expect(event.data.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    }
    const times = stream.events.map((e) => e.data.ts);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
  });

  it("shows what a test writes as container lines; `source` keeps one source, `tail` the last lines, tail=0 none", async () => {
    const id = await runningPod("written");
    emu.writePodLog(id, "listening on :8888\nready for requests\n");
    const container = await open(`/pods/${id}/logs?source=container`);
    expect(container.events.map((e) => [e.data.source, e.data.line])).toEqual([
      ["container", "listening on :8888"],
      ["container", "ready for requests"],
    ]);
    expect(lines(await open(`/pods/${id}/logs?source=system`))).toHaveLength(3);
    expect(lines(await open(`/pods/${id}/logs?tail=2`))).toEqual(["listening on :8888", "ready for requests"]);
    const none = await open(`/pods/${id}/logs?tail=0`);
    expect(none.events).toEqual([]);
    expect(none.comments).toEqual(["no earlier lines"]);
    expect(() => emu.writePodLog("no-such-pod", "x")).toThrow(/no account has pod "no-such-pod"/);
  });

  it("resumes after Last-Event-ID (which wins over since and tail), and from since (inclusive, tail ignored)", async () => {
    const id = await runningPod("resumed");
    emu.writePodLog(id, "one\ntwo\nthree");
    const all = await open(`/pods/${id}/logs`);
    const two = all.events.find((e) => e.data.line === "two");
    if (!two?.id) throw new Error("no event for line two");
    const after = await open(`/pods/${id}/logs?tail=1&since=2000-01-01T00:00:00Z`, { headers: { "Last-Event-ID": two.id } });
    expect(lines(after)).toEqual(["three"]);
    expect(lines(await open(`/pods/${id}/logs?tail=1&since=${encodeURIComponent(two.data.ts)}`))).toEqual(["two", "three"]);
  });

  it("sends lines written after it opened, live", async () => {
    const id = await runningPod("live");
    // Written once the backfill (here the comment saying there is none) has arrived: the stream is open.
    const reading = open(`/pods/${id}/logs?tail=0`, {
      enough: (s) => s.events.length >= 2,
      onBackfill: () => {
        emu.writePodLog(id, "epoch 1 loss 0.9");
        emu.writePodLog(id, "epoch 2 loss 0.7");
      },
    });
    expect(lines(await reading)).toEqual(["epoch 1 loss 0.9", "epoch 2 loss 0.7"]);
  });

  it("logs a stop, a failure and a start; the stream of a deleted pod ends", async () => {
    const id = await runningPod("failing");
    emu.failPod(id, "CUDA error: out of memory");
    const failed = await open(`/pods/${id}/logs?source=system&tail=2`);
    expect(lines(failed)).toEqual(["status EXITED: failed", "status ERROR: CUDA error: out of memory"]);
    let deleted: Promise<number> | undefined;
    const reading = open(`/pods/${id}/logs?tail=0`, {
      enough: () => false,
      onBackfill: () => {
        deleted = v2.del(`/pods/${id}`).then((res) => res.status);
      },
    });
    // The stream ends by itself (the reader would wait forever otherwise).
    const ended = await reading;
    expect(ended.status).toBe(200);
    expect(await deleted).toBe(204);
  });

  it("refuses what the reference refuses: unknown or another account's pod 404, a bad tail, since or Last-Event-ID 400", async () => {
    const id = await runningPod("refusals");
    expectProblem(await v2.get("/pods/nope/logs"), 404);
    expectProblem(await apiV2(emu, KEY_B).get(`/pods/${id}/logs`), 404);
    expect(expectProblem(await v2.get(`/pods/${id}/logs`, { tail: "5001" }), 400).detail).toMatch(/tail/);
    expect(expectProblem(await v2.get(`/pods/${id}/logs`, { tail: "-1" }), 400).detail).toMatch(/tail/);
    expect(expectProblem(await v2.get(`/pods/${id}/logs`, { since: "yesterday" }), 400).detail).toMatch(/since/);
    expect(expectProblem(await v2.get(`/pods/${id}/logs`, { source: "kernel" }), 400).detail).toMatch(/source/);
    const badId = await v2.raw("GET", `/pods/${id}/logs`, { headers: { "Last-Event-ID": "42" } });
    expect(expectProblem(badId, 400).detail).toMatch(/Last-Event-ID.*RFC 3339.*got "42"/);
  });
});

describe("GET /api/v2/serverless/{id}/workers/{workerId}/logs", () => {
  it("streams a simulated worker's boot, the lines its handler logs and each job's end", async () => {
    const created = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "logged endpoint" });
    expect(created.status).toBe(201);
    const endpointId = created.body.id as string;
    const job = await fetch(`${emu.serverlessUrl}/${endpointId}/runsync`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ input: { log: ["loading weights", "CUDA out of memory"], error: "handler raised RuntimeError" } }),
    });
    const record = (await job.json()) as { id: string; status: string; workerId: string };
    expect(record.status).toBe("FAILED");
    const stream = await open(`/serverless/${endpointId}/workers/${record.workerId}/logs`);
    // Its idle timeout may pass before the read on a busy machine: then its stop follows.
    const stopped = [["system", `worker ${record.workerId} stopped`]];
    expect(stream.events.map((e) => [e.data.source, e.data.line]).slice(6)).toEqual(stream.events.length > 6 ? stopped : []);
    expect(stream.events.slice(0, 6).map((e) => [e.data.source, e.data.line])).toEqual([
      ["system", expect.stringMatching(new RegExp(`^worker ${record.workerId} starting \\(cold start\\): .* in .*$`))],
      ["system", `worker ${record.workerId} ready`],
      ["container", `job ${record.id} started`],
      ["container", "loading weights"],
      ["container", "CUDA out of memory"],
      ["container", `job ${record.id} FAILED: handler raised RuntimeError`],
    ]);
    for (const event of stream.events) expect(checkV2Event("getWorkerLogs", event.data)).toEqual([]);
    // The system lines only: its boot (and, once its idle timeout has passed, its stop).
    const system = await open(`/serverless/${endpointId}/workers/${record.workerId}/logs?source=system`);
    expect(new Set(system.events.map((e) => e.data.source))).toEqual(new Set(["system"]));
    expect(lines(system).slice(0, 2)).toEqual([expect.stringMatching(/starting \(cold start\)/), `worker ${record.workerId} ready`]);
  });

  it("streams a worker process's own output (--worker)", async () => {
    const created = await v2.post("/serverless", {
      ...V2_QUEUE_ENDPOINT,
      name: "process endpoint",
      image: "example/printing-worker",
      workers: { min: 1, max: 1 },
    });
    const endpointId = created.body.id as string;
    const workerId = await waitFor("the worker process", async () => {
      const workers = (await v2.get(`/serverless/${endpointId}/workers`)).body.workers as { id: string }[];
      return workers[0]?.id;
    });
    const stream = await waitFor("the process's output", async () => {
      const s = await open(`/serverless/${endpointId}/workers/${workerId}/logs`);
      return s.events.length >= 3 ? s : undefined;
    });
    expect(stream.events.map((e) => [e.data.source, e.data.line])).toEqual([
      ["system", `worker ${workerId} process started for image example/printing-worker`],
      ["container", "booting the model"],
      ["container", "weights loaded"],
    ]);
  });

  it("streams what the service saw of a worker started elsewhere (the worker pull protocol)", async () => {
    const created = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "external endpoint" });
    const endpointId = created.body.id as string;
    const jobApi = (path: string, init: RequestInit = {}) =>
      fetch(`${emu.serverlessUrl}/${endpointId}${path}`, {
        ...init,
        headers: { authorization: emu.apiKey, "content-type": "application/json" },
      });
    const submitted = (await (await jobApi("/run", { method: "POST", body: JSON.stringify({ input: {} }) })).json()) as { id: string };
    const taken = await jobApi("/job-take/ext-1?job_in_progress=0");
    expect(((await taken.json()) as { id: string }).id).toBe(submitted.id);
    await jobApi(`/job-done/ext-1/${submitted.id}?isStream=false`, { method: "POST", body: JSON.stringify({ error: "boom" }) });
    const stream = await open(`/serverless/${endpointId}/workers/ext-1/logs`);
    expect(stream.events.map((e) => [e.data.source, e.data.line])).toEqual([
      ["system", "worker ext-1 connected: its first request to the job API"],
      ["system", `job ${submitted.id} started`],
      ["system", `job ${submitted.id} FAILED: boom`],
    ]);
  });

  it("404s an unknown endpoint, another account's, and an unknown worker", async () => {
    const created = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "refusing endpoint" });
    const endpointId = created.body.id as string;
    expectProblem(await v2.get("/serverless/nope/workers/w1/logs"), 404);
    expect(expectProblem(await v2.get(`/serverless/${endpointId}/workers/nope/logs`), 404).detail).toMatch(/worker not found/);
    expectProblem(await apiV2(emu, KEY_B).get(`/serverless/${endpointId}/workers/nope/logs`), 404);
  });
});

describe("the description", () => {
  it("describes both streams as text/event-stream with their query and header parameters and the 400 they may answer", async () => {
    const doc = (await (await fetch(`${emu.apiUrlV2}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }>; parameters: { name: string; in: string }[] }>
      >;
    };
    for (const path of ["/pods/{id}/logs", "/serverless/{id}/workers/{workerId}/logs"]) {
      const op = doc.paths[path]?.get;
      expect(Object.keys(op?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
      expect(op?.responses["400"]).toBeDefined();
      expect(op?.parameters.map((p) => `${p.in} ${p.name}`)).toEqual(
        expect.arrayContaining(["query source", "query tail", "query since", "header Last-Event-ID"]),
      );
    }
  });
});
