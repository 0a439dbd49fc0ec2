/**
 * Runs the stateful fuzzer against a management API v2 base (`…/api/v2`): fetches its description,
 * sends `requests` seeded requests over keep-alive connections on the loopback, and reports what it
 * found: an answer 5xx, a status the description does not document for the operation, a request
 * slower than `slowMs`, a request with no answer, a 2xx whose JSON does not parse. The same seed
 * against the same emulator sends the same requests (with one connection: `concurrency` 1).
 */
import { Agent, request as httpRequest } from "node:http";
import { type FuzzOperation, OpenApiDocZ, operationsOf } from "./description";
import { type FuzzRequest, type RequestKind, StatefulFuzzer } from "./fuzzer";
import { Rng } from "./values";

export interface FuzzOptions {
  /** The management API v2 base, e.g. `http://127.0.0.1:8787/api/v2`. */
  baseUrl: string;
  apiKey: string;
  seed: number;
  requests: number;
  /** Requests in flight at once; default 1 (the only setting whose run a seed replays exactly). */
  concurrency?: number;
  /** A request slower than this (ms, whole answer read) is a finding; default 1000. */
  slowMs?: number;
  /** A request unanswered after this (ms) is a finding, and is given up; default 15,000. */
  timeoutMs?: number;
}

export type FindingKind = "5xx" | "undocumented-status" | "slow" | "no-answer" | "bad-json";

export interface Finding {
  kind: FindingKind;
  /** `METHOD path` (path cut at 200 characters) and the kind of request. */
  request: string;
  operation: string;
  status?: number | undefined;
  ms: number;
  /** The answer's start, or the error. */
  detail: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  byStatus: Record<string, number>;
  byKind: Partial<Record<RequestKind, number>>;
  /** Per operation: requests sent, and how many were answered 2xx. */
  byOperation: Record<string, { sent: number; ok: number }>;
  /** Requests whose path ids all came from earlier answers, and of them those answered 2xx. */
  linked: { sent: number; ok: number };
  /** Every request's time, ms, ascending. */
  latenciesMs: number[];
  wallMs: number;
  findings: Finding[];
}

interface Outcome {
  status?: number;
  text: string;
  ms: number;
  error?: string;
}

function send(base: URL, agent: Agent, apiKey: string, req: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Omit<Outcome, "ms">): void => {
      if (settled) return;
      settled = true;
      resolve({ ...o, ms: performance.now() - started });
    };
    const headers: Record<string, string | number> = { authorization: `Bearer ${apiKey}` };
    if (req.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(req.body);
    }
    const r = httpRequest(
      { host: base.hostname, port: base.port, method: req.method, path: `${base.pathname}${req.path}`, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", (e) => done({ status: res.statusCode ?? 0, text: "", error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      done({ text: "", error: `no answer within ${timeoutMs} ms` });
      r.destroy();
    }, timeoutMs);
    r.on("close", () => clearTimeout(timer));
    r.on("error", (e: NodeJS.ErrnoException) => done({ text: "", error: `${e.code ?? ""} ${e.message}`.trim() }));
    r.end(req.body);
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text === "" ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return { ok: false };
  }
}

/** The findings one answer makes. */
function judge(op: FuzzOperation, what: string, outcome: Outcome, slowMs: number, jsonOk: boolean): Finding[] {
  const base = { request: what, operation: op.id, status: outcome.status, ms: Math.round(outcome.ms), detail: outcome.text.slice(0, 300) };
  if (outcome.status === undefined) return [{ ...base, kind: "no-answer", detail: outcome.error ?? "" }];
  const out: Finding[] = [];
  if (outcome.status >= 500) out.push({ ...base, kind: "5xx" });
  else if (!op.documented.has(outcome.status)) out.push({ ...base, kind: "undocumented-status" });
  if (outcome.status >= 200 && outcome.status < 300 && !jsonOk) out.push({ ...base, kind: "bad-json" });
  if (outcome.ms > slowMs) out.push({ ...base, kind: "slow" });
  return out;
}

export async function runFuzzV2(options: FuzzOptions): Promise<FuzzReport> {
  const base = new URL(options.baseUrl.replace(/\/$/, ""));
  const answer = await fetch(`${base.href}/openapi.json`);
  if (!answer.ok) throw new Error(`GET ${base.href}/openapi.json answered ${answer.status}: the fuzzer needs the API's description`);
  const doc = OpenApiDocZ.parse(await answer.json());
  const operations = operationsOf(doc);
  const fuzzer = new StatefulFuzzer(doc, operations, new Rng(options.seed));
  const concurrency = options.concurrency ?? 1;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    operations: operations.length,
    byStatus: {},
    byKind: {},
    byOperation: Object.fromEntries(operations.map((op) => [op.id, { sent: 0, ok: 0 }])),
    linked: { sent: 0, ok: 0 },
    latenciesMs: [],
    wallMs: 0,
    findings: [],
  };
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (report.requests < options.requests) {
      report.requests++;
      const request = fuzzer.next();
      const outcome = await send(base, agent, options.apiKey, request, options.timeoutMs ?? 15_000);
      const status = outcome.status;
      const ok = status !== undefined && status >= 200 && status < 300;
      const json = ok ? parseJson(outcome.text) : { ok: true as const, value: undefined };
      if (json.ok && ok) fuzzer.learn(request, status, json.value);
      report.byStatus[String(status ?? "none")] = (report.byStatus[String(status ?? "none")] ?? 0) + 1;
      report.byKind[request.kind] = (report.byKind[request.kind] ?? 0) + 1;
      const tally = report.byOperation[request.op.id];
      if (tally) {
        tally.sent++;
        if (ok) tally.ok++;
      }
      if (request.linked) {
        report.linked.sent++;
        if (ok) report.linked.ok++;
      }
      report.latenciesMs.push(outcome.ms);
      const what = `${request.method} ${request.path.slice(0, 200)} [${request.kind}]`;
      report.findings.push(...judge(request.op, what, outcome, options.slowMs ?? 1_000, json.ok));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
  } finally {
    agent.destroy();
  }
  report.wallMs = performance.now() - started;
  report.latenciesMs.sort((a, b) => a - b);
  return report;
}
