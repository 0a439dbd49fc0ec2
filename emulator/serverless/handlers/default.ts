/**
 * The built-in handler, driven entirely by the job input so tests and demos can script any outcome:
 *   output    the job output (default: the input itself, echoed)
 *   delayMs   execution time in service ms (default 0)
 *   error     the job fails with this message after delayMs
 *   crash     the worker dies halfway through delayMs; the job fails and the worker is replaced
 *   stream    chunks emitted one at a time over delayMs; the output is then the list of chunks
 *   progress  updates shown as the partial output in /status, spaced over delayMs
 *   log       lines (strings) the worker writes into its log as the job starts
 * /openai/* jobs (input.openai_route) get an OpenAI-shaped answer, streamed in chunks when the
 * request asks for `"stream": true` (see openai.ts).
 */
import { openaiRequestOf, wantsStream } from "../openaiRequest";
import { openaiChunks, openaiOutput } from "./openai";
import type { JobHandler, RunContext } from "./types";

interface Step {
  at: number;
  kind: "progress" | "chunk";
  value: unknown;
}

function describe(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

export const defaultHandler: JobHandler = {
  run(ctx: RunContext): void {
    const input = ctx.input;
    const openai = openaiRequestOf(input);
    if (openai) {
      const { route, body } = openai;
      if (wantsStream(body)) {
        const chunks = openaiChunks(route, body, ctx.id, ctx.now());
        for (const chunk of chunks) ctx.chunk(chunk);
        ctx.complete(chunks);
      } else ctx.complete(openaiOutput(route, body, ctx.id, ctx.now()));
      return;
    }
    const delayRaw = input["delayMs"];
    let delay = 0;
    if (delayRaw !== undefined) {
      if (typeof delayRaw !== "number" || !Number.isFinite(delayRaw) || delayRaw < 0) {
        ctx.fail(`default handler: input.delayMs must be a non-negative number of ms, got ${describe(delayRaw)}`);
        return;
      }
      delay = delayRaw;
    }
    const { stream, progress, error, crash } = input;
    if (stream !== undefined && !Array.isArray(stream)) {
      ctx.fail(`default handler: input.stream must be an array of chunks, got ${describe(stream)}`);
      return;
    }
    if (progress !== undefined && !Array.isArray(progress)) {
      ctx.fail(`default handler: input.progress must be an array of updates, got ${describe(progress)}`);
      return;
    }
    const output = "output" in input ? input["output"] : stream !== undefined ? stream : input;
    const log = input["log"];
    if (Array.isArray(log)) for (const line of log) ctx.log(typeof line === "string" ? line : describe(line));

    // The fast path (the benchmark's case): nothing to wait for, no timeline.
    if (delay === 0 && !stream && !progress && error === undefined && !crash) {
      ctx.complete(output);
      return;
    }

    const steps: Step[] = [];
    const spread = (items: unknown[], kind: Step["kind"]): void => {
      // n items over the delay: the first after delay/(n+1)... for progress (so the last update is
      // visible before the job ends); stream chunks land at delay*(i+1)/n, the last one at the end.
      const n = items.length;
      items.forEach((value, i) => {
        const at = kind === "progress" ? (delay * (i + 1)) / (n + 1) : (delay * (i + 1)) / n;
        steps.push({ at, kind, value });
      });
    };
    if (progress) spread(progress, "progress");
    if (stream) spread(stream, "chunk");
    steps.sort((a, b) => a.at - b.at);

    const endAt = crash ? delay / 2 : delay;
    const finish = (): void => {
      if (crash) {
        const why = typeof crash === "string" ? `: ${crash}` : "";
        ctx.crash(`worker crashed while running the job (simulated by input.crash${why})`);
      } else if (error !== undefined) ctx.fail(typeof error === "string" ? error : describe(error));
      else ctx.complete(output);
    };

    let i = 0;
    let t = 0;
    const next = (): void => {
      // Run every step due now, then wait for the next one (or the end).
      while (ctx.active) {
        const step = steps[i];
        if (!step || step.at > endAt) {
          if (endAt > t) {
            const wait = endAt - t;
            t = endAt;
            ctx.after(wait, next);
          } else finish();
          return;
        }
        if (step.at > t) {
          const wait = step.at - t;
          t = step.at;
          ctx.after(wait, next);
          return;
        }
        i++;
        if (step.kind === "progress") ctx.progress(step.value);
        else ctx.chunk(step.value);
      }
    };
    next();
  },
};
