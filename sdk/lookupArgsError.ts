// Apart from lookups.ts, which exports it, and lookupCall.ts, which throws it: the call's code
// (with the clients and the field tables) loads on a lookup's first call, the class with the SDK.
import { GpuCloudError, nameErrorClass } from "../client/gpuCloudError";

/** Arguments a lookup cannot take (no id, an empty id, a name where names are not unique). */
export class LookupArgsError extends GpuCloudError {}
nameErrorClass(LookupArgsError, "LookupArgsError");
