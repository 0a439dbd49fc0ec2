// One GET over node:http / node:https, on a connection of its own closed after the answer: the
// connection check's read (connectionProof.ts), the one call a preview of unchanged resources makes.
// Every other call goes through transport.ts. The check does not, because the transport's HTTP
// library (undici, 110 modules) and the transport cost a fresh provider process about 200 ms of CPU
// to load, on every preview, for one request that needs no pool, no retry and no body schema.
// The rate limit is still respected: the request is counted in, and answered to, the account's gate
// (rateLimitGate.ts), as the transport's are.

import * as http from "node:http";
import * as https from "node:https";
import { classifyNetworkError, describeNetworkError } from "./networkErrors";
import { sharedGate } from "./rateLimitGate";
import { parseRateLimit, type FailureKind } from "./retry";

/** An answer of any status, as it came. */
export interface OneAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as text. */
  text: string;
}

/**
 * The request was not answered: why (typed as the transport types it, networkErrors.ts) and the
 * network's own words. It never reaches a user: connectionProof.ts turns it into a ConfigError or nothing.
 */
export class OneRequestFailure extends Error {
  constructor(
    readonly kind: FailureKind | "rate_limited",
    message: string,
  ) {
    super(message);
    this.name = "OneRequestFailure";
  }
}

export interface OneRequestSpec {
  /** The API's base URL as the settings give it, normalized (config.ts): "http://127.0.0.1:8787/api/v2". */
  baseUrl: string;
  /** Below the base URL, starting with "/". */
  path: string;
  apiKey: string;
  /** For the whole exchange, headers and body, in ms. */
  timeoutMs: number;
}

/**
 * Sends `GET baseUrl + path` with the key and resolves with the answer, whatever its status. Rejects
 * with a OneRequestFailure: "rate_limited" when the account's remembered window is spent (nothing is
 * sent), "connect" when no connection could be made, "timeout" past `timeoutMs`, "connection" when it
 * broke after it was set up.
 */
export async function getOnce(spec: OneRequestSpec): Promise<OneAnswer> {
  const url = new URL(spec.baseUrl);
  const basePath = url.pathname.replace(/\/+$/, "");
  // The gate of the transports of this account and API (same key: origin + base path, and the key).
  const gate = sharedGate(Date.now, `${url.origin}${basePath}`, spec.apiKey);
  const decision = gate.take(Date.now());
  if (!decision.go) throw new OneRequestFailure("rate_limited", `the ${decision.window?.name ?? "rate-limit"} window is spent`);
  const ticket = decision.ticket;
  try {
    const answer = await exchange(url, `${basePath}${spec.path}`, spec);
    const header = (name: string): string | undefined => {
      const value = answer.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    gate.settle(ticket, Date.now(), parseRateLimit(header("ratelimit"), header("ratelimit-policy")));
    return answer;
  } catch (error) {
    // A connection that could not be made was not counted by the service: the gate gets it back.
    gate.settle(ticket, Date.now(), [], false, error instanceof OneRequestFailure && error.kind === "connect");
    throw error;
  }
}

function exchange(url: URL, path: string, spec: OneRequestSpec): Promise<OneAnswer> {
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<OneAnswer>((resolve, reject) => {
    let timedOut = false;
    const request = send(
      {
        // url.hostname keeps an IPv6 literal's brackets, which `host` must not have.
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || undefined,
        method: "GET",
        path,
        // A connection of its own, closed after the answer: nothing keeps the process alive.
        agent: false,
        headers: {
          // As the transport sends them (transport.ts): v2 errors are problem documents.
          accept: "application/json, application/problem+json",
          "user-agent": "pulumi-gpucloud",
          authorization: `Bearer ${spec.apiKey}`,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", fail);
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(`timed out after ${spec.timeoutMs} ms`));
    }, spec.timeoutMs);
    function fail(error: unknown): void {
      clearTimeout(timer);
      reject(new OneRequestFailure(classifyNetworkError(error, timedOut), describeNetworkError(error)));
    }
    request.on("error", fail);
    request.end();
  });
}
