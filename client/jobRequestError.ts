// Apart from jobRequest.ts (whose schemas are zod's) because JobClient's public declarations export it.
import { GpuCloudError, nameErrorClass } from "./gpuCloudError";

/** A request the job API would refuse, caught before sending. */
export class JobRequestError extends GpuCloudError {
  /** Where in the request the problem is, e.g. "policy.ttl". */
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}
nameErrorClass(JobRequestError, "JobRequestError");
