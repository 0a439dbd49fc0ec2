/**
 * A v2 operation: the same route-table entry as v1's (method, path, schemas, docs, handler), with
 * v2 validation (422 problems listing every field) instead of v1's first-field 400, and the
 * context every v2 handler is built with. `v2Route` declares one entry of the route table.
 */
import type { z } from "zod";
import type { Call, Method, Operation, Reply } from "../../http/router";
import { issueMessage, safeParseCompiled } from "../../http/validation";
import type { ManagementContext } from "../context";
import { Refusal } from "../errors";
import type { Scope } from "./scopes";

/** What every v2 handler needs: the shared management context (same store as /v1) and the URLs. */
export interface V2Context {
  ctx: ManagementContext;
  /** The job API base (…/v2), known once the server listens; endpoints' requestUrls are built on it. */
  serverlessUrl(): string;
}

/** How the route table describes one operation besides its method, path, id, scope and summary. */
export interface V2RouteSpec<Q, B> {
  query?: z.ZodType<Q>;
  /**
   * A paginated list: a query that does not fit its schema is a 422 (a bad `limit` or `cursor` is
   * a 422 there, management-api-v2-today.md 1.1, and their documented errors include no 400);
   * other queries (catalog, billing) are answered 400.
   */
  paged?: boolean;
  /** The request body: its schema and its name in the reference (components.schemas). */
  body?: readonly [name: string, schema: z.ZodType<B>];
  /** The success answer: its status, the schema of its body (none: no body), its description when not the status's usual one. */
  answer: readonly [status: 200 | 201 | 204, schemaName?: string | undefined, description?: string];
  errors: readonly number[];
}

const ANSWERS: Readonly<Record<200 | 201 | 204, string>> = { 200: "OK", 201: "Created", 204: "Deleted. Response has no body." };

/**
 * One route-table entry: `"GET /pods/{id}"`, its operationId, the API-key scope it needs
 * ("public" for none), its summary; its tag is the path's first segment.
 */
export function v2Route<Q = undefined, B = undefined>(
  route: `${Method} /${string}`,
  operationId: string,
  scope: Scope | "public",
  summary: string,
  spec: V2RouteSpec<Q, B>,
  handle: (call: Call<Q, B>) => Reply,
): Operation {
  const [method, path] = route.split(" ") as [Method, string];
  const [status, schemaName, description] = spec.answer;
  const { query, body } = spec;
  const bodySchema = body?.[1];
  return {
    method,
    path,
    operationId,
    tag: path === "/openapi.json" ? "meta" : (path.split("/")[1] ?? ""),
    ...(scope === "public" ? {} : { scope }),
    summary,
    ...(body ? { bodyName: body[0] } : {}),
    response: { status, description: description ?? ANSWERS[status], ...(schemaName === undefined ? {} : { schemaName }) },
    errors: spec.errors,
    public: scope === "public",
    querySchema: query,
    bodySchema,
    run(raw) {
      const parsedQuery = query ? parseV2(query, raw.query, "query parameter", spec.paged ? 422 : 400) : (undefined as Q);
      const parsedBody = bodySchema ? parseV2(bodySchema, raw.body, "request body", 422) : (undefined as B);
      return handle({ accountId: raw.accountId, params: raw.params, query: parsedQuery, body: parsedBody });
    },
  };
}

/**
 * zod at the v2 edge: a body or query that does not fit its schema is a problem listing every
 * field at fault (not only the first), each naming the field, what was expected and the value sent.
 * A body is answered 422, as the service does; a query with `status` (see V2RouteSpec.paged).
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
  throw new Refusal(status, errors.length === 1 ? (errors[0] ?? "") : `${errors.length} problems in the ${where}: ${errors.join("; ")}`, errors);
}
