/**
 * Shared by the hardening-*.test.ts files: raw TCP exchanges (for requests no HTTP client would
 * send, and for clients that write their whole body before reading), a parser for the answers,
 * and an emulator with one queue endpoint whose jobs echo their input.
 */
import { type Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { RunningEmulator } from "../../../emulator";
import { type Api, KEY_A, api, startTestEmulator } from "../../support/managementHelpers";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The connection ended with a reset or another socket error (not a clean close). */
  socketError: string | undefined;
}

/**
 * Writes `parts` to a fresh connection in order (each fully handed to the kernel before the next,
 * without reading anything meanwhile), then reads until the server closes or `timeoutMs` passes.
 */
export function rawExchange(port: number, parts: readonly (string | Buffer)[], timeoutMs = 5000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let socketError: string | undefined;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      socketError = error.code ?? error.message;
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(Buffer.concat(chunks)), socketError });
    });
    socket.pause(); // read nothing until everything is written, like a blocking client
    const writeNext = (i: number): void => {
      if (i === parts.length) {
        socket.resume();
        return;
      }
      const part = parts[i] as string | Buffer;
      if (socket.destroyed) return;
      socket.write(part, (error) => (error ? socket.resume() : writeNext(i + 1)));
    };
    writeNext(0);
  });
}

/** Splits a byte stream into HTTP/1.1 responses (each with a content-length, as the emulator sends). */
export function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) break;
    const [statusLine = "", ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    out.push({ status: Number(statusLine.split(" ")[1]), headers, body: rest.subarray(end + 4, end + 4 + length).toString("utf8") });
    rest = rest.subarray(end + 4 + length);
  }
  return out;
}

/** A request line and headers for a raw exchange; `body` sets content-length. */
export function rawRequest(
  method: string,
  path: string,
  options: { body?: string | number; close?: boolean; headers?: string[] } = {},
): string {
  const length = typeof options.body === "number" ? options.body : options.body === undefined ? undefined : Buffer.byteLength(options.body);
  return [
    `${method} ${path} HTTP/1.1`,
    "host: localhost",
    `authorization: Bearer ${KEY_A}`,
    "content-type: application/json",
    ...(length === undefined ? [] : [`content-length: ${length}`]),
    ...(options.close ? ["connection: close"] : []),
    ...(options.headers ?? []),
    "",
    typeof options.body === "string" ? options.body : "",
  ].join("\r\n");
}

/** `levels` nested objects around a number: {"a":{"a":...1...}}. */
export function nestedObjects(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** `levels` nested arrays: [[[...]]]. */
export function nestedArrays(levels: number): string {
  return `${"[".repeat(levels)}${"]".repeat(levels)}`;
}

export interface EmulatorWithEndpoint {
  emu: RunningEmulator;
  a: Api;
  endpointId: string;
}

/** An emulator (account A) with a queue endpoint; its workers echo their input unless `imageName` maps to a handler. */
export async function emulatorWithEndpoint(
  options: Parameters<typeof startTestEmulator>[0] = {},
  imageName = "example/echo:1",
): Promise<EmulatorWithEndpoint> {
  const emu = await startTestEmulator(options);
  const a = api(emu, KEY_A);
  const template = await a.post("/templates", { name: "echo-worker", imageName, isServerless: true });
  const endpoint = await a.post("/endpoints", { name: "echo", templateId: template.body.id, gpuTypeIds: ["NVIDIA L4"], workersMax: 1 });
  if (endpoint.status !== 200) throw new Error(`could not create the test endpoint: ${endpoint.text}`);
  return { emu, a, endpointId: String(endpoint.body.id) };
}

/** POST/GET over fetch with account A's key; the body is sent as given (no JSON encoding). */
export async function call(url: string, method: string, body?: string): Promise<{ status: number; text: string; json: unknown }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { status: res.status, text, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

export interface HttpOutcome {
  status: number | undefined;
  text: string;
  /** Why there was no answer (a socket error or the timeout). */
  error: string | undefined;
}

/** One request over node:http with the path sent exactly as given (no normalisation, unlike fetch). */
export function httpSend(
  port: number,
  agent: Agent,
  request: { method: string; path: string; headers: Record<string, string>; body: string | Buffer | undefined },
  timeoutMs = 10_000,
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = Buffer.byteLength(request.body);
    const req = httpRequest(
      { host: "127.0.0.1", port, method: request.method, path: request.path, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8"), error: undefined }));
        res.on("error", (error) => done({ status: res.statusCode, text: "", error: `response: ${error.message}` }));
      },
    );
    req.on("timeout", () => {
      done({ status: undefined, text: "", error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    });
    req.on("error", (error: NodeJS.ErrnoException) => done({ status: undefined, text: "", error: `${error.code ?? ""} ${error.message}` }));
    req.end(request.body);
  });
}

/** The message of a JSON error body of any surface (`error`, or problem+json `detail`), or undefined. */
export function errorMessageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown };
    const message = body.error ?? body.detail;
    return typeof message === "string" && message !== "" ? message : undefined;
  } catch {
    return undefined;
  }
}
