/** What every management command (and the surfaces over them) needs, built once by startEmulator(). */
import type { Clock } from "../clock";
import type { ResolvedOptions } from "../options";
import type { EndpointSpec, ServerlessService } from "../serverless/contract";
import type { ManagementStore } from "../state/model";
import type { Capacity } from "./placement";

import type { PodFaults } from "../faults/podFaults";
import type { ListVisibility } from "./visibility";
import type { PodLogs } from "./pods/podLogs";

export interface ManagementContext {
  store: ManagementStore;
  clock: Clock;
  capacity: Capacity;
  options: ResolvedOptions;
  /** The job side. Assigned right after creation (it is built from deps that use this context). */
  serverless: ServerlessService;
  /** Endpoints of the "public" account (--public-endpoint), callable with any key. */
  publicEndpoints: ReadonlyMap<string, EndpointSpec>;
  /** Marks state as changed outside a mutating request (worker usage, idle decay): schedules a save. */
  changed(): void;
  /** Pod faults of the fault plan (`pod: error=P`): which boots fail. */
  podFaults: PodFaults;
  /** New resources a fault keeps out of lists for a while (`hidden=P@D`); every list reads through it. */
  visibility: ListVisibility;
  /** Each pod's log (boot and status lines, and what a test writes), in memory only. */
  podLogs: PodLogs;
}

/** Service time as the API shows it. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
