// Apart from lookup.ts (which reads the field tables, zod's) because the SDK exports it: a user's type
// check of the SDK must not reach zod's types.
import { NotFoundError, type ApiErrorFields } from "../../client/errors";
import { nameErrorClass } from "../../client/gpuCloudError";

/** What a lookup is asked for: an id, or a name where the kind's names are unique. */
export type LookupKey = { id: string } | { name: string };

/**
 * Nothing of that kind with that id (or name): the service answered 404, reports the resource as
 * gone for good (a terminated pod), or lists none by that name. A NotFoundError, so one
 * `instanceof NotFoundError` covers lookups and every other call.
 */
export class LookupNotFoundError extends NotFoundError {
  /** The kind looked up: "pod", "endpoint", "network volume", "template" or "registry auth". */
  readonly resourceKind: string;
  /** The id or name asked for. */
  readonly lookedUp: LookupKey;

  constructor(message: string, resourceKind: string, lookedUp: LookupKey, fields: ApiErrorFields, cause?: Error) {
    super(message, fields, cause === undefined ? undefined : { cause });
    this.resourceKind = resourceKind;
    this.lookedUp = lookedUp;
  }
}
nameErrorClass(LookupNotFoundError, "LookupNotFoundError");
