// Reading recent log lines (client/logs.ts) from a scripted server that streams Server-Sent Events
// and never ends the stream itself, as the service does: bounded by lines (sent as `tail`), bytes,
// a quiet spell and a deadline; every line redacted; failures typed.
import { describe, expect, it, onTestFinished } from "vitest";
import { NotFoundError } from "../../client/errors";
import { LogReadOptionsError, readRecentLog } from "../../client/logs";
import { ManagementClientV2 } from "../../client/managementV2";
import { Transport } from "../../client/transport";
import { json, startScriptedServer, type ScriptedServer, type Step } from "../support/scriptedServer";

const KEY = "sk-live-key-123";
let server: ScriptedServer | undefined;

function event(line: string, i: number, source = "container"): string {
  const ts = `2026-12-02T08:00:00.${String(i).padStart(6, "0")}Z`;
  return `id: ${ts}\ndata: ${JSON.stringify({ source, line, ts })}\n\n`;
}

/** Answers the stream with `body` and keeps the connection open (`end`: closes it after). */
function streaming(body: string, end = false): Step {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(body);
    if (end) res.end();
  };
}

/** A transport to a scripted server answering every request with `step`; both closed when the test ends. */
async function scripted(step: Step): Promise<Transport> {
  const started = await startScriptedServer(step);
  server = started;
  const transport = new Transport({ baseUrl: `${started.origin}/v2`, apiKey: KEY, maxRetries: 0 });
  onTestFinished(async () => {
    await transport.close();
    await started.close();
  });
  return transport;
}

describe("readRecentLog", () => {
  it("asks for `lines` as tail and stops once it has them, oldest first", async () => {
    const t = await scripted(streaming(["a", "b", "c"].map((line, i) => event(line, i)).join("")));
    const log = await readRecentLog(t, { podId: "pod 1" }, { lines: 3 });
    expect(log.lines.map((l) => l.line)).toEqual(["a", "b", "c"]);
    expect(log.lines[0]).toEqual({ source: "container", line: "a", ts: "2026-12-02T08:00:00.000000Z" });
    expect(log).toMatchObject({ ended: "lines", droppedLines: 0, path: "/pods/pod%201/logs" });
    expect(log.url).toBe(`${server?.origin}/v2/pods/pod%201/logs`);
    expect(server?.requests[0]?.url).toBe("/v2/pods/pod%201/logs?tail=3");
    expect(server?.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("ends after a quiet spell when the log has fewer lines than asked, and when the service closes the stream", async () => {
    const t = await scripted(streaming(event("only", 1)));
    const quiet = await readRecentLog(t, { endpointId: "ep", workerId: "w1" }, { lines: 50, quietMs: 50, source: "system" });
    expect(quiet.lines.map((l) => l.line)).toEqual(["only"]);
    expect(quiet.ended).toBe("quiet");
    expect(server?.requests[0]?.url).toBe("/v2/serverless/ep/workers/w1/logs?tail=50&source=system");
    const closing = await scripted(streaming(event("last words", 1), true));
    expect((await readRecentLog(closing, { podId: "p" }, { lines: 50 })).ended).toBe("closed");
  });

  it("keeps at most maxBytes of text, dropping the oldest lines", async () => {
    const t = await scripted(streaming(["line-0001", "line-0002", "line-0003", "line-0004"].map((line, i) => event(line, i)).join("")));
    const log = await readRecentLog(t, { podId: "p" }, { lines: 4, maxBytes: 20 });
    expect(log.lines.map((l) => l.line)).toEqual(["line-0003", "line-0004"]);
    expect(log.droppedLines).toBe(2);
  });

  it("redacts the API key, bearer tokens, values of secret-looking names and the caller's secrets", async () => {
    const lines = [
      `using key ${KEY}`,
      "Authorization: Bearer abc.def",
      "env HF_TOKEN=hf_secret OPENAI_API_KEY='sk-2' db_password: hunter2",
      "connected to s3 with my-own-secret-value",
      "loss=0.3 epoch=2",
    ];
    const t = await scripted(streaming(lines.map((line, i) => event(line, i)).join("")));
    const log = await readRecentLog(t, { podId: "p" }, { lines: 5, redact: ["my-own-secret-value"] });
    expect(log.lines.map((l) => l.line)).toEqual([
      "using key [redacted]",
      "Authorization: Bearer [redacted]",
      "env HF_TOKEN=[redacted] OPENAI_API_KEY=[redacted] db_password: [redacted]",
      "connected to s3 with [redacted]",
      "loss=0.3 epoch=2",
    ]);
  });

  it("keeps an event that is not the documented shape as a line of source unknown", async () => {
    const t = await scripted(streaming("id: 7\ndata: plain text\n\n"));
    const log = await readRecentLog(t, { podId: "p" }, { lines: 1 });
    expect(log.lines).toEqual([{ source: "unknown", line: "plain text", ts: "7" }]);
  });

  it("an unknown pod is a NotFoundError without the key; bad options and ids are refused before sending", async () => {
    const t = await scripted(json(404, { title: "Not Found", status: 404, detail: "pod not found" }));
    const error = await readRecentLog(t, { podId: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(String((error as Error).message)).toMatch(/getPodLogs.*pod not found/);
    expect(String((error as Error).message)).not.toContain(KEY);
    const sent = server?.requests.length;
    await expect(readRecentLog(t, { podId: "p" }, { lines: 5001 })).rejects.toThrow(LogReadOptionsError);
    await expect(readRecentLog(t, { podId: "p" }, { maxBytes: 0 })).rejects.toThrow(/maxBytes must be a whole number from 1/);
    await expect(readRecentLog(t, { endpointId: "ep", workerId: "" })).rejects.toThrow(/getWorkerLogs: id must be a non-empty string/);
    expect(server?.requests.length).toBe(sent);
  });

  it("is ManagementClientV2's podLog and workerLog", async () => {
    const client = new ManagementClientV2(await scripted(streaming(event("hello", 1))));
    expect((await client.workerLog("ep", "w", { lines: 1 })).lines.map((l) => l.line)).toEqual(["hello"]);
    expect((await client.podLog("p", { lines: 1 })).path).toBe("/pods/p/logs");
  });
});

describe("readRecentLog against the emulator", () => {
  it("reads a pod's last lines from the emulator's stream", async () => {
    const { startEmulator } = await import("../../emulator/index");
    const emu = await startEmulator({ timeScale: 0.01 });
    const client = new ManagementClientV2({ baseUrl: emu.apiUrlV2, apiKey: emu.apiKey });
    try {
      const pod = await client.pods.create({ name: "p", image: "example/app:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } });
      emu.writePodLog(pod.id, `token=${emu.apiKey}\nstep 1\nstep 2`);
      const log = await client.podLog(pod.id, { lines: 3, source: "container" });
      expect(log.lines.map((l) => l.line)).toEqual(["token=[redacted]", "step 1", "step 2"]);
      expect(log.ended).toBe("lines");
      const all = await client.podLog(pod.id, { lines: 100, quietMs: 200 });
      expect(all.ended).toBe("quiet");
      expect(all.lines.map((l) => l.source)).toContain("system");
    } finally {
      await client.close();
      await emu.close();
    }
  });
});
