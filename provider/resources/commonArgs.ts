// Provider arguments shared by several resources, with their policies.

import { adoptIdSame, ignore, replace, type FieldPolicy } from "./fieldPolicy";
import { num, str } from "./validation";

/** Default readiness deadline of pods and endpoints, in seconds. */
export const DEFAULT_READY_TIMEOUT_SECONDS = 600;

export const readyTimeoutSecondsArg = num({ min: 0, max: 86_400, unit: "seconds", integer: false, example: "600" }).optional();
export const adoptIdArg = str({ nonEmpty: true, example: '"abc123xyz"' }).optional();

/** The deadline never causes an update: it only matters while an operation runs. */
export const readyTimeoutSecondsPolicy = <L>(): FieldPolicy<L> => ignore<L>({ local: true });

/** Changing which existing resource to adopt is a different resource; removing adoptId is nothing. */
export const adoptIdPolicy = <L>(): FieldPolicy<L> => replace<L>({ local: true, same: adoptIdSame });

export function readyTimeoutOf(value: number | undefined): number {
  return value ?? DEFAULT_READY_TIMEOUT_SECONDS;
}
