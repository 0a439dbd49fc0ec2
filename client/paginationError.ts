// Apart from pages.ts (whose list specs name zod schemas) so that the SDK can export it without
// pulling zod's types into a user's type check.
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";

/** A paginated list that could not be read whole; `operation` is the list (e.g. "listPods"). */
export class PaginationError extends GpuCloudError {
  readonly operation: string;
  constructor(operation: string, message: string, options?: { cause?: unknown }) {
    super(`${operation} failed: ${message}`, options);
    this.operation = operation;
  }
}
nameErrorClass(PaginationError, "PaginationError");
