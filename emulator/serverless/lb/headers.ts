/**
 * Header filtering for the load-balancing proxy. Hop-by-hop headers (RFC 9110 7.6.1) describe one
 * connection, not the message, so they are never forwarded; neither is the caller's API key
 * (`Authorization` is for the service, not the worker), the routing header X-Service-Worker-Id,
 * `Host` (the worker sees its own) or `Expect` (the service answers it, not the worker).
 */
import type { OutgoingHttpHeaders } from "node:http";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const NOT_FORWARDED = new Set([...HOP_BY_HOP, "authorization", "host", "expect", "x-service-worker-id"]);

/** The header every proxied response carries: the id of the worker that answered. */
export const WORKER_ID_HEADER = "x-service-worker-id";

/** Header names a `Connection` header lists are hop-by-hop too. */
function connectionListed(value: string | undefined): Set<string> | undefined {
  if (!value) return undefined;
  const names = value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "" && s !== "close" && s !== "keep-alive");
  return names.length > 0 ? new Set(names) : undefined;
}

/**
 * The request headers to send to the worker, as a flat [name, value, ...] list built from the raw
 * headers (duplicates and casing kept, and Node's parsed header object is never built).
 */
export function requestHeaders(raw: string[], connection: string | undefined): string[] {
  const extra = connectionListed(connection);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (NOT_FORWARDED.has(lower) || extra?.has(lower)) continue;
    out.push(name, raw[i + 1] as string);
  }
  return out;
}

/** The worker's response headers for the caller, plus X-Service-Worker-Id. */
export function responseHeaders(headers: Record<string, string | string[] | undefined>, workerId: string): OutgoingHttpHeaders {
  const extra = connectionListed(typeof headers["connection"] === "string" ? headers["connection"] : undefined);
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) {
    const v = headers[name];
    if (v === undefined || HOP_BY_HOP.has(name) || extra?.has(name)) continue;
    out[name] = v;
  }
  out[WORKER_ID_HEADER] = workerId;
  return out;
}
