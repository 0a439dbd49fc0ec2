/** Command-line flags of gpucloud-emulator, parsed into startEmulator() options. */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseFaultSpec } from "./faults/spec";
import { SCOPES, isScope } from "./management/account/scopes";
import type { ApiKeyOption, EmulatorOptions } from "./options";

export const USAGE = `Usage: gpucloud-emulator [options]

Runs the local emulator of the GPU cloud service: management API under /v1 and /api/v2, job API under /v2.

Options:
  --host HOST                 interface to listen on (default 127.0.0.1)
  --port PORT                 TCP port, 0 for any free port (default 8787)
  --api-key KEY[:SCOPES]      accepted API key; repeat for several accounts (default: one generated key);
                              KEY:pods:read,account:read restricts it to those scopes (default: every scope)
  --state FILE                keep resources and billing in FILE across restarts (default: memory only)
  --time-scale F              simulated durations x F; 0.01 runs 100x faster (default 1)
  --boot-delay-ms MS          service ms until a pod has its public IP (default 2000)
  --handler IMAGE=MODULE      workers of IMAGE run MODULE: a \`handler(job)\` export for queue
                              endpoints, a Node request listener for load-balancing ones (repeatable)
  --public-endpoint ID=IMAGE  an endpoint ID running IMAGE, callable with any key (repeatable)
  --rate-limit N|off          /api/v2 requests per account per service minute (default 60; hour 3000,
                              day 50000), or off
  --spend-cap USD             hourly spend cap of each account (default 80): starts beyond it are refused
  --worker-quota N            serverless worker quota: largest sum of workersMax per account (default 30)
  --v1-retired                every /v1 call answers 410 Gone naming /api/v2, as the live service does
  --page-size N               at most N items per page of the paginated /api/v2 lists (pods,
                              serverless, templates, releases), whatever limit asks
                              (default: $GPUCLOUD_EMULATOR_PAGE_SIZE, else the limit asked)
  --worker IMAGE=COMMAND      run COMMAND (e.g. "python3 handler.py") as each worker of IMAGE's
                              endpoints; it pulls jobs over the worker protocol (repeatable)
  --external-image IMAGE      IMAGE's endpoints wait for workers you start yourself (repeatable)
  --worker-env-prefix P       prefix of the worker environment variables (default GPUCLOUD)
  --worker-log-dir DIR        keep worker process logs in DIR (default: a new temp directory)
  --worker-logs               also print worker process output on stderr
  --faults SPEC               seeded faults on /v1, /api/v2 and the job API (by name), e.g. "seed=42; POST /v1/pods: lost=0.2; *: 503=0.05"
                              (kinds 429 500 502 503 504 reset lost latency late@D land@D hidden@D;
                              pods that fail: "pod: error=0.2" or "pod train-*: error=1@30s";
                              serverless releases that degrade: "worker repo/img:2.*: fail=0.3@20jobs, slow=0.1@2s"
                              (also crash=P, fail=P@10m); see the emulator README)
  -h, --help                  show this help`;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

function pairs(flag: string, values: readonly string[], transformValue: (value: string) => string = (v) => v): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of values) {
    const at = entry.indexOf("=");
    if (at <= 0 || at === entry.length - 1) throw new UsageError(`--${flag} expects KEY=VALUE, got ${JSON.stringify(entry)}`);
    out[entry.slice(0, at)] = transformValue(entry.slice(at + 1));
  }
  return out;
}

function number(flag: string, text: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || !check(value))
    throw new UsageError(`--${flag} must be ${what}, got ${JSON.stringify(text)}`);
  return value;
}

/** `KEY` (every scope) or `KEY:scope,scope` (scope names contain a colon too: the key ends at the first). */
function apiKeyOption(entry: string): string | ApiKeyOption {
  const at = entry.indexOf(":");
  if (at === -1) return entry;
  if (at === 0) throw new UsageError(`--api-key expects KEY or KEY:scope,scope, got ${JSON.stringify(entry)}`);
  const scopes = entry
    .slice(at + 1)
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const scope of scopes) {
    if (!isScope(scope)) throw new UsageError(`--api-key: unknown scope ${JSON.stringify(scope)}; known scopes: ${SCOPES.join(", ")}`);
  }
  return { key: entry.slice(0, at), scopes };
}

export type CliCommand = { help: true } | { help: false; options: EmulatorOptions };

/** The flags `parseArgs` reads (each checked and converted below). */
const FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  "api-key": { type: "string", multiple: true },
  state: { type: "string" },
  "time-scale": { type: "string" },
  "boot-delay-ms": { type: "string" },
  handler: { type: "string", multiple: true },
  "public-endpoint": { type: "string", multiple: true },
  worker: { type: "string", multiple: true },
  "external-image": { type: "string", multiple: true },
  "worker-env-prefix": { type: "string" },
  "worker-log-dir": { type: "string" },
  "worker-logs": { type: "boolean" },
  faults: { type: "string" },
  "rate-limit": { type: "string" },
  "spend-cap": { type: "string" },
  "worker-quota": { type: "string" },
  "v1-retired": { type: "boolean" },
  "page-size": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function readFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: FLAGS });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Throws UsageError with a message fit for the terminal. */
export function parseCliArgs(argv: readonly string[], cwd = process.cwd()): CliCommand {
  const v = readFlags(argv).values;
  if (v.help) return { help: true };
  const options: EmulatorOptions = {
    host: v.host ?? "127.0.0.1",
    port: number("port", v.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, "an integer 0..65535") ?? 8787,
    timeScale: number("time-scale", v["time-scale"], (n) => n > 0, "a positive number"),
    bootDelayMs: number("boot-delay-ms", v["boot-delay-ms"], (n) => n >= 0, "a number >= 0"),
    statePath: v.state === undefined ? undefined : resolve(cwd, v.state),
    handlers: pairs("handler", v.handler ?? [], (module) => resolve(cwd, module)),
    publicEndpoints: pairs("public-endpoint", v["public-endpoint"] ?? []),
  };
  if (v["api-key"]?.length) options.apiKeys = v["api-key"].map(apiKeyOption);
  const spendCap = number("spend-cap", v["spend-cap"], (n) => n >= 0, "a number of USD >= 0");
  if (spendCap !== undefined) options.spendCapPerHour = spendCap;
  const workerQuota = number("worker-quota", v["worker-quota"], (n) => Number.isInteger(n) && n >= 0, "an integer >= 0");
  if (workerQuota !== undefined) options.serverlessWorkerQuota = workerQuota;
  if (v["v1-retired"] === true) options.v1Retired = true;
  const rateLimit = v["rate-limit"];
  if (rateLimit !== undefined) {
    const perMinute =
      rateLimit === "off" ? undefined : number("rate-limit", rateLimit, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1 or "off"');
    options.rateLimit = perMinute === undefined ? false : { perMinute };
  }
  const pageSize = number("page-size", v["page-size"], (n) => Number.isInteger(n) && n >= 1, "an integer >= 1");
  if (pageSize !== undefined) options.pageSize = pageSize;
  // Real workers: only the flags given, so the options stay minimal.
  if (v.worker?.length) options.workers = pairs("worker", v.worker);
  if (v["external-image"]?.length) options.externalImages = v["external-image"];
  const workerSide = {
    ...(v["worker-env-prefix"] !== undefined ? { workerEnvPrefix: v["worker-env-prefix"] } : {}),
    ...(v["worker-log-dir"] !== undefined ? { workerLogDir: resolve(cwd, v["worker-log-dir"]) } : {}),
    ...(v["worker-logs"] === true ? { echoWorkerLogs: true } : {}),
  };
  if (options.workers || Object.keys(workerSide).length > 0) options.serverless = { workerCwd: cwd, ...workerSide };
  if (v.faults !== undefined) {
    try {
      options.faults = parseFaultSpec(v.faults);
    } catch (error) {
      throw new UsageError(`--faults: ${error instanceof Error ? error.message.replace(/^faults: /, "") : String(error)}`);
    }
  }
  return { help: false, options };
}
