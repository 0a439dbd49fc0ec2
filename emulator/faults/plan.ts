// A fault plan as plain types (see spec.ts for the SPEC syntax that parses into one). `startEmulator`
// options and `RunningEmulator.setFaults` name these, so they are written out by hand instead of
// inferred from spec.ts's schemas, which hold them equal at compile time.

export const FAULT_KINDS = ["429", "500", "502", "503", "504", "reset", "lost", "latency"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type StatusFaultKind = "429" | "500" | "502" | "503" | "504";

/** One fault a rule may inject. */
export interface FaultSetting {
  kind: FaultKind;
  /** 0..1. */
  probability: number;
  /** latency: the delay; status kinds: the Retry-After header. Not allowed for reset and lost. Milliseconds, 0..600000. */
  durationMs?: number | undefined;
}

/** The faults of the routes a selector matches. */
export interface FaultRule {
  /** `*`, an operation id, or `METHOD PATH`. */
  selector: string;
  faults: FaultSetting[];
}

/** Which faults to inject where; `seed` makes the draws repeatable (0..2^32-1). */
export interface FaultPlan {
  seed: number;
  rules: FaultRule[];
}
