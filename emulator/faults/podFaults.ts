/**
 * Pod faults: the `pod` and `pod NAME` clauses of a fault SPEC (spec.ts). Each boot of a pod (a
 * create, a start, restart, reset, an update that restarts the container) draws once from its clause's seeded
 * stream; a drawn `error` makes that boot fail, so the pod ends in ERROR as a pod whose container
 * failed does on the service. The management side applies it (management/pods/lifecycle.ts); this
 * file only decides, and holds the timers so that closing the emulator cancels them.
 */
import type { Clock, ServiceTimer } from "../clock";
import { streamFor } from "./random";
import { type FaultPlan, patternMatches, podSelectorPattern } from "./spec";

/** A boot that is to fail. */
export interface PodBootFault {
  /** Service ms the container runs before it fails; 0: the boot itself fails (never RUNNING). */
  afterRunningMs: number;
  /** The pod's error, as the answers show it. */
  reason: string;
}

interface PodRule {
  selector: string;
  pattern: string;
  probability: number;
  afterRunningMs: number;
}

function podRules(plan: FaultPlan | undefined): PodRule[] {
  const rules: PodRule[] = [];
  for (const rule of plan?.rules ?? []) {
    const pattern = podSelectorPattern(rule.selector);
    if (pattern === undefined) continue;
    for (const fault of rule.faults) {
      if (fault.kind === "error")
        rules.push({ selector: rule.selector, pattern, probability: fault.probability, afterRunningMs: fault.durationMs ?? 0 });
    }
  }
  return rules;
}

export class PodFaults {
  private seed = 0;
  private rules: PodRule[] = [];
  private streams = new Map<string, () => number>();
  private readonly timers = new Set<ServiceTimer>();

  /** Injected since startup, per selector (they survive setPlan), for faultStats(). */
  private readonly bySelector: Record<string, number> = {};

  constructor(
    private readonly clock: Clock,
    plan: FaultPlan | undefined,
  ) {
    this.setPlan(plan);
  }

  counts(): { bySelector: Readonly<Record<string, { error: number }>> } {
    return { bySelector: Object.fromEntries(Object.entries(this.bySelector).map(([selector, error]) => [selector, { error }])) };
  }

  /** Replaces the plan (undefined: none) and restarts the streams from its seed. */
  setPlan(plan: FaultPlan | undefined): void {
    this.seed = plan?.seed ?? 0;
    this.rules = podRules(plan);
    this.streams = new Map();
  }

  /** Whether this boot of the pod named `name` fails, and how. The first clause that matches decides. */
  draw(name: string): PodBootFault | undefined {
    const rule = this.rules.find((r) => patternMatches(r.pattern, name));
    if (!rule) return undefined;
    let random = this.streams.get(rule.selector);
    if (!random) {
      random = streamFor(this.seed, rule.selector);
      this.streams.set(rule.selector, random);
    }
    if (random() >= rule.probability) return undefined;
    this.bySelector[rule.selector] = (this.bySelector[rule.selector] ?? 0) + 1;
    const when = rule.afterRunningMs > 0 ? `after ${rule.afterRunningMs} ms running` : "during its boot";
    return {
      afterRunningMs: rule.afterRunningMs,
      reason: `container exited with an error ${when} (injected fault: ${rule.selector}: error)`,
    };
  }

  /** Runs `fn` after `serviceMs`, unless the emulator closes first. */
  after(serviceMs: number, fn: () => void): void {
    const timer = this.clock.after(serviceMs, () => {
      this.timers.delete(timer);
      fn();
    });
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
  }
}
