import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  casesSchema,
  DEFAULT_CASE_TIMEOUT_SECONDS,
  expectationSchema,
  PREDICATE_OPS,
  predicateSchema,
  queueCaseSchema,
} from "../../../provider/smoke/caseSchema";
import { JOB_FINAL_STATUSES } from "../../../client/enums";
import { predicateFailure } from "../../../provider/smoke/expectations";

/** Issues as "path: message" lines ("(root)" for the top). */
function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`);
}

describe("predicateSchema", () => {
  it("accepts every op with a suitable value", () => {
    const valid = [
      { op: "equals", value: { a: 1 } },
      { op: "notEquals", value: null },
      { path: "a.b", op: "exists" },
      { op: "absent" },
      { op: "contains", value: "x" },
      { op: "matches", value: "^a+$" },
      { op: "gt", value: 1 },
      { op: "gte", value: 0 },
      { op: "lt", value: -1 },
      { op: "lte", value: 1.5 },
      { op: "type", value: "array" },
      { op: "length", value: 0 },
    ];
    expect(valid.map((p) => p.op).sort()).toEqual([...PREDICATE_OPS].sort());
    for (const p of valid) expect(issuesOf(predicateSchema, p), JSON.stringify(p)).toEqual([]);
  });

  it.each(["string", "number", "boolean", "object", "array", "null"])("type accepts %s", (t) => {
    expect(issuesOf(predicateSchema, { op: "type", value: t })).toEqual([]);
  });

  it("an unknown op lists the valid ones and the value given", () => {
    expect(issuesOf(predicateSchema, { op: "startsWith", value: "a" })).toEqual([
      `op: op must be one of ${PREDICATE_OPS.join(", ")} (got "startsWith")`,
    ]);
  });

  it.each(["equals", "notEquals", "contains", "matches", "type"])("%s without a value is refused at value", (op) => {
    const issues = issuesOf(predicateSchema, { op });
    expect(issues[0]).toBe(`value: op "${op}" needs a value to compare with`);
  });

  it("exists and absent need no value", () => {
    expect(issuesOf(predicateSchema, { op: "exists", path: "x" })).toEqual([]);
    expect(issuesOf(predicateSchema, { op: "absent", path: "x" })).toEqual([]);
  });

  it("matches: an invalid regular expression is refused with the pattern and the reason", () => {
    const [issue, ...rest] = issuesOf(predicateSchema, { op: "matches", value: "(unclosed" });
    expect(rest).toEqual([]);
    expect(issue).toMatch(/^value: "\(unclosed" is not a valid regular expression: .*Unterminated group/);
  });

  it.each(["gt", "gte", "lt", "lte", "length"])("%s needs a number", (op) => {
    expect(issuesOf(predicateSchema, { op, value: "10" })).toEqual([
      `value: op "${op}" compares numbers; value must be a number (got "10")`,
    ]);
    // Missing value: both problems are named.
    expect(issuesOf(predicateSchema, { op })).toEqual([
      `value: op "${op}" needs a value to compare with`,
      `value: op "${op}" compares numbers; value must be a number (got undefined)`,
    ]);
  });

  it("type: a name outside the six is refused with the list", () => {
    expect(issuesOf(predicateSchema, { op: "type", value: "integer" })).toEqual([
      'value: op "type" takes one of string, number, boolean, object, array, null (got "integer")',
    ]);
  });

  // Regression test for a fixed defect.
  it('type: a value that is not one of the six names as a string (null, ["string"]) is refused', () => {
    for (const value of [null, ["string"]]) {
      // Proof that such a predicate can never pass at run time:
      expect(predicateFailure(value === null ? null : "s", { op: "type", value })).toBeDefined();
      expect(issuesOf(predicateSchema, { op: "type", value }), `value ${JSON.stringify(value)}`).toEqual([
        `value: op "type" takes one of string, number, boolean, object, array, null (got ${JSON.stringify(value)})`,
      ]);
    }
  });

  it("unknown keys are refused (strict)", () => {
    expect(issuesOf(predicateSchema, { op: "exists", path: "a", pth: "b" })).toEqual(['(root): Unrecognized key: "pth"']);
  });
});

describe("expectationSchema", () => {
  it.each(JOB_FINAL_STATUSES)("status %s is accepted", (status) => {
    expect(issuesOf(expectationSchema, { status })).toEqual([]);
  });

  it("a non-final status is refused", () => {
    const issues = issuesOf(expectationSchema, { status: "IN_PROGRESS" });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^status: /);
  });

  it("accepts every field at once and refuses unknown keys", () => {
    expect(
      issuesOf(expectationSchema, {
        status: "FAILED",
        output: null,
        outputSubset: { a: 1 },
        outputPredicates: [{ op: "exists" }],
        errorContains: "oom",
      }),
    ).toEqual([]);
    expect(issuesOf(expectationSchema, { outputEquals: 1 })).toEqual(['(root): Unrecognized key: "outputEquals"']);
  });

  it("predicate problems carry their index", () => {
    expect(issuesOf(expectationSchema, { outputPredicates: [{ op: "exists" }, { op: "gt", value: "1" }] })).toEqual([
      'outputPredicates.1.value: op "gt" compares numbers; value must be a number (got "1")',
    ]);
  });
});

describe("queueCaseSchema", () => {
  const base = { name: "hello", input: { prompt: "hi" } };

  it("accepts a minimal case and a full one", () => {
    expect(issuesOf(queueCaseSchema, base)).toEqual([]);
    expect(
      issuesOf(queueCaseSchema, {
        ...base,
        policy: { executionTimeout: 5_000, ttl: 10_000, lowPriority: true },
        expect: { outputSubset: { ok: true } },
        timeoutSeconds: 3_600,
      }),
    ).toEqual([]);
  });

  it("name: 1..100 characters", () => {
    expect(issuesOf(queueCaseSchema, { ...base, name: "" })).toEqual(["name: name must not be empty"]);
    expect(issuesOf(queueCaseSchema, { ...base, name: "n".repeat(100) })).toEqual([]);
    expect(issuesOf(queueCaseSchema, { ...base, name: "n".repeat(101) })).toEqual(["name: name must be at most 100 characters"]);
  });

  it.each([[["a"]], ["text"], [null], [undefined]])("input %j is refused with the fix", (input) => {
    expect(issuesOf(queueCaseSchema, { name: "c", input })).toEqual(["input: input must be an object (the job's `input`)"]);
  });

  it("timeoutSeconds: greater than 0 and at most 3600", () => {
    expect(issuesOf(queueCaseSchema, { ...base, timeoutSeconds: 0 })).toEqual(["timeoutSeconds: timeoutSeconds must be greater than 0"]);
    expect(issuesOf(queueCaseSchema, { ...base, timeoutSeconds: -5 })).toEqual(["timeoutSeconds: timeoutSeconds must be greater than 0"]);
    expect(issuesOf(queueCaseSchema, { ...base, timeoutSeconds: 0.5 })).toEqual([]);
    expect(issuesOf(queueCaseSchema, { ...base, timeoutSeconds: 3_600 })).toEqual([]);
    expect(issuesOf(queueCaseSchema, { ...base, timeoutSeconds: 3_601 })).toEqual(["timeoutSeconds: timeoutSeconds must be at most 3600"]);
  });

  it("policy uses the job API's bounds", () => {
    expect(issuesOf(queueCaseSchema, { ...base, policy: { ttl: 9_999 } })).toEqual([
      "policy.ttl: policy.ttl must be at least 10000 ms (10 s)",
    ]);
    expect(issuesOf(queueCaseSchema, { ...base, policy: { executionTimeout: 4_999 } })).toEqual([
      "policy.executionTimeout: policy.executionTimeout must be at least 5000 ms (5 s)",
    ]);
  });

  it("unknown keys are refused (strict)", () => {
    expect(issuesOf(queueCaseSchema, { ...base, timeout: 5 })).toEqual(['(root): Unrecognized key: "timeout"']);
  });

  it("the default time limit is 300 s", () => {
    expect(DEFAULT_CASE_TIMEOUT_SECONDS).toBe(300);
  });
});

describe("casesSchema", () => {
  it("needs at least one case", () => {
    expect(issuesOf(casesSchema, [])).toEqual(["(root): give at least one smoke-test case"]);
  });

  it("names must be unique: the second use is reported at its index", () => {
    const cases = [
      { name: "a", input: {} },
      { name: "b", input: {} },
      { name: "a", input: {} },
      { name: "b", input: {} },
    ];
    expect(issuesOf(casesSchema, cases)).toEqual([
      '2.name: case name "a" is used twice; names must be unique',
      '3.name: case name "b" is used twice; names must be unique',
    ]);
    expect(issuesOf(casesSchema, cases.slice(0, 2))).toEqual([]);
  });

  it("problems inside a case carry the case index", () => {
    expect(
      issuesOf(casesSchema, [
        { name: "ok", input: {} },
        { name: "bad", input: {}, expect: { outputPredicates: [{ op: "lt", value: "x" }] } },
      ]),
    ).toEqual(['1.expect.outputPredicates.0.value: op "lt" compares numbers; value must be a number (got "x")']);
  });
});
