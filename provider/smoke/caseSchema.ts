/**
 * The shape of a smoke-test case, as the JobRunner component's `cases` argument takes it and as the
 * smoke-test provider validates it in `check` (so a malformed case fails at preview, not mid-deploy).
 */
import { z } from "zod";
import { JOB_FINAL_STATUSES } from "../../client/enums";
import { jobPolicySchema } from "../../client/jobRequest";

export const PREDICATE_OPS = [
  "equals",
  "notEquals",
  "exists",
  "absent",
  "contains",
  "matches",
  "gt",
  "gte",
  "lt",
  "lte",
  "type",
  "length",
] as const;

const JSON_TYPE_NAMES: readonly string[] = ["string", "number", "boolean", "object", "array", "null"];

export const predicateSchema = z
  .object({
    /** Dot path into the output (`choices.0.text`); empty or absent means the whole output. */
    path: z.string().optional(),
    op: z.enum(PREDICATE_OPS, {
      error: (issue) => `op must be one of ${PREDICATE_OPS.join(", ")} (got ${JSON.stringify(issue.input)})`,
    }),
    value: z.unknown().optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const needsValue = !["exists", "absent"].includes(p.op);
    if (needsValue && p.value === undefined) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `op "${p.op}" needs a value to compare with` });
    }
    if (p.op === "matches" && p.value !== undefined && typeof p.value !== "string") {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `op "matches" takes a regular expression as a string (got ${JSON.stringify(p.value)})`,
      });
    }
    if (p.op === "matches" && typeof p.value === "string") {
      try {
        new RegExp(p.value);
      } catch (e) {
        ctx.addIssue({
          code: "custom",
          path: ["value"],
          message: `"${p.value}" is not a valid regular expression: ${(e as Error).message}`,
        });
      }
    }
    if (["gt", "gte", "lt", "lte", "length"].includes(p.op) && typeof p.value !== "number") {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `op "${p.op}" compares numbers; value must be a number (got ${JSON.stringify(p.value)})`,
      });
    }
    if (p.op === "type" && !(typeof p.value === "string" && JSON_TYPE_NAMES.includes(p.value))) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `op "type" takes one of string, number, boolean, object, array, null (got ${JSON.stringify(p.value)})`,
      });
    }
  });
export type OutputPredicate = z.infer<typeof predicateSchema>;

export const expectationSchema = z
  .object({
    /** Final status the job must reach; default COMPLETED. */
    status: z.enum(JOB_FINAL_STATUSES).optional(),
    /** The output must deep-equal this value. */
    output: z.unknown().optional(),
    /** Every key (recursively) and array item given here must be present and equal in the output. */
    outputSubset: z.unknown().optional(),
    /** Every predicate must hold on the output. */
    outputPredicates: z.array(predicateSchema).optional(),
    /** The job's error text must contain this (for cases that expect a failure). */
    errorContains: z.string().optional(),
  })
  .strict();
export type Expectation = z.infer<typeof expectationSchema>;

const caseName = z.string().min(1, "name must not be empty").max(100, "name must be at most 100 characters");
const caseTimeout = z.number().positive("timeoutSeconds must be greater than 0").max(3_600, "timeoutSeconds must be at most 3600");

export const queueCaseSchema = z
  .object({
    /** Names the case in outputs and failure messages; unique within a runner. */
    name: caseName,
    /** The job input sent to the endpoint. */
    input: z.record(z.string(), z.unknown(), { error: "input must be an object (the job's `input`)" }),
    policy: jobPolicySchema.optional(),
    expect: expectationSchema.optional(),
    /** Seconds the case may take from submission to a final status; default 300. */
    timeoutSeconds: caseTimeout.optional(),
  })
  .strict();
export type QueueCase = z.infer<typeof queueCaseSchema>;

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** What a load-balancing endpoint's answer must be to pass. */
export const httpExpectationSchema = z
  .object({
    /** The HTTP status the worker must answer; default 200. */
    status: z
      .number()
      .int()
      .min(100, "status must be an HTTP status (100..599)")
      .max(599, "status must be an HTTP status (100..599)")
      .optional(),
    /** The body (JSON when it is JSON, else the text) must deep-equal this. */
    body: z.unknown().optional(),
    /** Every key and array item given must be present and equal in the JSON body. */
    bodySubset: z.unknown().optional(),
    /** Every predicate must hold on the body (JSON when it is JSON, else the text). */
    bodyPredicates: z.array(predicateSchema).optional(),
    /** The body text must contain this. */
    bodyContains: z.string().optional(),
  })
  .strict();
export type HttpExpectation = z.infer<typeof httpExpectationSchema>;

/** A smoke-test case for a load-balancing endpoint: one HTTP request to the workers' server. */
export const httpCaseSchema = z
  .object({
    name: caseName,
    request: z
      .object({
        /** Default GET. */
        method: z
          .enum(HTTP_METHODS, { error: (i) => `method must be one of ${HTTP_METHODS.join(", ")} (got ${JSON.stringify(i.input)})` })
          .optional(),
        /** The worker's path, starting with "/". */
        path: z.string().regex(/^\//, 'path must start with "/", e.g. "/ping"'),
        headers: z.record(z.string(), z.string()).optional(),
        /** A string is sent as is; anything else as JSON. */
        body: z.unknown().optional(),
      })
      .strict(),
    expect: httpExpectationSchema.optional(),
    /** Seconds the request may take, cold start included; default 300. */
    timeoutSeconds: caseTimeout.optional(),
  })
  .strict();
export type HttpCase = z.infer<typeof httpCaseSchema>;

export type SmokeCase = QueueCase | HttpCase;

export function isHttpCase(value: SmokeCase): value is HttpCase {
  return "request" in value;
}

/** A case with `request` is an HTTP case (load-balancing endpoints); any other is a job case. */
function schemaFor(value: unknown): typeof httpCaseSchema | typeof queueCaseSchema {
  return value !== null && typeof value === "object" && "request" in value ? httpCaseSchema : queueCaseSchema;
}

export const DEFAULT_CASE_TIMEOUT_SECONDS = 300;

export const casesSchema = z
  .array(z.unknown())
  .min(1, "give at least one smoke-test case")
  .transform((cases, ctx): SmokeCase[] => {
    const parsed: SmokeCase[] = [];
    const seen = new Set<string>();
    cases.forEach((value, i) => {
      // Names are compared even on invalid cases, so every mistake shows in one preview.
      const name = value !== null && typeof value === "object" ? (value as { name?: unknown }).name : undefined;
      if (typeof name === "string" && seen.has(name)) {
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `case name "${name}" is used twice; names must be unique` });
      }
      if (typeof name === "string") seen.add(name);
      const result = schemaFor(value).safeParse(value, { reportInput: true });
      if (!result.success) {
        for (const issue of result.error.issues)
          ctx.addIssue({ code: "custom", path: [i, ...issue.path], message: issue.message, input: issue.input });
        return;
      }
      parsed.push(result.data);
    });
    return parsed;
  });
