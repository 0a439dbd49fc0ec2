/**
 * Worker faults: the `worker` and `worker IMAGE` clauses of a fault SPEC (spec.ts). They give a
 * release of an endpoint the signals of a degraded version (a share of failed jobs, slower jobs,
 * failures that start only under traffic or after a while), so that what watches an endpoint's
 * `/health` and `/requests` can be shown a version that passes its first cases and then degrades.
 *
 * Each job a simulated worker starts (and each request a load-balancing worker is handed) draws
 * twice from its clause's seeded stream, armed or not, so the same seed and the same sequence of
 * jobs give the same faults. The job side applies the result (serverless/workers.ts,
 * serverless/lb/lbRoutes.ts); this file only decides and counts.
 *
 * The reference says nothing about how a degraded version behaves: this is a test device, and the
 * choices below (when a failure shows, what counts as a release's jobs) are the emulator's.
 */
import { streamFor } from "./random";
import { type FaultPlan, type WorkerFaultKind, patternMatches, workerSelectorPattern } from "./spec";

/** What the job side tells about the job (or proxied request) that is starting. */
export interface JobFaultQuery {
  /** The worker's image: its endpoint release's template imageName. */
  imageName: string;
  /** Service ms since the worker was created (its cold start included). */
  workerAgeMs: number;
  /** Jobs (or proxied requests) the worker's endpoint release has started so far, this one included. */
  releaseJobs: number;
}

/** What happens to one job. */
export interface JobFault {
  /** Service ms the handler starts late (slow); 0 when not slowed. */
  slowMs: number;
  /**
   * How the job ends instead of completing; undefined: as its handler says. `fault` names the clause
   * and kind for the job side's message, e.g. `worker example/echo:2.*: fail=0.3 after 20 jobs of this release`.
   */
  ending: { kind: "fail" | "crash"; fault: string } | undefined;
  /** Counts a fault that took effect (faultStats()): the job side calls it when it applies one. */
  applied(kind: WorkerFaultKind): void;
}

/** The job side's view of worker faults (serverless/contract.ts). */
export interface JobFaultSource {
  /** The faults of a job about to start; undefined when no clause selects its worker. */
  draw(query: JobFaultQuery): JobFault | undefined;
}

interface Ending {
  kind: "fail" | "crash";
  probability: number;
  afterMs: number | undefined;
  afterJobs: number | undefined;
}

interface WorkerRule {
  selector: string;
  pattern: string;
  /** Exclusive, in the order drawn; their odds add up to at most 1 (spec.ts). */
  endings: Ending[];
  slow: { probability: number; delayMs: number } | undefined;
}

function workerRules(plan: FaultPlan | undefined): WorkerRule[] {
  const rules: WorkerRule[] = [];
  for (const rule of plan?.rules ?? []) {
    const pattern = workerSelectorPattern(rule.selector);
    if (pattern === undefined) continue;
    const endings: Ending[] = [];
    let slow: WorkerRule["slow"];
    for (const fault of rule.faults) {
      if (fault.kind === "fail" || fault.kind === "crash") {
        endings.push({ kind: fault.kind, probability: fault.probability, afterMs: fault.durationMs, afterJobs: fault.afterJobs });
      } else if (fault.kind === "slow") {
        slow = { probability: fault.probability, delayMs: fault.durationMs ?? 0 };
      }
    }
    rules.push({ selector: rule.selector, pattern, endings, slow });
  }
  return rules;
}

/** Whether an ending's AFTER has come for this job. */
function armed(ending: Ending, query: JobFaultQuery): boolean {
  if (ending.afterJobs !== undefined) return query.releaseJobs > ending.afterJobs;
  return ending.afterMs === undefined || query.workerAgeMs >= ending.afterMs;
}

function describe(rule: WorkerRule, ending: Ending): string {
  const after =
    ending.afterJobs !== undefined
      ? ` after ${ending.afterJobs} jobs of this release`
      : ending.afterMs !== undefined
        ? ` from ${ending.afterMs} ms after the worker started`
        : "";
  return `${rule.selector}: ${ending.kind}=${ending.probability}${after}`;
}

export class WorkerFaults implements JobFaultSource {
  private seed = 0;
  private rules: WorkerRule[] = [];
  private streams = new Map<string, () => number>();

  /** Applied since startup, per selector and kind (they survive setPlan), for faultStats(). */
  private readonly bySelector: Record<string, Partial<Record<WorkerFaultKind, number>>> = {};

  constructor(plan: FaultPlan | undefined) {
    this.setPlan(plan);
  }

  counts(): { bySelector: Readonly<Record<string, Partial<Record<WorkerFaultKind, number>>>> } {
    return { bySelector: Object.fromEntries(Object.entries(this.bySelector).map(([selector, counts]) => [selector, { ...counts }])) };
  }

  /** Replaces the plan (undefined: none) and restarts the streams from its seed. */
  setPlan(plan: FaultPlan | undefined): void {
    this.seed = plan?.seed ?? 0;
    this.rules = workerRules(plan);
    this.streams = new Map();
  }

  draw(query: JobFaultQuery): JobFault | undefined {
    const rule = this.rules.find((r) => patternMatches(r.pattern, query.imageName));
    if (!rule) return undefined;
    let random = this.streams.get(rule.selector);
    if (!random) {
      random = streamFor(this.seed, rule.selector);
      this.streams.set(rule.selector, random);
    }
    // Two draws per job, always, so that the stream stays aligned whatever is armed.
    const slowDraw = random();
    const endingDraw = random();
    let ending: JobFault["ending"];
    let cumulative = 0;
    for (const candidate of rule.endings) {
      cumulative += candidate.probability;
      if (endingDraw < cumulative) {
        if (armed(candidate, query)) ending = { kind: candidate.kind, fault: describe(rule, candidate) };
        break;
      }
    }
    const slowMs = rule.slow && slowDraw < rule.slow.probability ? rule.slow.delayMs : 0;
    if (slowMs === 0 && ending === undefined) return undefined;
    return {
      slowMs,
      ending,
      applied: (kind) => {
        const counts = this.bySelector[rule.selector] ?? {};
        this.bySelector[rule.selector] = counts;
        counts[kind] = (counts[kind] ?? 0) + 1;
      },
    };
  }
}
