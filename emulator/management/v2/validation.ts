/**
 * zod at the v2 edge: a body or query that does not fit its schema is a 422 problem listing every
 * field at fault (not only the first), each naming the field, what was expected and the value sent.
 */
import type { z } from "zod";
import { issueMessage } from "../../http/validation";
import { ProblemError } from "./problem";

export function parseV2<T>(schema: z.ZodType<T>, raw: unknown, where: "request body" | "query parameter"): T {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const prefix = issue.path.length > 0 ? `${issue.path.join(".")}.` : "";
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${prefix}${k}"`).join(", ")} in ${where}`;
    }
    return issueMessage(issue, raw, where);
  });
  const status = where === "query parameter" ? 400 : 422;
  throw new ProblemError(status, errors.length === 1 ? (errors[0] ?? "") : `${errors.length} problems in the ${where}: ${errors.join("; ")}`, errors);
}
