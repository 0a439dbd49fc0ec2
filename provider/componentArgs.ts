/**
 * check() for the provider kinds behind the package's components (JobRunner's smoke test, the
 * rollout's candidate and switch): their arguments are one zod object. During preview some values
 * may be unknown (an id not created yet, a value inside a case): everything is validated, and only
 * the complaints that sit on, or inside, an unknown value are dropped. Arguments the component does
 * not take are named with the nearest one, so a typo is caught at preview.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import { closest, failure } from "../model/fields/validation";
import { containsUnknown, isUnknown, type Props } from "../model/fields/values";
import { OWNER_INPUT } from "../model/kinds";

/** The serialized provider rides along in every property bag; it is no argument. */
const PROVIDER_KEY = "__provider";

/** The arguments without the provider's own inputs (the serialized provider, the owner). */
export function argsOf(props: Props): Props {
  const { [PROVIDER_KEY]: _provider, [OWNER_INPUT]: _owner, ...rest } = props;
  return rest;
}

/**
 * The outputs to record: the inputs as given (the next diff compares them with the next inputs, so
 * never a parsed form that could differ) and the results, with the provider carried over.
 */
export function outputsOf(inputs: Props, results: object): Props {
  return { ...inputs, ...results, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
}

export function checkComponentArgs(schema: z.ZodObject, component: string, news: Props): CheckFailure[] {
  const args = argsOf(news);
  const known = Object.keys(schema.shape);
  const typos = Object.keys(args)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const near = closest(key, known);
      return failure(
        [key],
        `is not a ${component} argument${near ? `; did you mean ${near}?` : `; the arguments are ${known.join(", ")}`}`,
      );
    });
  const parsed = schema.safeParse(args, { reportInput: true });
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => !liesOnUnknown(args, issue.path));
  return [...typos, ...issues.map((issue) => failure(issue.path, issue.message))];
}

/** True when the value at `path` contains an unknown, or any value on the way to it is unknown. */
function liesOnUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = root;
  for (const step of path) {
    if (isUnknown(current)) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<PropertyKey, unknown>)[step];
  }
  return containsUnknown(current);
}
