/**
 * The fault-injection SPEC: a short text (CLI `--faults`, option `faults`) parsed into a FaultPlan.
 *
 *     seed=42; POST /v1/pods: lost=0.2, reset=0.1; *: 429=0.05@0.2s, 500=0.05, latency=0.1@200ms
 *
 * Clauses are separated by `;` (or newlines). `seed=N` seeds the random draws; every other clause
 * is `SELECTOR: FAULT, FAULT, ...`. A selector is `*` (every /v1 and /api/v2 operation; the job
 * API's are chosen by name only), an operation id (`CreatePod` of /v1, `createPod` of /api/v2,
 * `runJob` of the job API), or `METHOD PATH` where METHOD may be `*` and PATH is a route of the
 * OpenAPI description, /v1's with or without `/v1` (`/v1/pods/{podId}`), /api/v2's with it
 * (`/api/v2/pods/{id}`), the job API's with `/v2` (`/v2/{endpoint_id}/run`); `*` or any `{name}`
 * stands for one path segment. A fault is `KIND=PROBABILITY[@DURATION]`; the kinds written
 * `KIND@DURATION` below need their duration (`late=0.5@40s`):
 *
 *   429, 500, 502, 503, 504  answer that status instead of running the operation; `@DURATION` adds a
 *                            Retry-After header (429 defaults to 1s)
 *   reset                    destroy the connection before the operation runs (nothing happened)
 *   lost                     run the operation, then destroy the connection instead of answering;
 *                            `@DURATION`: DURATION after the request arrived
 *   late@DURATION            run the operation at once, answer only DURATION later; a client that
 *                            has given up by then gets nothing, and nothing is undone
 *   land@DURATION            read and check the request at once, apply the operation DURATION later
 *                            and answer then; it is applied even if the client has gone away
 *                            (/v1 and /api/v2 only)
 *   hidden@DURATION          a resource the request creates is left out of every list until
 *                            DURATION after it was created; a GET by its id finds it at once
 *                            (the creates of /v1 and /api/v2)
 *   latency                  wait DURATION (default 100ms, real time) before going on
 *
 * The reference's words these model (management-api-v2-today.md): for a create, "5xx ... a create
 * may have succeeded" (5.2), and "An accepted create whose reply cannot be read may still have
 * created a billing pod" (6.1): lost, late and land are a service slower than its client, which
 * has given up while the create still lands; hidden is a scheduler that lists a new resource a
 * while after it exists, so the reference's "list by name first" (5.2) may not find it yet.
 *
 * DURATION is a number with `ms` or `s` (real time, at most 600s). Probabilities are 0..1. For one
 * request, latency is drawn on its own; the other kinds are exclusive, so their probabilities on a
 * route must add up to at most 1. When several clauses match a route, the first clause that names
 * a kind decides it.
 *
 * Pod faults are not about a request but about a pod's container: the selector `pod` (every pod)
 * or `pod NAME` (pods whose name matches NAME, where `*` stands for any run of characters) takes
 * one kind:
 *
 *   error                    a boot of the pod fails: the pod ends in ERROR (capacity and billing
 *                            released, as a failed container) when its boot would have completed,
 *                            or `@DURATION` (service time) after it is running
 *
 * Each boot (create, start, restart, reset, an update that restarts the container, a restore)
 * draws once from its clause's stream. For one
 * pod the first `pod` clause whose NAME matches decides.
 *
 * Worker faults are about the jobs a serverless worker runs: the selector `worker` (every
 * simulated worker) or `worker IMAGE` (workers whose image, their endpoint release's template
 * imageName, matches IMAGE, `*` standing for any run of characters: `example/echo:*` is every tag)
 * takes these kinds (faults/workerFaults.ts):
 *
 *   fail[@AFTER]             the job fails as a handler error (FAILED, with a message naming the
 *                            injected fault) when its handler would have completed it
 *   crash[@AFTER]            the worker dies when the handler would have completed the job: the
 *                            job fails and the worker is replaced, as input.crash does
 *   slow@DURATION            the job's handler starts DURATION (service time) late, so its
 *                            executionTime grows by DURATION
 *
 * AFTER arms the fault only later: `@DURATION` from DURATION (service time) after the worker was
 * created, `@Njobs` for the jobs of an endpoint release after its first N (`fail=0.3@20jobs`).
 * fail and crash are exclusive (at most 1 together); slow is drawn on its own. Each job draws
 * twice from its clause's stream, whether armed or not. For one worker the first `worker` clause
 * whose IMAGE matches decides.
 */
import { z } from "zod";

import {
  FAULT_KINDS,
  POD_FAULT_KINDS,
  WORKER_FAULT_KINDS,
  type FaultKind,
  type FaultPlan,
  type FaultRule,
  type FaultSetting,
} from "./plan";
import type { Assert, Equals } from "../sameType";

export {
  FAULT_KINDS,
  POD_FAULT_KINDS,
  REQUEST_FAULT_KINDS,
  WORKER_FAULT_KINDS,
  type FaultKind,
  type FaultPlan,
  type FaultRule,
  type FaultSetting,
  type RequestFaultKind,
  type StatusFaultKind,
  type WorkerFaultKind,
} from "./plan";

/** Every @DURATION's bound (10 minutes). */
const MAX_DURATION_MS = 600_000;
/** `@Njobs`'s bound. */
const MAX_AFTER_JOBS = 1_000_000_000;

const FaultSettingSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  probability: z.number().min(0).max(1),
  /** What it means for each kind: FaultSetting.durationMs; required or not allowed as checkDuration says. */
  durationMs: z.number().min(0).max(MAX_DURATION_MS).optional(),
  /** fail and crash only: FaultSetting.afterJobs. */
  afterJobs: z.number().int().min(0).max(MAX_AFTER_JOBS).optional(),
});
type _FaultSettingMatches = Assert<Equals<z.infer<typeof FaultSettingSchema>, FaultSetting>>;

const FaultRuleSchema = z.strictObject({
  /** `*`, an operation id, or `METHOD PATH` (see the module comment). */
  selector: z.string().min(1),
  faults: z.array(FaultSettingSchema).min(1),
});
type _FaultRuleMatches = Assert<Equals<z.infer<typeof FaultRuleSchema>, FaultRule>>;

const FaultPlanSchema = z.strictObject({
  seed: z.number().int().min(0).max(0xffff_ffff),
  rules: z.array(FaultRuleSchema),
});
type _FaultPlanMatches = Assert<Equals<z.infer<typeof FaultPlanSchema>, FaultPlan>>;

/** `pod` or `pod NAME`: the name pattern (`*` for every pod); undefined for a request selector. */
export function podSelectorPattern(selector: string): string | undefined {
  if (selector === "pod") return "*";
  return selector.startsWith("pod ") ? selector.slice(4).trim() : undefined;
}

/** Whether a pod name or worker image matches a `pod NAME` / `worker IMAGE` pattern (`*`: any run of characters, the rest literal). */
export function patternMatches(pattern: string, name: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(name);
}

/** `worker` or `worker IMAGE`: the image pattern (`*` for every worker); undefined for another selector. */
export function workerSelectorPattern(selector: string): string | undefined {
  if (selector === "worker") return "*";
  return selector.startsWith("worker ") ? selector.slice(7).trim() : undefined;
}

/** What a selector chooses, and so which kinds it takes. */
type Target = "request" | "pod" | "worker";

function targetOfSelector(selector: string): Target {
  if (podSelectorPattern(selector) !== undefined) return "pod";
  return workerSelectorPattern(selector) !== undefined ? "worker" : "request";
}

function targetOfKind(kind: FaultKind): Target {
  if ((POD_FAULT_KINDS as readonly string[]).includes(kind)) return "pod";
  return (WORKER_FAULT_KINDS as readonly string[]).includes(kind) ? "worker" : "request";
}

/** How to select each target, for the messages below. */
const SELECTING: Record<Exclude<Target, "request">, { kinds: readonly string[]; example: string }> = {
  pod: { kinds: POD_FAULT_KINDS, example: 'pod (every pod) or pod NAME, e.g. "pod train-*: KIND=0.5"' },
  worker: {
    kinds: WORKER_FAULT_KINDS,
    example: 'worker (every serverless worker) or worker IMAGE, e.g. "worker example/echo:2.*: KIND=0.3"',
  },
};

/** A kind on the wrong kind of selector: the message says which selectors take it. */
function checkKindFitsSelector(kind: FaultKind, selector: string): void {
  const wanted = targetOfKind(kind);
  const given = targetOfSelector(selector);
  if (wanted === given) return;
  if (wanted !== "request") {
    throw new FaultSpecError(
      `faults: ${JSON.stringify(selector)}: ${kind} is a ${wanted} fault; give it to the selector ${SELECTING[wanted].example.replace("KIND", kind)}`,
    );
  }
  const takes = SELECTING[given as Exclude<Target, "request">].kinds.join(", ");
  throw new FaultSpecError(
    `faults: ${JSON.stringify(selector)}: a ${given} selector takes only ${takes}, not ${kind}; select requests with *, an operation id or METHOD PATH`,
  );
}

/** Kinds that mean nothing without a duration, and what their duration is. */
const DURATION_REQUIRED: Partial<Record<FaultKind, string>> = {
  late: "how long the answer is held",
  land: "how long after the request the operation is applied",
  hidden: "how long a new resource stays out of lists",
  slow: "how much longer a job takes, service time",
};

/** A duration where its kind takes none, or none where it needs one. */
function checkDuration(kind: FaultKind, durationMs: number | undefined, where: string, afterJobs?: number): void {
  if (kind === "reset" && durationMs !== undefined) throw new FaultSpecError(`faults: ${where}: reset takes no @duration`);
  if (afterJobs !== undefined && kind !== "fail" && kind !== "crash") {
    throw new FaultSpecError(`faults: ${where}: only fail and crash take @Njobs, not ${kind}`);
  }
  if (afterJobs !== undefined && durationMs !== undefined) {
    throw new FaultSpecError(`faults: ${where}: ${kind} takes @DURATION or @Njobs, not both`);
  }
  const needed = DURATION_REQUIRED[kind];
  if (needed !== undefined && durationMs === undefined) {
    throw new FaultSpecError(`faults: ${where}: ${kind} needs @DURATION (${needed}), e.g. ${kind}=0.5@2s`);
  }
}

/**
 * A job ends in at most one of fail and crash, drawn together (faults/workerFaults.ts), so their
 * odds in one clause add up to at most 1. (Request faults are held to the same rule per route, once
 * the routes are known: faults/injector.ts.)
 */
function checkExclusiveOdds(rule: FaultRule): void {
  if (targetOfSelector(rule.selector) !== "worker") return;
  const ending = rule.faults.filter((f) => f.kind === "fail" || f.kind === "crash");
  const total = ending.reduce((sum, f) => sum + f.probability, 0);
  if (total > 1 + 1e-9) {
    throw new FaultSpecError(
      `faults: ${JSON.stringify(rule.selector)}: the probabilities of ${ending.map((f) => `${f.kind}=${f.probability}`).join(", ")} add up to ${total.toFixed(3)}; a job ends in at most one of them, so at most 1`,
    );
  }
}

/** A bad SPEC; the message quotes the part that is wrong. */
export class FaultSpecError extends RangeError {
  override readonly name = "FaultSpecError";
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s)$/;
/** `@Njobs` of fail and crash: after an endpoint release's first N jobs. */
const AFTER_JOBS = /^(\d+)\s*jobs$/;

function parseDuration(text: string, where: string): number {
  const match = DURATION.exec(text);
  if (!match)
    throw new FaultSpecError(`faults: ${where}: duration ${JSON.stringify(text)} must be a number with ms or s, e.g. 200ms or 1.5s`);
  const value = Number(match[1]);
  const ms = match[2] === "s" ? value * 1000 : value;
  if (ms > MAX_DURATION_MS) throw new FaultSpecError(`faults: ${where}: duration ${JSON.stringify(text)} is above the bound of 600s`);
  return ms;
}

function parseFault(text: string, selector: string): FaultSetting {
  const where = `${JSON.stringify(selector)}`;
  const eq = text.indexOf("=");
  if (eq <= 0) throw new FaultSpecError(`faults: ${where}: expected KIND=PROBABILITY, got ${JSON.stringify(text)}`);
  const kind = text.slice(0, eq).trim();
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new FaultSpecError(`faults: ${where}: unknown fault kind ${JSON.stringify(kind)}; kinds are ${FAULT_KINDS.join(", ")}`);
  }
  const rest = text.slice(eq + 1).trim();
  const at = rest.indexOf("@");
  const probabilityText = (at === -1 ? rest : rest.slice(0, at)).trim();
  const probability = Number(probabilityText);
  if (probabilityText === "" || !Number.isFinite(probability) || probability < 0 || probability > 1) {
    throw new FaultSpecError(
      `faults: ${where}: probability of ${kind} must be a number from 0 to 1, got ${JSON.stringify(probabilityText)}`,
    );
  }
  checkKindFitsSelector(kind as FaultKind, selector);
  const setting: FaultSetting = { kind: kind as FaultKind, probability };
  if (at !== -1) {
    const after = rest.slice(at + 1).trim();
    const jobs = AFTER_JOBS.exec(after);
    if (jobs) {
      setting.afterJobs = Number(jobs[1]);
      if (setting.afterJobs > MAX_AFTER_JOBS)
        throw new FaultSpecError(`faults: ${where}: @${after} is above the bound of ${MAX_AFTER_JOBS} jobs`);
    } else {
      checkDuration(setting.kind, 0, where);
      setting.durationMs = parseDuration(after, where);
    }
  }
  checkDuration(setting.kind, setting.durationMs, where, setting.afterJobs);
  return setting;
}

/** Parses a SPEC; throws FaultSpecError naming the part that is wrong. */
export function parseFaultSpec(spec: string): FaultPlan {
  const plan: FaultPlan = { seed: 0, rules: [] };
  let seenSeed = false;
  for (const raw of spec.split(/[;\n]/)) {
    const clause = raw.trim();
    if (clause === "") continue;
    const seed = /^seed\s*=\s*(.*)$/.exec(clause);
    if (seed) {
      const value = Number(seed[1]);
      if (seenSeed) throw new FaultSpecError("faults: seed is given twice");
      if (!/^\d+$/.test(seed[1] ?? "") || value > 0xffff_ffff)
        throw new FaultSpecError(`faults: seed must be an integer 0..4294967295, got ${JSON.stringify(seed[1])}`);
      plan.seed = value;
      seenSeed = true;
      continue;
    }
    // The selector's path may hold no ":", so the last ":" before the faults splits the clause;
    // a fault list never holds one either.
    const colon = clause.lastIndexOf(":");
    if (colon <= 0) throw new FaultSpecError(`faults: expected SELECTOR: KIND=P,... or seed=N, got ${JSON.stringify(clause)}`);
    const selector = clause.slice(0, colon).trim().replace(/\s+/g, " ");
    const list = clause
      .slice(colon + 1)
      .split(",")
      .map((f) => f.trim())
      .filter((f) => f !== "");
    if (list.length === 0) throw new FaultSpecError(`faults: ${JSON.stringify(selector)} lists no faults`);
    const faults = list.map((f) => parseFault(f, selector));
    const kinds = faults.map((f) => f.kind);
    const twice = kinds.find((k, i) => kinds.indexOf(k) !== i);
    if (twice) throw new FaultSpecError(`faults: ${JSON.stringify(selector)} names ${twice} twice`);
    checkExclusiveOdds({ selector, faults });
    plan.rules.push({ selector, faults });
  }
  return plan;
}

/** The plan written back as a SPEC (canonical spacing), e.g. for the CLI banner. */
export function formatFaultSpec(plan: FaultPlan): string {
  const duration = (ms: number): string => (ms >= 1000 && ms % 100 === 0 ? `${ms / 1000}s` : `${ms}ms`);
  const clauses = [`seed=${plan.seed}`];
  for (const rule of plan.rules) {
    const after = (f: FaultSetting): string =>
      f.afterJobs !== undefined ? `@${f.afterJobs}jobs` : f.durationMs === undefined ? "" : `@${duration(f.durationMs)}`;
    const faults = rule.faults.map((f) => `${f.kind}=${f.probability}${after(f)}`);
    clauses.push(`${rule.selector}: ${faults.join(",")}`);
  }
  return clauses.join("; ");
}

/** Option `faults`: a SPEC string or a plan object (validated here, at the edge). */
export function toFaultPlan(faults: string | FaultPlan): FaultPlan {
  if (typeof faults === "string") return parseFaultSpec(faults);
  const parsed = FaultPlanSchema.safeParse(faults);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FaultSpecError(`faults: ${issue ? `${issue.path.join(".") || "(plan)"}: ${issue.message}` : "invalid plan"}`);
  }
  for (const rule of parsed.data.rules) {
    for (const f of rule.faults) {
      checkKindFitsSelector(f.kind, rule.selector);
      checkDuration(f.kind, f.durationMs, JSON.stringify(rule.selector), f.afterJobs);
    }
    checkExclusiveOdds(rule);
  }
  return parsed.data;
}
