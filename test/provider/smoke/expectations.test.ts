import { describe, expect, it } from "vitest";
import type { OutputPredicate } from "../../../provider/smoke/caseSchema";
import {
  excerpt,
  predicateFailure,
  readPath,
  subsetMismatch,
  unmetExpectations,
  type FinishedJob,
} from "../../../provider/smoke/expectations";

const done = (output: unknown, extra: Partial<FinishedJob> = {}): FinishedJob => ({ id: "job-1", status: "COMPLETED", output, ...extra });

describe("unmetExpectations", () => {
  it("a COMPLETED job passes an empty expectation (status defaults to COMPLETED)", () => {
    expect(unmetExpectations(done({ any: "thing" }))).toEqual([]);
    expect(unmetExpectations(done(undefined), {})).toEqual([]);
  });

  it.each(["FAILED", "TIMED_OUT", "CANCELLED", "IN_PROGRESS"])("a %s job fails the default status expectation", (status) => {
    expect(unmetExpectations({ id: "j", status })).toEqual([`status is ${status}, expected COMPLETED`]);
  });

  it("an expected FAILED status passes for FAILED and fails for COMPLETED", () => {
    expect(unmetExpectations({ id: "j", status: "FAILED", error: "boom" }, { status: "FAILED" })).toEqual([]);
    expect(unmetExpectations(done(1), { status: "FAILED" })).toEqual(["status is COMPLETED, expected FAILED"]);
  });

  it("errorContains: substring of the error passes; another text or no error fails with both quoted", () => {
    const failed = { id: "j", status: "FAILED", error: "CUDA error: out of memory" };
    expect(unmetExpectations(failed, { status: "FAILED", errorContains: "out of memory" })).toEqual([]);
    expect(unmetExpectations(failed, { status: "FAILED", errorContains: "disk full" })).toEqual([
      'error "CUDA error: out of memory" does not contain "disk full"',
    ]);
    // No error at all reads as the empty string.
    expect(unmetExpectations(done(1), { errorContains: "x" })).toEqual(['error "" does not contain "x"']);
    expect(unmetExpectations(done(1), { errorContains: "" })).toEqual([]);
  });

  it("output must deep-equal, strictly (no type coercion, no extra keys)", () => {
    expect(unmetExpectations(done({ a: [1, { b: 2 }] }), { output: { a: [1, { b: 2 }] } })).toEqual([]);
    expect(unmetExpectations(done({ n: "1" }), { output: { n: 1 } })).toEqual(['output is not equal to the expected {"n":1}']);
    expect(unmetExpectations(done({ n: 1, extra: true }), { output: { n: 1 } })).toHaveLength(1);
    expect(unmetExpectations(done([2, 1]), { output: [1, 2] })).toHaveLength(1);
  });

  it("an expected output of null is checked (only undefined means 'no expectation')", () => {
    expect(unmetExpectations(done(null), { output: null })).toEqual([]);
    expect(unmetExpectations(done(0), { output: null })).toEqual(["output is not equal to the expected null"]);
  });

  it("outputSubset and predicates are applied, and every problem is listed in order", () => {
    const job = { id: "j", status: "FAILED", output: { text: "hello", tokens: 3 } };
    const problems = unmetExpectations(job, {
      outputSubset: { text: "bye" },
      outputPredicates: [
        { path: "tokens", op: "gt", value: 10 },
        { path: "text", op: "exists" },
        { path: "missing", op: "exists" },
      ],
    });
    expect(problems).toEqual([
      "status is FAILED, expected COMPLETED",
      'output.text is "hello", expected "bye"',
      "output.tokens is not greater (gt 10; actual 3)",
      "output.missing is missing",
    ]);
  });

  it("is pure: the same input gives the same verdict and neither argument is modified", () => {
    const job = done({ list: [1, 2, 3] });
    const expectation = { outputSubset: { list: [3] }, outputPredicates: [{ path: "list", op: "length" as const, value: 3 }] };
    const before = JSON.stringify([job, expectation]);
    const first = unmetExpectations(job, expectation);
    expect(unmetExpectations(job, expectation)).toEqual(first);
    expect(first).toEqual([]);
    expect(JSON.stringify([job, expectation])).toBe(before);
  });
});

describe("subsetMismatch", () => {
  it("extra keys in the actual value are allowed; nested objects are compared key by key", () => {
    const actual = { a: { b: 1, c: 2 }, d: "x", e: [1] };
    expect(subsetMismatch(actual, { a: { b: 1 } }, "output")).toBeUndefined();
    expect(subsetMismatch(actual, {}, "output")).toBeUndefined();
    expect(subsetMismatch(actual, { a: { b: 2 } }, "output")).toBe("output.a.b is 1, expected 2");
  });

  it("a missing key is reported with its full path", () => {
    expect(subsetMismatch({ a: { b: 1 } }, { a: { z: 1 } }, "output")).toBe("output.a.z is missing");
    expect(subsetMismatch({}, { k: undefined }, "out")).toBe("out.k is missing");
  });

  it("arrays: every expected item must match some actual item, in any order", () => {
    expect(subsetMismatch([3, 2, 1], [1, 3], "output")).toBeUndefined();
    expect(
      subsetMismatch(
        [
          { id: 1, x: "a" },
          { id: 2, x: "b" },
        ],
        [{ id: 2 }],
        "output",
      ),
    ).toBeUndefined();
    expect(subsetMismatch([1, 2], [4], "output")).toBe("output has no item matching 4 (expected item 0)");
    expect(subsetMismatch([1, 2], [1, 5], "output")).toBe("output has no item matching 5 (expected item 1)");
    expect(subsetMismatch([], [], "output")).toBeUndefined();
  });

  it("arrays inside objects keep the path", () => {
    expect(subsetMismatch({ choices: [{ text: "a" }] }, { choices: [{ text: "b" }] }, "output")).toBe(
      'output.choices has no item matching {"text":"b"} (expected item 0)',
    );
  });

  it("type mismatches name what was found", () => {
    expect(subsetMismatch("text", [1], "output")).toBe("output is string, expected an array");
    expect(subsetMismatch({ a: 1 }, [1], "output")).toBe("output is object, expected an array");
    expect(subsetMismatch([1], { a: 1 }, "output")).toBe("output is array, expected an object");
    expect(subsetMismatch(null, { a: 1 }, "output")).toBe("output is null, expected an object");
    expect(subsetMismatch(undefined, { a: 1 }, "output")).toBe("output is undefined, expected an object");
    expect(subsetMismatch({ a: "1" }, { a: 1 }, "output")).toBe('output.a is "1", expected 1');
  });

  it("primitives and null compare strictly", () => {
    expect(subsetMismatch(null, null, "output")).toBeUndefined();
    expect(subsetMismatch(0, null, "output")).toBe("output is 0, expected null");
    expect(subsetMismatch(true, true, "output")).toBeUndefined();
    expect(subsetMismatch(1, "1", "v")).toBe('v is 1, expected "1"');
  });
});

describe("readPath", () => {
  const value = { a: { b: [{ c: 5 }, { c: null }] }, zero: 0, empty: "" };

  it("no path (or an empty one) means the whole value; undefined counts as not found", () => {
    expect(readPath(value, undefined)).toEqual({ found: true, value });
    expect(readPath(value, "")).toEqual({ found: true, value });
    expect(readPath(undefined, undefined)).toEqual({ found: false, value: undefined });
    expect(readPath(null, "")).toEqual({ found: true, value: null });
  });

  it("follows dot paths through objects and array indexes", () => {
    expect(readPath(value, "a.b.0.c")).toEqual({ found: true, value: 5 });
    expect(readPath(value, "a.b.1.c")).toEqual({ found: true, value: null });
    expect(readPath(value, "zero")).toEqual({ found: true, value: 0 });
    expect(readPath(value, "empty")).toEqual({ found: true, value: "" });
  });

  it("any missing step gives found=false", () => {
    expect(readPath(value, "a.x")).toEqual({ found: false, value: undefined });
    expect(readPath(value, "a.b.7.c")).toEqual({ found: false, value: undefined });
    expect(readPath(value, "a.b.1.c.d")).toEqual({ found: false, value: undefined }); // through null
    expect(readPath(value, "zero.x")).toEqual({ found: false, value: undefined }); // through a number
    expect(readPath("text", "length")).toEqual({ found: false, value: undefined }); // primitives have no steps
    expect(readPath(null, "a")).toEqual({ found: false, value: undefined });
  });
});

describe("predicateFailure", () => {
  const output = { text: "Hello, world", n: 5, list: ["a", "b"], nested: { flag: true }, nothing: null };
  const check = (p: OutputPredicate) => predicateFailure(output, p);

  it("exists / absent", () => {
    expect(check({ path: "text", op: "exists" })).toBeUndefined();
    expect(check({ path: "nothing", op: "exists" })).toBeUndefined(); // null is present
    expect(check({ path: "nope", op: "exists" })).toBe("output.nope is missing");
    expect(check({ path: "nope", op: "absent" })).toBeUndefined();
    expect(check({ path: "n", op: "absent" })).toBe("output.n is present (5), expected it absent");
    expect(predicateFailure(undefined, { op: "exists" })).toBe("output is missing");
  });

  it("equals / notEquals compare deeply and strictly", () => {
    expect(check({ path: "list", op: "equals", value: ["a", "b"] })).toBeUndefined();
    expect(check({ path: "n", op: "equals", value: "5" })).toBe('output.n is not equal (equals "5"; actual 5)');
    expect(check({ path: "nope", op: "equals", value: 1 })).toBe("output.nope is not equal (equals 1; actual missing)");
    expect(check({ path: "n", op: "notEquals", value: 6 })).toBeUndefined();
    expect(check({ path: "nope", op: "notEquals", value: 6 })).toBeUndefined(); // missing is not 6
    expect(check({ path: "nested", op: "notEquals", value: { flag: true } })).toBe(
      'output.nested is equal (notEquals {"flag":true}; actual {"flag":true})',
    );
  });

  it("contains works on strings and arrays, and refuses anything else", () => {
    expect(check({ path: "text", op: "contains", value: "world" })).toBeUndefined();
    expect(check({ path: "text", op: "contains", value: "World" })).toBe(
      'output.text does not contain it (contains "World"; actual "Hello, world")',
    );
    expect(check({ path: "list", op: "contains", value: "b" })).toBeUndefined();
    expect(check({ path: "list", op: "contains", value: "c" })).toBe('output.list does not contain it (contains "c"; actual ["a","b"])');
    expect(check({ path: "n", op: "contains", value: 5 })).toBe("output.n is neither a string nor an array (contains 5; actual 5)");
    expect(check({ path: "text", op: "contains", value: 5 })).toMatch(/is neither a string nor an array/);
  });

  it("matches tests a regular expression against strings only", () => {
    expect(check({ path: "text", op: "matches", value: "^Hello,\\s\\w+$" })).toBeUndefined();
    expect(check({ path: "text", op: "matches", value: "^world" })).toBe(
      'output.text does not match (matches "^world"; actual "Hello, world")',
    );
    expect(check({ path: "n", op: "matches", value: "5" })).toBe('output.n does not match (matches "5"; actual 5)');
  });

  it("gt / gte / lt / lte at their boundaries", () => {
    expect(check({ path: "n", op: "gt", value: 4 })).toBeUndefined();
    expect(check({ path: "n", op: "gt", value: 5 })).toBe("output.n is not greater (gt 5; actual 5)");
    expect(check({ path: "n", op: "gte", value: 5 })).toBeUndefined();
    expect(check({ path: "n", op: "gte", value: 6 })).toBe("output.n is not greater or equal (gte 6; actual 5)");
    expect(check({ path: "n", op: "lt", value: 6 })).toBeUndefined();
    expect(check({ path: "n", op: "lt", value: 5 })).toBe("output.n is not less (lt 5; actual 5)");
    expect(check({ path: "n", op: "lte", value: 5 })).toBeUndefined();
    expect(check({ path: "n", op: "lte", value: 4 })).toBe("output.n is not less or equal (lte 4; actual 5)");
  });

  it("numeric ops never coerce a non-number output", () => {
    expect(predicateFailure({ n: "10" }, { path: "n", op: "gt", value: 1 })).toBe('output.n is not greater (gt 1; actual "10")');
    expect(predicateFailure({}, { path: "n", op: "lt", value: 1 })).toBe("output.n is not less (lt 1; actual missing)");
  });

  it.each([
    ["text", "string"],
    ["n", "number"],
    ["nested.flag", "boolean"],
    ["nested", "object"],
    ["list", "array"],
    ["nothing", "null"],
  ])("type: output.%s is %s", (path, type) => {
    expect(check({ path, op: "type", value: type })).toBeUndefined();
    const other = type === "string" ? "number" : "string";
    expect(check({ path, op: "type", value: other })).toMatch(
      new RegExp(`^output\\.${path.replace(".", "\\.")} is ${type} \\(type "${other}"`),
    );
  });

  it("type of a missing value fails", () => {
    expect(check({ path: "nope", op: "type", value: "string" })).toBe('output.nope is undefined (type "string"; actual missing)');
  });

  it("length of strings and arrays; n/a for other values", () => {
    expect(check({ path: "list", op: "length", value: 2 })).toBeUndefined();
    expect(check({ path: "text", op: "length", value: 12 })).toBeUndefined();
    expect(check({ path: "list", op: "length", value: 3 })).toBe('output.list has length 2 (length 3; actual ["a","b"])');
    expect(check({ path: "n", op: "length", value: 1 })).toBe("output.n has length n/a (length 1; actual 5)");
    expect(predicateFailure([], { op: "length", value: 0 })).toBeUndefined();
  });

  it("without a path the predicate applies to the whole output", () => {
    expect(predicateFailure("done", { op: "equals", value: "done" })).toBeUndefined();
    expect(predicateFailure(42, { op: "type", value: "string" })).toBe('output is number (type "string"; actual 42)');
  });
});

describe("excerpt", () => {
  it("renders values as JSON on one line", () => {
    expect(excerpt({ a: [1, "two"], b: null })).toBe('{"a":[1,"two"],"b":null}');
    expect(excerpt("line1\nline2")).toBe('"line1\\nline2"');
    expect(excerpt("line1\nline2")).not.toContain("\n");
    expect(excerpt(undefined)).toBe("undefined");
    expect(excerpt(null)).toBe("null");
  });

  it("cuts long values at max characters and says how long they were", () => {
    const long = "x".repeat(1000);
    const text = excerpt(long);
    expect(text).toBe(`"${"x".repeat(299)}... (1002 chars)`);
    expect(excerpt(long, 10)).toBe(`"xxxxxxxxx... (1002 chars)`);
    expect(excerpt("x".repeat(298))).toBe(`"${"x".repeat(298)}"`); // exactly 300 characters: kept whole
  });

  it("falls back to String() for values JSON cannot render", () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular["self"] = circular;
    expect(excerpt(circular)).toBe("[object Object]");
    expect(excerpt(10n)).toBe("10");
  });
});
