// The check machinery: zod schemas of each resource's arguments built from small validators whose
// messages say what was wrong, the value given and the fix. Every validator lets the preview's
// unknown sentinel through, so check never fails on values that are not known yet.

import { z } from "zod";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { imageReferenceProblem } from "./imageReference";
import { isRecord, isUnknown, kindOf, quote } from "./values";

export type Verdict<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Verdict<T> => ({ ok: true, value });
const bad = <T>(message: string): Verdict<T> => ({ ok: false, message });

/** A zod schema from a validator; the unknown sentinel passes untouched. */
export function field<T>(validate: (value: unknown) => Verdict<T>): z.ZodType<T> {
  return z.unknown().transform((value, ctx): T => {
    if (isUnknown(value)) return value as T;
    const verdict = validate(value);
    if (verdict.ok) return verdict.value;
    ctx.addIssue({ code: "custom", message: verdict.message, input: value });
    return z.NEVER;
  }) as unknown as z.ZodType<T>;
}

interface Common {
  /** Shown in the "is required" message: what to put there. */
  example: string;
  /** Never print the value (passwords). */
  sensitive?: boolean;
}

function required(common: Common): string {
  return `is required; set it, e.g. ${common.example}`;
}

function shown(value: unknown, common: { sensitive?: boolean }): string {
  return common.sensitive ? kindOf(value) : quote(value);
}

export function str(
  options: Common & { nonEmpty?: boolean; maxLength?: number; pattern?: { re: RegExp; hint: string } },
): z.ZodType<string> {
  return field((value) => {
    if (value === undefined) return bad(required(options));
    if (typeof value !== "string") return bad(`expected a string, got ${shown(value, options)}; e.g. ${options.example}`);
    if (options.nonEmpty && value.trim() === "") return bad(`must not be empty; e.g. ${options.example}`);
    if (options.maxLength !== undefined && value.length > options.maxLength) {
      return bad(`is ${value.length} characters long; the service allows at most ${options.maxLength}`);
    }
    if (options.pattern && !options.pattern.re.test(value)) return bad(`${shown(value, options)} ${options.pattern.hint}`);
    return ok(value);
  });
}

export function bool(options: Common): z.ZodType<boolean> {
  return field((value) => {
    if (value === undefined) return bad(required(options));
    if (typeof value !== "boolean") return bad(`expected true or false, got ${quote(value)}`);
    return ok(value);
  });
}

/** true or false, or one of the named levels a newer API has (FlashBoot's "OFF", "FLASHBOOT", ...). */
export function boolOrLevel<const T extends readonly string[]>(levels: T, options: Common): z.ZodType<boolean | T[number]> {
  return field((value) => {
    if (value === undefined) return bad(required(options));
    if (typeof value === "boolean" || (typeof value === "string" && (levels as readonly string[]).includes(value)))
      return ok(value as boolean | T[number]);
    return bad(`expected true or false, got ${quote(value)}; or one of ${levels.map((l) => quote(l)).join(", ")}`);
  });
}

export interface NumberOptions extends Common {
  min?: number;
  max?: number;
  /** Unit for messages, e.g. "GB", "seconds". */
  unit?: string;
  /** Whole numbers only (default true). */
  integer?: boolean;
  /**
   * Added to a value out of bounds, where the bounds are one API version's: whose they are and
   * what the other takes (e.g. "the v1 API's bounds; v2 takes 10 to 4096 GB").
   */
  boundsNote?: string;
}

export function num(options: NumberOptions): z.ZodType<number> {
  const unit = options.unit ? ` ${options.unit}` : "";
  const range =
    options.min !== undefined && options.max !== undefined
      ? `from ${options.min} to ${options.max}${unit}`
      : options.min !== undefined
        ? `of ${options.min}${unit} or more`
        : options.max !== undefined
          ? `of at most ${options.max}${unit}`
          : `in${unit || " the right unit"}`;
  const noun = options.integer === false ? "a number" : "a whole number";
  const note = options.boundsNote ? ` (${options.boundsNote})` : "";
  return field((value) => {
    if (value === undefined) return bad(required(options));
    if (typeof value !== "number" || !Number.isFinite(value)) {
      const hint =
        typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))
          ? `; write ${Number(value)} without quotes`
          : `; e.g. ${options.example}`;
      return bad(`expected ${noun} ${range}, got ${quote(value)}${hint}`);
    }
    if (options.integer !== false && !Number.isInteger(value))
      return bad(`${value} is not a whole number; use ${noun} ${range}, e.g. ${options.example}${note}`);
    if (options.min !== undefined && value < options.min) {
      const what = options.min === 0 && value < 0 ? "is negative" : `is below the minimum ${options.min}${unit}`;
      return bad(`${value} ${what}; use ${noun} ${range}, e.g. ${options.example}${note}`);
    }
    if (options.max !== undefined && value > options.max) {
      return bad(`${value} is above the maximum ${options.max}${unit}; use ${noun} ${range}, e.g. ${options.example}${note}`);
    }
    return ok(value);
  });
}

export function oneOf<const T extends readonly string[]>(values: T): z.ZodType<T[number]> {
  const listed =
    values.length <= 12
      ? values.map((v) => quote(v)).join(", ")
      : `${values
          .slice(0, 6)
          .map((v) => quote(v))
          .join(", ")}, ... (${values.length} values)`;
  return field((value) => {
    if (value === undefined) return bad(`is required; use one of ${listed}`);
    if (typeof value === "string" && (values as readonly string[]).includes(value)) return ok(value as T[number]);
    const near = typeof value === "string" ? closest(value, values) : undefined;
    return bad(`${quote(value)} is not a valid value; use one of ${listed}${near ? ` (did you mean ${quote(near)}?)` : ""}`);
  });
}

/**
 * A container image reference (`ubuntu:22.04`, `ghcr.io/acme/worker:1.2.3`, `name@sha256:<hex>`),
 * held to the reference grammar of ./imageReference: the one rule of every image argument. A wrong
 * reference fails at preview with the value, the part that is wrong and the fix, not at the pull.
 */
export function image(options: Common): z.ZodType<string> {
  return field((value) => {
    if (value === undefined) return bad(required(options));
    if (typeof value !== "string")
      return bad(`expected a string, got ${quote(value)}; give a container image reference, e.g. ${options.example}`);
    if (value.trim() === "") return bad(`must not be empty; set the container image, e.g. ${options.example}`);
    const problem = imageReferenceProblem(value);
    if (problem) return bad(`${quote(value)} is not a valid image reference: ${problem.part}; ${problem.fix}`);
    return ok(value);
  });
}

const PORT = /^(\d{1,5})\/(http|tcp)$/;

/** "8888/http" or "22/tcp", port 1..65535. */
export const port: z.ZodType<string> = field((value) => {
  const fix = `use "<number>/http" or "<number>/tcp", e.g. "8888/http"`;
  if (typeof value !== "string") return bad(`${quote(value)} is not a valid port; ${fix}`);
  const m = PORT.exec(value);
  const n = m ? Number(m[1]) : NaN;
  if (!m || n < 1 || n > 65535) return bad(`${quote(value)} is not a valid port; ${fix}`);
  return ok(value);
});

export function list<T>(item: z.ZodType<T>, options: Common & { nonEmpty?: boolean; unique?: boolean }): z.ZodType<T[]> {
  return z.unknown().transform((value, ctx): T[] => {
    if (isUnknown(value)) return value as unknown as T[];
    if (value === undefined) {
      ctx.addIssue({ code: "custom", message: required(options), input: value });
      return z.NEVER;
    }
    if (!Array.isArray(value)) {
      ctx.addIssue({ code: "custom", message: `expected a list, got ${quote(value)}; e.g. ${options.example}`, input: value });
      return z.NEVER;
    }
    if (options.nonEmpty && value.length === 0) {
      ctx.addIssue({ code: "custom", message: `must not be empty; e.g. ${options.example}`, input: value });
      return z.NEVER;
    }
    const out: T[] = [];
    const seen = new Set<string>();
    value.forEach((element: unknown, i) => {
      const parsed = item.safeParse(element, { reportInput: true });
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: "custom", message: issue.message, path: [i, ...issue.path], input: element });
        return;
      }
      if (options.unique && typeof element === "string" && !isUnknown(element)) {
        if (seen.has(element))
          ctx.addIssue({ code: "custom", message: `${quote(element)} is listed twice; list each value once`, path: [i], input: element });
        seen.add(element);
      }
      out.push(parsed.data);
    });
    return out;
  }) as unknown as z.ZodType<T[]>;
}

/** Strings passed as-is to the container (dockerEntrypoint, dockerStartCmd). */
export function argv(example: string): z.ZodType<string[]> {
  return list(str({ example: '"python"' }), { example });
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Environment variables: names like shell variables, values strings. Values are never printed. */
export const envMap: z.ZodType<Record<string, string>> = z.unknown().transform((value, ctx): Record<string, string> => {
  if (isUnknown(value)) return value as unknown as Record<string, string>;
  if (!isRecord(value)) {
    ctx.addIssue({
      code: "custom",
      message: `expected a map of names to string values, got ${kindOf(value)}; e.g. {"LOG_LEVEL": "info"}`,
      input: undefined,
    });
    return z.NEVER;
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!ENV_NAME.test(name)) {
      const fixed = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1");
      ctx.addIssue({
        code: "custom",
        message: `${quote(name)} is not a valid environment variable name; use letters, digits and _, not starting with a digit, e.g. ${quote(fixed)}`,
        path: [name],
        input: undefined,
      });
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") {
      const hint = typeof v === "number" || typeof v === "boolean" ? "; give it as a string (quoted)" : "";
      ctx.addIssue({ code: "custom", message: `expected a string value, got ${kindOf(v)}${hint}`, path: [name], input: undefined });
      continue;
    }
    out[name] = v;
  }
  return out;
}) as unknown as z.ZodType<Record<string, string>>;

// ---- running a check ----------------------------------------------------------------------------

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else {
      const text = String(part);
      out += out === "" ? text : /^[A-Za-z_$][\w$]*$/.test(text) ? `.${text}` : `[${JSON.stringify(text)}]`;
    }
  }
  return out;
}

export function failure(path: readonly PropertyKey[], message: string): CheckFailure {
  const property = formatPath(path);
  return { property, reason: property ? `${property}: ${message}` : message };
}

/**
 * The failure as the engine should print it. With a property, the engine prints the value found at
 * that path beside the reason: `value {<nil>}` where there is none (a missing argument). The reason
 * already starts with the path, so a failure whose path holds no value names no property.
 */
export function withValueShown(f: CheckFailure, props: Readonly<Record<string, unknown>>): CheckFailure {
  if (f.property === "") return f;
  let value: unknown = props;
  for (const key of f.property.match(/[^.[\]]+/g) ?? []) {
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value === undefined || value === null ? { property: "", reason: f.reason } : f;
}

export interface CheckOutcome<T> {
  failures: CheckFailure[];
  /** The parsed arguments when there were no failures. */
  value?: T;
}

/**
 * Validates a resource's arguments. Keys the schema does not know fail with a suggestion (the
 * service rejects unknown keys anyway, and a typo silently ignored would be a no-op).
 */
export function runSchema<T>(schema: z.ZodObject, noun: string, args: Record<string, unknown>): CheckOutcome<T> {
  const known = Object.keys(schema.shape);
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(args)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    failures.push(
      failure([key], `is not a ${noun} argument${near ? `; did you mean ${near}?` : `; the arguments are ${known.join(", ")}`}`),
    );
  }
  const parsed = schema.safeParse(args, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) failures.push(failure(issue.path, issue.message));
  }
  return failures.length === 0 && parsed.success ? { failures, value: parsed.data as T } : { failures };
}

/** The candidate within edit distance 2 (or a case-insensitive match), for "did you mean". */
export function closest(value: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    if (candidate.toLowerCase() === value.toLowerCase()) return candidate;
    const d = editDistance(value.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] ?? 0;
      row[j] = Math.min(cur + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] ?? 0;
}

// ---- catalog ids ------------------------------------------------------------------------------

// GPU types and data centers come and go faster than this package is released: an id the
// reference does not list is a warning (it may be new), not a failure.

export function unknownIdWarnings(noun: string, field: string, value: unknown, known: readonly string[]): string[] {
  const values = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const out: string[] = [];
  values.forEach((v: unknown, i) => {
    if (typeof v !== "string" || isUnknown(v) || known.includes(v)) return;
    const near = closest(v, known);
    const at = Array.isArray(value) ? `${field}[${i}]` : field;
    out.push(
      `${noun} ${at}: ${quote(v)} is not among the values this provider knows${near ? ` (did you mean ${quote(near)}?)` : ""}; it is passed to the service as given`,
    );
  });
  return out;
}
