/** Fault injection for the management API (/v1 and /api/v2) and the job API (/v2): the SPEC format (spec.ts), the injector on the router's seam (injector.ts), pods whose boot fails (podFaults.ts), and serverless workers whose jobs fail or slow down (workerFaults.ts). */
export {
  FAULT_KINDS,
  POD_FAULT_KINDS,
  REQUEST_FAULT_KINDS,
  WORKER_FAULT_KINDS,
  FaultSpecError,
  formatFaultSpec,
  parseFaultSpec,
  toFaultPlan,
} from "./spec";
export type { FaultKind, FaultPlan, FaultRule, FaultSetting } from "./spec";
export { FaultInjector, chainInterceptors, resolvePlan } from "./injector";
export type { FaultCall, FaultEffects, FaultRoute, FaultStats } from "./injector";
export { PodFaults } from "./podFaults";
export type { PodBootFault } from "./podFaults";
export { WorkerFaults } from "./workerFaults";
export type { JobFault, JobFaultQuery, JobFaultSource } from "./workerFaults";
