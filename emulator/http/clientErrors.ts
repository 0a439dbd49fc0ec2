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

/** A response of this socket that has already started: a raw answer would corrupt it. */
function responseStarted(socket: Duplex): boolean {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return current?.headersSent === true;
}

/**
 * `connect`: serves a CONNECT request like any other (given, every surface answers it 405 with
 * `Allow` for the path, or 404); without it, CONNECT gets a bare 405 on the socket.
 */
export function installClientErrorHandlers(server: Server, connect?: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or a half-sent answer leaves nothing that could still be read.
    if (error.code === "ECONNRESET" || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(error.code, error.message, maxHeaderSize);
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
