/**
 * The built-in worker server of load-balancing endpoints (images no --handler maps): it answers
 * every method and path with 200 and JSON `{method, path, query, headers, body}`, so a caller can
 * see exactly what reached the worker. `path` is the path after the endpoint id, `query` maps each
 * name to its value (an array when repeated), `headers` are the headers the worker received, and
 * `body` is the request text ("" when none), parsed when its content-type is JSON and it parses.
 * It answers 200 on every path, so HEALTH_CHECK_PATH (whatever it is) passes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface EchoBody {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: IncomingMessage["headers"];
  body: unknown;
}

function queryObject(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (search === "") return out;
  for (const [k, v] of new URLSearchParams(search)) {
    const cur = out[k];
    out[k] = cur === undefined ? v : Array.isArray(cur) ? [...cur, v] : [cur, v];
  }
  return out;
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return mime === "application/json" || mime.endsWith("+json");
}

function bodyValue(text: string, contentType: string | undefined): unknown {
  if (text === "" || !isJsonType(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function answer(req: IncomingMessage, res: ServerResponse, text: string): void {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const echo: EchoBody = {
    method: req.method ?? "GET",
    path: q < 0 ? url : url.slice(0, q),
    query: queryObject(q < 0 ? "" : url.slice(q + 1)),
    headers: req.headers,
    body: bodyValue(text, req.headers["content-type"]),
  };
  const out = JSON.stringify(echo);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
  res.end(out);
}

export function echoListener(req: IncomingMessage, res: ServerResponse): void {
  // A request without a body (no length, not chunked) needs no reading: answer at once.
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined) {
    answer(req, res, "");
    req.resume();
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => answer(req, res, Buffer.concat(chunks).toString("utf8")));
}
