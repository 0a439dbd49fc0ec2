/**
 * A v2 operation: the same route-table entry as v1's (method, path, schemas, docs, handler), with
 * v2 validation (422 problems listing every field) instead of v1's first-field 400, and the
 * context every v2 handler is built with.
 */
import type { z } from "zod";
import type { Operation, OperationSpec } from "../../http/router";
import { issueMessage, safeParseCompiled } from "../../http/validation";
import type { ManagementContext } from "../context";
import { ProblemError } from "./problem";
import type { Scope } from "./scopes";

/** What every v2 handler needs: the shared management context (same store as /v1) and the URLs. */
export interface V2Context {
  ctx: ManagementContext;
  /** The job API base (…/v2), known once the server listens; endpoints' requestUrls are built on it. */
  serverlessUrl(): string;
}

/** A v2 route-table entry: every operation that needs a key names the scope it needs. */
export type V2OperationSpec<Q, B> = OperationSpec<Q, B> & ({ public: true } | { scope: Scope });

export interface V2OperationOptions {
  /**
   * Status of a query that does not fit its schema: 400 (default, as the catalog and billing
   * queries are answered) or 422, the paginated lists' (a bad `limit` or `cursor` is a 422 there,
   * management-api-v2-today.md 1.1, and their documented errors include no 400).
   */
  queryProblemStatus?: 400 | 422;
}

export function defineV2Operation<Q = undefined, B = undefined>(spec: V2OperationSpec<Q, B>, options: V2OperationOptions = {}): Operation {
  const { query, body, unknownFieldHints: _hints, handle, ...doc } = spec;
  return {
    ...doc,
    public: spec.public ?? false,
    querySchema: query,
    bodySchema: body,
    run(raw) {
      const parsedQuery = query ? parseV2(query, raw.query, "query parameter", options.queryProblemStatus ?? 400) : (undefined as Q);
      const parsedBody = body ? parseV2(body, raw.body, "request body", 422) : (undefined as B);
      return handle({ accountId: raw.accountId, params: raw.params, query: parsedQuery, body: parsedBody });
    },
  };
}

/**
 * zod at the v2 edge: a body or query that does not fit its schema is a problem listing every
 * field at fault (not only the first), each naming the field, what was expected and the value sent.
 * A body is answered 422, as the service does; a query with `status` (see V2OperationOptions).
 */
function parseV2<T>(schema: z.ZodType<T>, raw: unknown, where: "request body" | "query parameter", status: 400 | 422): T {
  const result = safeParseCompiled(schema, raw);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const prefix = issue.path.length > 0 ? `${issue.path.join(".")}.` : "";
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${prefix}${k}"`).join(", ")} in ${where}`;
    }
    return issueMessage(issue, raw, where);
  });
  throw new ProblemError(status, errors.length === 1 ? (errors[0] ?? "") : `${errors.length} problems in the ${where}: ${errors.join("; ")}`, errors);
}
