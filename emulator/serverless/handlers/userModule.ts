/**
 * Handlers supplied by the user: a module exporting `handler(job, ctx)`.
 *   - an async (or plain) function: its result is the output; a throw fails the job with its message;
 *   - an async generator (or a function returning an async iterable): each yield is a stream chunk
 *     and the output is the list of chunks.
 * `job` is `{ id, input, s3Config? }`; `ctx` offers `progress(update)` (partial output in /status),
 * `signal` (aborted when the job is cancelled, times out or expires) and `sleep(ms)` (service time).
 *
 * Modules are loaded with Node's own `require`, lazily on first use and cached: `.js`/`.cjs`,
 * ESM without top-level await (Node 24 require(esm)), and `.ts` with erasable-only syntax through
 * Node 24's built-in type stripping.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { S3Config } from "../s3Config";
import type { JobHandler, RunContext } from "./types";

export interface UserJob {
  id: string;
  input: Record<string, unknown>;
  s3Config?: S3Config;
}

export interface UserContext {
  progress(update: unknown): void;
  signal: AbortSignal;
  sleep(serviceMs: number): Promise<void>;
  /** Writes a line into the worker's log, as a real worker's output would be. */
  log(text: string): void;
}

type UserHandlerFn = (job: UserJob, ctx: UserContext) => unknown;

const nodeRequire = createRequire(path.join(process.cwd(), "noop.js"));

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === "string") return err;
  return JSON.stringify(err) ?? String(err);
}

function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return typeof v === "object" && v !== null && typeof (v as Record<symbol, unknown>)[Symbol.asyncIterator] === "function";
}

/** Loads `modulePath` once; a failure to load is reported per job (the job FAILs saying why). */
export function userModuleHandler(imageName: string, modulePath: string): JobHandler {
  let loaded: UserHandlerFn | Error | undefined;
  const load = (): UserHandlerFn | Error => {
    if (loaded) return loaded;
    const abs = path.resolve(modulePath);
    try {
      const mod = nodeRequire(abs) as Record<string, unknown> | undefined;
      const fn = mod?.["handler"] ?? (mod?.["default"] as Record<string, unknown> | undefined)?.["handler"];
      // A module that is (or exports) a request listener was written for a load-balancing endpoint.
      const listener = typeof mod === "function" || typeof mod?.["listener"] === "function" || typeof mod?.["server"] === "function";
      const hint = listener
        ? "; it looks like an HTTP server for a load-balancing endpoint (create the endpoint with type LOAD_BALANCER)"
        : "";
      loaded =
        typeof fn === "function"
          ? (fn as UserHandlerFn)
          : new Error(`handler module ${abs} (image ${imageName}) does not export a function named "handler"${hint}`);
    } catch (err) {
      loaded = new Error(`handler module ${abs} (image ${imageName}) could not be loaded: ${errorMessage(err)}`);
    }
    return loaded;
  };

  return {
    run(ctx: RunContext): void {
      const fn = load();
      if (fn instanceof Error) {
        ctx.fail(fn.message);
        return;
      }
      const abort = new AbortController();
      ctx.onStop(() => abort.abort(new Error("job stopped (cancelled, timed out or expired)")));
      const job: UserJob = { id: ctx.id, input: ctx.input };
      if (ctx.s3Config) job.s3Config = ctx.s3Config;
      const userCtx: UserContext = {
        progress: (u) => ctx.progress(u),
        signal: abort.signal,
        sleep: (ms) => ctx.sleep(ms),
        log: (text) => ctx.log(String(text)),
      };
      void (async () => {
        try {
          const result = fn(job, userCtx);
          if (isAsyncIterable(result)) {
            const chunks: unknown[] = [];
            const it = result[Symbol.asyncIterator]();
            ctx.onStop(() => void it.return?.().catch(() => undefined));
            for (;;) {
              const step = await it.next();
              if (!ctx.active) return;
              if (step.done) break;
              chunks.push(step.value);
              ctx.chunk(step.value);
            }
            ctx.complete(chunks);
          } else {
            const output = await result;
            ctx.complete(output);
          }
        } catch (err) {
          ctx.fail(errorMessage(err));
        }
      })();
    },
  };
}
