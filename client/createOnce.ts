// Resolving ambiguous creates. A create is a POST the transport never repeats on its own: if the
// connection breaks after sending, the answer times out, or the service answers 5xx, the resource
// may or may not exist. Repeating blindly would risk a second Pod (billed by the hour); giving up
// would leak the first. So the caller says how to recognise its resource (a unique name, a marker
// in env, ...), and createOnce asks the service before trying again:
//
//   create -> ok: done
//          -> refused (4xx, or 429/connect failures the transport already retried): throw
//          -> ambiguous: wait a moment, then findExisting()
//               -> found: that is our resource, return it (no duplicate)
//               -> not found: create again (bounded by maxAttempts), same rules
//
// Residual risk: a service that accepts the create but makes the resource visible only later than
// the wait could still produce a duplicate; the waits grow with each attempt to narrow that window.

import { isAmbiguousFailure, type ApiError } from "./errors";
import { backoffDelayMs } from "./retry";

export interface AmbiguousCreateInfo {
  /** 1 for the first create attempt. */
  attempt: number;
  error: ApiError;
  /** What the lookup said: the resource exists (returned), or not (create again / give up). */
  found: boolean;
}

export interface CreateOnceOptions {
  /** Total create attempts, default 3. */
  maxAttempts?: number | undefined;
  /** Defaults to a real timer; tests inject a recorder. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
  /** Told about every ambiguous failure and what the lookup found. */
  onAmbiguous?: ((info: AmbiguousCreateInfo) => void) | undefined;
}

export async function createOnce<T>(
  create: () => Promise<T>,
  findExisting: () => Promise<T | undefined>,
  options: CreateOnceOptions = {},
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!isAmbiguousFailure(error)) throw error;
      // Give a create that is still being processed a moment to become visible before looking.
      await sleep(backoffDelayMs(attempt - 1, undefined, random));
      let existing: T | undefined;
      try {
        existing = await findExisting();
      } catch {
        // The lookup failed too (its GETs were already retried): we cannot tell, so we must not
        // create again. The create's error is the one that explains what happened.
        throw error;
      }
      options.onAmbiguous?.({ attempt, error, found: existing !== undefined });
      if (existing !== undefined) return existing;
      if (attempt >= maxAttempts) throw error;
    }
  }
}
