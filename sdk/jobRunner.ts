/**
 * JobRunner: smoke tests that gate a deploy. After the endpoint is deployed, each `pulumi up` that
 * changed the endpoint, its template, the cases or the trigger runs the cases against the endpoint:
 * real jobs on a queue-based endpoint, real HTTP requests on a load-balancing one. A case that fails
 * fails the update, with the job id, status, error and an output excerpt (or the request and the
 * response) in the message. Cases never run during `pulumi preview`.
 */
import * as pulumi from "@pulumi/pulumi";
import { createHash } from "node:crypto";
import type { JobFinalStatus } from "../client/enums";
import { RESOURCE_MODULE, SMOKE_TEST_TYPE } from "../model/kinds";
import smokeTestShim from "../provider/shims/smokeTest";
import type { CaseResult } from "../model/components/caseResult";
import { preloadSqliteQuietly } from "./quietSerializer";

preloadSqliteQuietly();

/** A final job status: COMPLETED, FAILED, TIMED_OUT or CANCELLED. */
export type JobStatus = JobFinalStatus;

/** A check on one value inside the job's output. */
export interface OutputPredicate {
  /** Dot path into the output, e.g. "choices.0.text". Default: the whole output. */
  path?: string;
  /**
   * equals / notEquals (deep), exists / absent, contains (substring or array item), matches (regular
   * expression), gt / gte / lt / lte (numbers), type ("string", "number", "boolean", "object",
   * "array", "null"), length (of a string or array).
   */
  op: "equals" | "notEquals" | "exists" | "absent" | "contains" | "matches" | "gt" | "gte" | "lt" | "lte" | "type" | "length";
  /** The value to compare with; not used by exists and absent. */
  value?: unknown;
}

/** What a case's job must do to pass. Every expectation given must hold. */
export interface JobExpectation {
  /** The final status the job must reach. Default "COMPLETED". */
  status?: JobStatus;
  /** The output must deep-equal this value. */
  output?: unknown;
  /** Every key (recursively) and array item given must be present and equal in the output. */
  outputSubset?: unknown;
  /** Every predicate must hold on the output. */
  outputPredicates?: OutputPredicate[];
  /** The job's error text must contain this (for cases that expect a failure). */
  errorContains?: string;
}

/** One smoke-test case: a job (queue-based endpoints) or an HTTP request (load-balancing endpoints). */
export type JobRunnerCase = JobRunnerJobCase | JobRunnerHttpCase;

/** A smoke-test case for a queue-based endpoint: a job, and what it must do. */
export interface JobRunnerJobCase {
  /** Names the case in outputs and failure messages; unique within the runner. */
  name: string;
  /** The job's input, as the endpoint's handler receives it. */
  input: Record<string, unknown>;
  /** Job policy: executionTimeout (ms, 5000..604800000), lowPriority, ttl (ms, 10000..604800000). */
  policy?: { executionTimeout?: number; lowPriority?: boolean; ttl?: number };
  /** What the job must do to pass. Default: reach COMPLETED. */
  expect?: JobExpectation;
  /** Seconds the case may take from submission to a final status (queue, cold start and run). Default 300, at most 3600. */
  timeoutSeconds?: number;
}

/** What a load-balancing endpoint's answer must be. Every expectation given must hold. */
export interface HttpExpectation {
  /** The HTTP status the worker must answer. Default 200. */
  status?: number;
  /** The body (parsed JSON when it is JSON, else the text) must deep-equal this. */
  body?: unknown;
  /** Every key (recursively) and array item given must be present and equal in the JSON body. */
  bodySubset?: unknown;
  /** Every predicate must hold on the body (JSON when it is JSON, else the text). */
  bodyPredicates?: OutputPredicate[];
  /** The body text must contain this. */
  bodyContains?: string;
}

/** A smoke-test case for a load-balancing endpoint: one HTTP request to the workers' own server. */
export interface JobRunnerHttpCase {
  /** Names the case in outputs and failure messages; unique within the runner. */
  name: string;
  request: {
    /** Default "GET". */
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    /** The worker's path, starting with "/", e.g. "/v1/generate". */
    path: string;
    headers?: Record<string, string>;
    /** A string is sent as is; anything else as JSON. */
    body?: unknown;
  };
  /** What the answer must be. Default: status 200. */
  expect?: HttpExpectation;
  /** Seconds the request may take, a cold start included. Default 300, at most 3600. */
  timeoutSeconds?: number;
}

/** The verdict of one case, as exported by the runner. */
export type JobRunnerCaseResult = CaseResult;

export interface JobRunnerArgs {
  /** The endpoint to test: an Endpoint resource (preferred: its changes re-run the cases) or an endpoint id. */
  endpoint: pulumi.CustomResource | pulumi.Input<string>;
  /**
   * The endpoint's template. Templates update in place, so a template change does not change the
   * endpoint's own outputs: pass it here so that a new image or env re-runs the cases.
   */
  template?: pulumi.CustomResource;
  /** The cases; at least one. They run side by side. */
  cases: pulumi.Input<JobRunnerCase[]>;
  /** Any value; when it changes, the cases run again even if nothing else changed. */
  trigger?: pulumi.Input<string>;
  /**
   * Where HTTP cases reach a load-balancing endpoint: its v2 `requestUrls` (their `base`; the live
   * service serves each such endpoint on a host of its own). Default: the Endpoint resource's
   * `requestUrls` output when `endpoint` is one; without a `base` (v1 API, emulator, or an endpoint
   * given by id) requests go to `<serverlessUrl>/<endpointId>`.
   */
  requestUrls?: pulumi.Input<Record<string, string>>;
}

/** The dynamic resource that holds the verdict; its create/update run the cases. */
class SmokeTestRun extends pulumi.dynamic.Resource {
  declare readonly results: pulumi.Output<CaseResult[]>;
  declare readonly ranAt: pulumi.Output<string>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts: pulumi.CustomResourceOptions) {
    super(smokeTestShim, name, { ...props, results: undefined, ranAt: undefined }, opts, RESOURCE_MODULE, SMOKE_TEST_TYPE);
  }
}

export class JobRunner extends pulumi.ComponentResource {
  /** The endpoint the cases ran against. */
  declare readonly endpointId: pulumi.Output<string>;
  /**
   * One result per case, in order: name, passed, problems, status, output, and for job cases jobId,
   * error, delayTime (ms) and executionTime (ms); for HTTP cases target, httpStatus, workerId and
   * executionTime (the round trip, ms).
   */
  declare readonly results: pulumi.Output<JobRunnerCaseResult[]>;
  /** When the cases last ran (ISO 8601). */
  declare readonly ranAt: pulumi.Output<string>;

  constructor(name: string, args: JobRunnerArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super("gpucloud:index:JobRunner", name, {}, opts);
    const endpointResource = args.endpoint instanceof pulumi.CustomResource ? args.endpoint : undefined;
    const endpointId = endpointResource ? endpointResource.id : pulumi.output(args.endpoint as pulumi.Input<string>);
    const requestUrls = args.requestUrls ?? requestUrlsOf(endpointResource);
    // Only the base is used; the whole map in the inputs would show every URL in `--diff`.
    const requestBase = requestUrls === undefined ? undefined : pulumi.output(requestUrls).apply((urls) => urls?.["base"]);
    const watched = [endpointResource, args.template].filter((r): r is pulumi.CustomResource => r !== undefined);
    const run = new SmokeTestRun(
      `${name}-run`,
      {
        endpointId,
        ...(requestBase !== undefined ? { requestBase } : {}),
        cases: args.cases,
        revision: revisionOf(watched),
        ...(args.trigger !== undefined ? { trigger: args.trigger } : {}),
      },
      { parent: this, dependsOn: watched },
    );
    this.endpointId = endpointId;
    this.results = run.results;
    this.ranAt = run.ranAt;
    this.registerOutputs({ endpointId, results: run.results, ranAt: run.ranAt });
  }
}

/** The resource's `requestUrls` output, when it has one (an Endpoint on the v2 API fills it). */
function requestUrlsOf(resource: pulumi.CustomResource | undefined): pulumi.Output<Record<string, string> | undefined> | undefined {
  const output: unknown = resource === undefined ? undefined : (resource as unknown as { requestUrls?: unknown }).requestUrls;
  return pulumi.Output.isInstance(output) ? (output as pulumi.Output<Record<string, string> | undefined>) : undefined;
}

/**
 * A digest of every output of the watched resources: it changes exactly when one of them changes,
 * which is when the cases must run again. Secret outputs keep the digest secret in state.
 *
 * Only known, defined outputs count. During a preview, an output the provider did not return (an
 * argument the user did not set) is unknown rather than undefined; counting it would make every
 * preview plan a re-run that `up` then does not do (and fail `pulumi preview --expect-no-changes`).
 */
function revisionOf(resources: pulumi.CustomResource[]): pulumi.Output<string> | undefined {
  if (resources.length === 0) return undefined;
  const perResource = resources.map(async (resource) => {
    const fields = Object.entries(resource).filter(
      (entry): entry is [string, pulumi.Output<unknown>] =>
        entry[0] !== "urn" && !entry[0].startsWith("__") && pulumi.Output.isInstance(entry[1]),
    );
    const known = await Promise.all(fields.map(async (entry) => ((await isKnown(entry[1])) ? [entry] : [])));
    return Object.fromEntries(known.flat());
  });
  return pulumi
    .output(Promise.all(perResource))
    .apply((values) => createHash("sha256").update(stableJson(values)).digest("hex").slice(0, 32));
}

/**
 * Whether an Output's value is known. `isKnown` is how Output implementations tell each other about
 * unknown values (see @pulumi/pulumi output.ts); it is not in the public typings.
 */
function isKnown(output: pulumi.Output<unknown>): Promise<boolean> {
  const probe = (output as unknown as { isKnown?: Promise<boolean> }).isKnown;
  return probe ?? Promise.resolve(true);
}

/** JSON with object keys sorted, so the digest does not depend on property order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    // Undefined members are left out: an output that is absent and one that resolved to undefined are the same.
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
