/**
 * What a failed candidate check says, worded by what changed since the last check: a new version
 * is blamed and the advice is to fix it; when the version is the one checked before and only the
 * smoke-test cases (or the canary's settings, or the trigger) changed, the version is not blamed:
 * the message names what did change, so a user does not go looking for a defect in an image that
 * passed the same check before.
 */
import { deepEqual, type Props } from "../../model/fields/values";

/** The inputs that make the version itself (its template and, on v2, the template's revision). */
const VERSION_KEYS = ["version", "templateId", "templateRevision"] as const;

/** The names of the cases that are new or differ from the last check's (in the order declared). */
export function changedCaseNames(oldCases: unknown, newCases: unknown): string[] {
  const before = new Map<string, unknown>();
  if (Array.isArray(oldCases)) for (const c of oldCases) if (isNamed(c)) before.set(c.name, c);
  if (!Array.isArray(newCases)) return [];
  return newCases.filter(isNamed).flatMap((c) => (before.has(c.name) && deepEqual(before.get(c.name), c) ? [] : [c.name]));
}

function isNamed(value: unknown): value is { name: string } {
  return typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string";
}

/**
 * The head and the fix of the failure message. `olds` are the arguments of the last check this
 * resource recorded (undefined at create: everything is new).
 */
export function candidateFailureAdvice(
  rollout: string,
  version: string,
  olds: Props | undefined,
  news: Props,
): { head: string; fix: string } {
  const untouched = "so the serving endpoint was not touched (same version, same workers, still answering)";
  const versionChanged = olds === undefined || VERSION_KEYS.some((key) => !deepEqual(olds[key], news[key]));
  if (versionChanged) {
    return {
      head: `rollout "${rollout}": version ${version} failed its candidate check, ${untouched}.`,
      fix: "Fix the version and run `pulumi up` again, or declare the serving version again.",
    };
  }
  const cases = changedCaseNames(olds["cases"], news["cases"]);
  const removedOnly = cases.length === 0 && !deepEqual(olds["cases"], news["cases"]);
  const what = [
    cases.length > 0 ? `its smoke-test case(s) ${cases.map((n) => JSON.stringify(n)).join(", ")} (new or changed)` : "",
    removedOnly ? "its smoke-test cases (some were removed)" : "",
    deepEqual(olds["canary"], news["canary"]) ? "" : "the canary's settings",
    deepEqual(olds["trigger"], news["trigger"]) ? "" : "the trigger",
  ].filter((part) => part !== "");
  const changed = what.length > 0 ? what.join(" and ") : "nothing but the engine's record";
  const fix =
    cases.length > 0
      ? `Check the changed case(s) (their input and expect) against what version ${version} answers, fix them and run \`pulumi up\` again.`
      : `Version ${version} passed this check before; look at what changed (${changed}) or at the service, then run \`pulumi up\` again.`;
  return {
    head:
      `rollout "${rollout}": version ${version} did not change, ${changed} did, and the check of version ${version} ` +
      `failed on a canary, ${untouched}.`,
    fix,
  };
}
