// A job request as callers write it, as plain types: JobClient's public declarations name these, and
// must not name zod's. jobRequest.ts holds its schema's input type equal to them at compile time.

/** What the job may do and how long it lives. */
export interface JobPolicy {
  /** Milliseconds a job may run before it is TIMED_OUT; 5 s..7 d; default the endpoint's (600000). */
  executionTimeout?: number | undefined;
  /** A low-priority job does not make the endpoint scale up. */
  lowPriority?: boolean | undefined;
  /** Milliseconds the job lives from submission, queue and execution included; 10 s..7 d; default 24 h. */
  ttl?: number | undefined;
}

/** Object storage the handler may use for large inputs and outputs. */
export interface JobS3Config {
  accessId: string;
  accessSecret: string;
  bucketName: string;
  endpointUrl: string;
}

/** A job request as callers write it: the job API's own fields. */
export interface JobInput {
  /** The handler's input (required). */
  input: Record<string, unknown>;
  /** URL that receives one POST with the final record (and the input) when the job finishes, FAILED included. */
  webhook?: string | undefined;
  policy?: JobPolicy | undefined;
  s3Config?: JobS3Config | undefined;
}
