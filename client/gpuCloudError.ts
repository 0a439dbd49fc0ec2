// The root of everything this package throws, so a program can catch all of it with one
// `instanceof GpuCloudError`: service failures (ApiError and its subclasses), settings
// (ConfigError), requests refused before sending (JobRequestError, BillingQueryError), waits that
// ran out (JobWaitTimeoutError), and arguments no call can take.

export class GpuCloudError extends Error {}

/**
 * Gives an error class its own name on the prototype, so that the stack header (which V8 builds
 * while the base constructor runs) already says "ConfigError: ..." rather than "Error: ...".
 */
export function nameErrorClass(ctor: abstract new (...args: never[]) => Error, name: string): void {
  Object.defineProperty(ctor.prototype, "name", { value: name, writable: true, configurable: true });
}

nameErrorClass(GpuCloudError, "GpuCloudError");
