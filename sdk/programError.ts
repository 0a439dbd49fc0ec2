/**
 * Errors a program sees from this package's functions (lookups, catalog, billing), made to print
 * as one line. Pulumi prints an uncaught error with its stack and every property (`util.inspect`:
 * the HTTP details of an ApiError too), except a RunError, whose message it prints alone. It tells
 * a RunError by a marker property that works across copies of its SDK (`RunError.isInstance`), so
 * an error of ours carries that marker and keeps its own class for `instanceof` and `catch`.
 */
import { GpuCloudError, nameErrorClass } from "../client/gpuCloudError";

/** A lookup, catalog read or billing query that failed for another reason than its arguments or a missing resource; `cause` is the service's error. */
export class LookupError extends GpuCloudError {}
nameErrorClass(LookupError, "LookupError");

/** Marks `error` as one Pulumi prints by its message alone; returns it. */
export function printedAsMessage<E>(error: E): E {
  if (error instanceof Error && !Object.hasOwn(error, "__pulumiRunError")) {
    Object.defineProperty(error, "__pulumiRunError", { value: true, enumerable: false });
  }
  return error;
}

/**
 * The error a function call ends with: errors that already say what was looked up (the kinds in
 * `own`) as they are, any other wrapped so its message names the call and its key; printed as
 * one line either way.
 */
export function callFailure(call: string, own: ReadonlyArray<abstract new (...args: never[]) => Error>, error: unknown): Error {
  if (error instanceof Error && own.some((kind) => error instanceof kind)) return printedAsMessage(error);
  const message = error instanceof Error ? error.message : String(error);
  return printedAsMessage(new LookupError(`${call}: ${message}`, { cause: error }));
}
