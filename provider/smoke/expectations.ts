/**
 * Judges a finished job against a case's expectations. Pure: the same record and expectation always
 * give the same verdict, so the rules are unit-tested without a service.
 */
import { isDeepStrictEqual } from "node:util";
import type { Expectation, OutputPredicate } from "./caseSchema";

export interface FinishedJob {
  id: string;
  status: string;
  output?: unknown;
  error?: string | undefined;
}

/** Every expectation that did not hold, in words; empty when the case passed. */
export function unmetExpectations(job: FinishedJob, expect: Expectation = {}): string[] {
  const problems: string[] = [];
  const wantStatus = expect.status ?? "COMPLETED";
  if (job.status !== wantStatus) problems.push(`status is ${job.status}, expected ${wantStatus}`);
  if (expect.errorContains !== undefined && !(job.error ?? "").includes(expect.errorContains)) {
    problems.push(`error ${JSON.stringify(job.error ?? "")} does not contain ${JSON.stringify(expect.errorContains)}`);
  }
  if (expect.output !== undefined && !isDeepStrictEqual(job.output, expect.output)) {
    problems.push(`output is not equal to the expected ${excerpt(expect.output)}`);
  }
  if (expect.outputSubset !== undefined) {
    const mismatch = subsetMismatch(job.output, expect.outputSubset, "output");
    if (mismatch) problems.push(mismatch);
  }
  for (const predicate of expect.outputPredicates ?? []) {
    const failure = predicateFailure(job.output, predicate);
    if (failure) problems.push(failure);
  }
  return problems;
}

/** Where `actual` departs from `expected` read as a subset, or undefined when it contains it. */
export function subsetMismatch(actual: unknown, expected: unknown, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at} is ${typeName(actual)}, expected an array`;
    for (const [i, item] of expected.entries()) {
      if (!actual.some((candidate) => subsetMismatch(candidate, item, at) === undefined)) {
        return `${at} has no item matching ${excerpt(item)} (expected item ${i})`;
      }
    }
    return undefined;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${at} is ${typeName(actual)}, expected an object`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${at}.${key} is missing`;
      const nested = subsetMismatch((actual as Record<string, unknown>)[key], value, `${at}.${key}`);
      if (nested) return nested;
    }
    return undefined;
  }
  return isDeepStrictEqual(actual, expected) ? undefined : `${at} is ${excerpt(actual)}, expected ${excerpt(expected)}`;
}

/** Reads a dot path (`a.b.0.c`); undefined when any step is missing. */
export function readPath(value: unknown, path: string | undefined): { found: boolean; value: unknown } {
  if (!path) return { found: value !== undefined, value };
  let current: unknown = value;
  for (const step of path.split(".")) {
    if (current === null || typeof current !== "object" || !(step in current)) return { found: false, value: undefined };
    current = (current as Record<string, unknown>)[step];
  }
  return { found: true, value: current };
}

export function predicateFailure(output: unknown, predicate: OutputPredicate): string | undefined {
  const where = predicate.path ? `output.${predicate.path}` : "output";
  const { found, value } = readPath(output, predicate.path);
  const want = predicate.value;
  const fail = (what: string) => `${where} ${what} (${predicate.op} ${excerpt(want)}; actual ${found ? excerpt(value) : "missing"})`;
  switch (predicate.op) {
    case "exists":
      return found ? undefined : `${where} is missing`;
    case "absent":
      return found ? `${where} is present (${excerpt(value)}), expected it absent` : undefined;
    case "equals":
      return found && isDeepStrictEqual(value, want) ? undefined : fail("is not equal");
    case "notEquals":
      return !isDeepStrictEqual(value, want) ? undefined : fail("is equal");
    case "contains":
      if (typeof value === "string" && typeof want === "string") return value.includes(want) ? undefined : fail("does not contain it");
      if (Array.isArray(value)) return value.some((v) => isDeepStrictEqual(v, want)) ? undefined : fail("does not contain it");
      return fail("is neither a string nor an array");
    case "matches":
      return typeof value === "string" && new RegExp(String(want)).test(value) ? undefined : fail("does not match");
    case "gt":
      return typeof value === "number" && value > Number(want) ? undefined : fail("is not greater");
    case "gte":
      return typeof value === "number" && value >= Number(want) ? undefined : fail("is not greater or equal");
    case "lt":
      return typeof value === "number" && value < Number(want) ? undefined : fail("is not less");
    case "lte":
      return typeof value === "number" && value <= Number(want) ? undefined : fail("is not less or equal");
    case "type":
      return found && typeName(value) === want ? undefined : fail(`is ${typeName(value)}`);
    case "length": {
      const length = typeof value === "string" || Array.isArray(value) ? value.length : undefined;
      return length === want ? undefined : fail(`has length ${length ?? "n/a"}`);
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A short, single-line rendering of a value for messages. */
export function excerpt(value: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}
