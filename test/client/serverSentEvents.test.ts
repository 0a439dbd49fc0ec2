// The server-sent events reader (client/serverSentEvents.ts): framing rules, fed piece by piece.
import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "../../client/serverSentEvents";

async function read(...pieces: (string | Uint8Array)[]): Promise<ServerSentEvent[]> {
  async function* body() {
    for (const p of pieces) yield p;
  }
  const out: ServerSentEvent[] = [];
  for await (const e of readServerSentEvents(body())) out.push(e);
  return out;
}

describe("readServerSentEvents", () => {
  it("one event per blank line, data as sent, event defaulting to message", async () => {
    expect(await read('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: "message", data: '{"a":1}' },
      { event: "message", data: "[DONE]" },
    ]);
  });

  it("accepts \\r\\n and \\r line ends, even when a \\r\\n is split between pieces", async () => {
    expect(await read("data: a\r", "\n\r\ndata: b\r\rdata: c\n\n")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "b" },
      { event: "message", data: "c" },
    ]);
  });

  it("joins data lines with \\n, keeps event and id, strips one leading space only", async () => {
    expect(await read("event: error\nid: 7\ndata:  two spaces\ndata:none\n\n")).toEqual([
      { event: "error", id: "7", data: " two spaces\nnone" },
    ]);
  });

  it("skips comments and events without data; an unterminated last event is not dispatched", async () => {
    expect(await read(": keep-alive\n\nevent: ping\n\ndata: x\n\ndata: cut off")).toEqual([{ event: "message", data: "x" }]);
  });

  it("decodes UTF-8 split across byte pieces", async () => {
    const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
    const cut = 8; // inside "é"
    expect(await read(bytes.slice(0, cut), bytes.slice(cut))).toEqual([{ event: "message", data: "héllo ✓" }]);
  });
});
