// The outcome of one smoke-test case, as the provider's smoke tests report it (provider/smoke). Apart
// from the runner (which reads the case schemas, zod's) because JobRunner's and EndpointRollout's
// public declarations name it.

export interface CaseResult {
  /** The case's name. */
  name: string;
  /** The job the case submitted (job cases). */
  jobId?: string;
  /** The request the case sent, e.g. "GET /ping" (HTTP cases on load-balancing endpoints). */
  target?: string;
  /** The job's last known status, or "HTTP <code>" for an HTTP case ("NO_ANSWER" when none came). */
  status: string;
  /** The HTTP status the worker answered (HTTP cases). */
  httpStatus?: number;
  /** The worker that answered (HTTP cases: its X-Service-Worker-Id), or that ran the job (job cases, when the service names it). */
  workerId?: string;
  /** The job's output (absent for failed jobs), or the answer's body (JSON when it is JSON, else text). */
  output?: unknown;
  /** The job's error text, for FAILED jobs. */
  error?: string;
  /** Milliseconds the job waited in the queue, as the service reports it. */
  delayTime?: number;
  /** Milliseconds the job ran, as the service reports it; for HTTP cases, the request's round trip. */
  executionTime?: number;
  /** Whether every expectation held. */
  passed: boolean;
  /** What did not hold, in words; empty when passed. */
  problems: string[];
}
