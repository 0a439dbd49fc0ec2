// Apart from lookupKey.ts (which parses with zod) because the SDK exports it: a user's type check of
// the SDK must not reach zod's types.
import { GpuCloudError, nameErrorClass } from "../../client/gpuCloudError";

/**
 * Arguments a lookup cannot take (no id, an empty id, a name where names are not unique, a name
 * several resources share).
 */
export class LookupArgsError extends GpuCloudError {}
nameErrorClass(LookupArgsError, "LookupArgsError");
