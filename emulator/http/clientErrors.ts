/**
 * Answers for requests node:http cannot parse (a garbage request line, a bad or duplicate
 * Content-Length, a malformed chunked body, NUL bytes in a header, headers over the size limit, an
 * unknown HTTP version, CONNECT): a JSON error with a status that says what was wrong, written
 * straight to the socket, then the connection is closed. Every surface gets the same body shape
 * `{"error": "...", "status": N}` since the surface is not known before the request line is read.
 */
import { type IncomingMessage, STATUS_CODES, type Server, ServerResponse, maxHeaderSize } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

interface ClientErrorAnswer {
  status: number;
  message: string;
}

/** Node's parser error codes (llhttp's `HPE_*`) to a status and a message a person can act on. */
export function clientErrorAnswer(code: string | undefined, reason: string, maxHeaderBytes: number): ClientErrorAnswer {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        message: `request headers are larger than the limit of ${maxHeaderBytes} bytes; send fewer or shorter headers`,
      };
    case "HPE_INVALID_VERSION":
      return { status: 505, message: "unsupported HTTP version; send HTTP/1.1 (or HTTP/1.0)" };
    case "HPE_INVALID_METHOD":
      return { status: 400, message: "malformed request line or unknown HTTP method; the API uses GET, POST, PATCH, PUT and DELETE" };
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return {
        status: 400,
        message: "invalid Content-Length header (not a number, repeated, or sent together with Transfer-Encoding); send exactly one",
      };
    case "HPE_INVALID_CHUNK_SIZE":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return { status: 400, message: "malformed chunked request body; send a valid chunked encoding or a Content-Length" };
    case "HPE_INVALID_HEADER_TOKEN":
      return { status: 400, message: "invalid character in a header name or value (e.g. a NUL byte or a space before the colon)" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "the request was not received in time" };
    default:
      return { status: 400, message: `malformed HTTP request: ${reason}` };
  }
}

/** Writes a complete JSON answer to a raw socket and closes it once sent. */
export function answerOnSocket(socket: Duplex, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  const body = JSON.stringify({ error: message, status });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("") +
      "content-type: application/json; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      "connection: close\r\n\r\n" +
      body,
  );
}

/** What node keeps on a server socket: the response being written, and the parser's current request. */
type ServerSocket = Duplex & {
  _httpMessage?: ServerResponse | null;
  parser?: { incoming?: IncomingMessage | null } | null;
};

/** A response of this socket that has already started: a raw answer would corrupt it. */
function responseStarted(socket: ServerSocket): boolean {
  return socket._httpMessage?.headersSent === true;
}

/**
 * Whether the parser failed on a request of its own (its request line or headers), after every
 * earlier request on the connection was read whole: then the earlier ones are still owed their
 * answers, in order, and this one's error comes after them. Otherwise it failed inside the body of
 * a request a handler is already serving, whose answer the error replaces.
 */
function failedOnNewRequest(socket: ServerSocket): boolean {
  const incoming = socket.parser?.incoming;
  return incoming === undefined || incoming === null || incoming.complete;
}

/**
 * Calls `then` once every answer owed on the socket has been written. Pipelined requests are
 * answered in order: node holds their responses in a queue and gives the socket to the next one
 * when the current one has finished, and releases it (`_httpMessage` null) after the last, so
 * waiting until the socket holds no response waits for them all. Nothing is called if the socket closes.
 */
function afterOwedAnswers(socket: ServerSocket, then: () => void): void {
  if (socket.destroyed) return;
  const current = socket._httpMessage;
  if (!current) {
    then();
    return;
  }
  // Finished but not yet released: node's own listener runs on the next ticks.
  if (current.writableFinished) {
    setImmediate(() => afterOwedAnswers(socket, then));
    return;
  }
  const onClose = (): void => {
    current.off("finish", onFinish);
  };
  const onFinish = (): void => {
    socket.off("close", onClose);
    setImmediate(() => afterOwedAnswers(socket, then));
  };
  current.once("finish", onFinish);
  socket.once("close", onClose);
}

/**
 * `connect`: serves a CONNECT request like any other (given, every surface answers it 405 with
 * `Allow` for the path, or 404); without it, CONNECT gets a bare 405 on the socket.
 */
export function installClientErrorHandlers(server: Server, connect?: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: ServerSocket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(error.code, error.message, maxHeaderSize);
    if (failedOnNewRequest(socket)) {
      // Pipelined: the requests before it get their answers first (a handler may still be at work).
      afterOwedAnswers(socket, () => {
        if (socket.writable) answerOnSocket(socket, status, message);
      });
      return;
    }
    // A half-sent answer leaves nothing that could still be read.
    if (responseStarted(socket)) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, status, message);
  });
  // Without a listener node drops CONNECT requests without a word: the emulator is no proxy.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    if (connect && String(req.url).startsWith("/")) {
      // A path target: answered by the surface it names, on a response of its own (node gives none).
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as Socket);
      res.once("finish", () => {
        res.detachSocket(socket as Socket);
        socket.end();
      });
      connect(req, res);
      return;
    }
    answerOnSocket(
      socket,
      405,
      `method CONNECT is not supported (target ${JSON.stringify(String(req.url).slice(0, 200))}); the emulator is not a proxy`,
      {
        allow: "GET, POST, PUT, PATCH, DELETE",
      },
    );
  });
}
