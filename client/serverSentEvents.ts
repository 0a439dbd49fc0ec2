/**
 * A server-sent events reader (the WHATWG "event stream" format): bytes in, one event per blank
 * line out. Lines end in \n, \r\n or \r; a line starting with ":" is a comment; `data` lines are
 * joined with \n; an event without data is not dispatched; unknown fields are ignored.
 */

export interface ServerSentEvent {
  /** The `event` field; "message" when the event named none. */
  event: string;
  /** The `data` lines joined with "\n", exactly as sent (not parsed). */
  data: string;
  /** The `id` field, when the event carried one. */
  id?: string;
}

/** Splits a byte stream into events, in order, as the bytes arrive. */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  // One line at a time; returns the finished event when the line was blank.
  const onLine = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      const done = data.length > 0 ? { event: event || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}) } : undefined;
      event = "";
      data = [];
      return done;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    return undefined;
  };
  for await (const piece of body) {
    buffer += typeof piece === "string" ? piece : decoder.decode(piece, { stream: true });
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone \r at the end may be the first half of \r\n: wait for the next piece.
      if (end < 0 || (end === buffer.length - 1 && buffer[end] === "\r")) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      const finished = onLine(line);
      if (finished) yield finished;
    }
  }
  // A stream that ends without the final blank line leaves its last event undispatched (the spec's rule).
}
