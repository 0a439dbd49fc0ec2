// A fault plan as plain types (see spec.ts for the SPEC syntax that parses into one). `startEmulator`
// options and `RunningEmulator.setFaults` name these, so they are written out by hand instead of
// inferred from spec.ts's schemas, which hold them equal at compile time.

/** Kinds injected into a management request (faults/injector.ts). */
export const REQUEST_FAULT_KINDS = ["429", "500", "502", "503", "504", "reset", "lost", "late", "land", "hidden", "latency"] as const;
/** Kinds injected into a pod's boot (faults/podFaults.ts). */
export const POD_FAULT_KINDS = ["error"] as const;
/** Kinds injected into the jobs (and proxied requests) of serverless workers (faults/workerFaults.ts). */
export const WORKER_FAULT_KINDS = ["fail", "crash", "slow"] as const;
export const FAULT_KINDS = [...REQUEST_FAULT_KINDS, ...POD_FAULT_KINDS, ...WORKER_FAULT_KINDS] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type WorkerFaultKind = (typeof WORKER_FAULT_KINDS)[number];
export type RequestFaultKind = (typeof REQUEST_FAULT_KINDS)[number];
export type StatusFaultKind = "429" | "500" | "502" | "503" | "504";

/** One fault a rule may inject. */
export interface FaultSetting {
  kind: FaultKind;
  /** 0..1. */
  probability: number;
  /**
   * latency: the delay; status kinds: the Retry-After header; lost: when the connection is cut
   * (absent: as soon as the operation ran); late: when the answer is sent; land: when the operation
   * is applied; hidden: how long a created resource stays out of lists; error: how long the pod runs
   * before it fails (absent: its boot fails); fail, crash: how long after the worker was created
   * the fault starts to apply (service time; absent: from its first job); slow: how much longer a
   * job takes (service time). Required for late, land, hidden and slow; not allowed for reset.
   * Milliseconds, 0..600000.
   */
  durationMs?: number | undefined;
  /**
   * fail, crash only (`@Njobs` in a SPEC): the fault applies only to the jobs of an endpoint release
   * after its first N (counted per endpoint and release, over all its workers). Not with durationMs.
   */
  afterJobs?: number | undefined;
}

/** The faults of the routes a selector matches. */
export interface FaultRule {
  /** `*`, an operation id, `METHOD PATH`, `pod` / `pod NAME` for pod faults, or `worker` / `worker IMAGE` for serverless workers'. */
  selector: string;
  faults: FaultSetting[];
}

/** Which faults to inject where; `seed` makes the draws repeatable (0..2^32-1). */
export interface FaultPlan {
  seed: number;
  rules: FaultRule[];
}
