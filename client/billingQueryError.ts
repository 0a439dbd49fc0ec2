// Apart from billing.ts (whose query schema is zod's) so that the SDK can export it without pulling
// zod's types into a user's type check.
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";

/** A billing lookup the service would refuse, caught before sending. */
export class BillingQueryError extends GpuCloudError {}
nameErrorClass(BillingQueryError, "BillingQueryError");
