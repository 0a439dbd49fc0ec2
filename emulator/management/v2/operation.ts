/**
 * A v2 operation: a route-table entry of the HTTP kit (http/router.ts) declared in v2's terms, with
 * v2's validation (every field at fault, a body 422) and the context every v2 handler is built with.
 * An entry is three rows: its head (method and path, operationId, scope, summary), its spec
 * (schemas, answer, errors) and its handler, which gets the account it acts for.
 */
import type { z } from "zod";
import type { BodyLimit } from "../../http/body";
import { type Call, defineOperation, type Method, type Operation, type Reply } from "../../http/router";
import { parseListingEvery } from "../../http/validation";
import type { AccountData } from "../../state/model";
import type { Scope } from "../account/scopes";
import type { ManagementContext } from "../context";
import { type ListPageArgs, type PageQuery, pageOfCall } from "../lists";

/** An entry's head: `"GET /pods/{id}"`, its operationId, the API-key scope it needs ("public" for none), its summary. */
export type V2Head = readonly [route: `${Method} /${string}`, operationId: string, scope: Scope | "public", summary: string];

/** What a v2 handler gets: the kit's call, the account it acts for and the path's `{id}` ("" when it has none). */
export interface V2Call<Q, B> extends Call<Q, B> {
  readonly account: AccountData;
  readonly id: string;
}

/** What every v2 handler is built with: the shared management context (same store as /v1), the URLs, and `route`. */
export interface V2Context {
  ctx: ManagementContext;
  /** The job API base (…/v2), known once the server listens; endpoints' requestUrls are built on it. */
  serverlessUrl(): string;
  /** One route-table entry (v2Route) whose handler gets the account it acts for. */
  route<Q = undefined, B = undefined>(head: V2Head, spec: V2RouteSpec<Q, B>, handle: (call: V2Call<Q, B>) => Reply): Operation;
}

export function v2Context(ctx: ManagementContext, serverlessUrl: () => string): V2Context {
  return {
    ctx,
    serverlessUrl,
    route: (head, spec, handle) =>
      v2Route(head, spec, (call) =>
        handle({
          ...call,
          id: call.params.id ?? "",
          // Made on first use, as the store makes accounts: an answer that reads none makes none.
          get account() {
            return ctx.store.account(call.accountId);
          },
        }),
      ),
  };
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
  /** The body's own limit, measured before auth (http/router.ts OperationSpec.bodyLimit); default: the surface's, after auth. */
  bodyLimit?: BodyLimit;
  /** The success answer: its status, the schema of its body (none: no body), its description when not the status's usual one. */
  answer: readonly [status: 200 | 201 | 204, schemaName?: string | undefined, description?: string];
  /** What an empty 204 means, when the operation answers one besides `answer`. */
  noContent?: string;
  /** What the handler refuses with; the statuses of reading the query (400, a paged list's 422) and the body (422) are added. */
  errors: readonly number[];
}

const ANSWERS: Readonly<Record<200 | 201 | 204, string>> = { 200: "OK", 201: "Created", 204: "Deleted. Response has no body." };

/**
 * One route-table entry; its tag is the path's first segment. A body or query that does not fit
 * its schema is answered with every field at fault: a body 422, as the service does; a query 400,
 * or 422 on a paginated list (V2RouteSpec.paged).
 */
export function v2Route<Q = undefined, B = undefined>(
  [route, operationId, scope, summary]: V2Head,
  spec: V2RouteSpec<Q, B>,
  handle: (call: Call<Q, B>) => Reply,
): Operation {
  const [method, path] = route.split(" ") as [Method, string];
  const [status, schemaName, description] = spec.answer;
  return defineOperation<Q, B>({
    method,
    path,
    operationId,
    tag: path === "/openapi.json" ? "meta" : (path.split("/")[1] ?? ""),
    ...(scope === "public" ? { public: true } : { scope }),
    summary,
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.body ? { bodyName: spec.body[0], body: spec.body[1] } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    response: { status, description: description ?? ANSWERS[status], ...(schemaName === undefined ? {} : { schemaName }) },
    ...(spec.noContent === undefined ? {} : { noContent: spec.noContent }),
    errors: [...new Set([...spec.errors, ...(spec.query ? [spec.paged ? 422 : 400] : []), ...(spec.body ? [422] : [])])],
    validate: (schema, raw, where) => parseListingEvery(schema, raw, where, where === "request body" || spec.paged ? 422 : 400),
    handle,
  });
}

/** The page a paginated list answers (management/lists.ts `pageOfCall`). */
export function listPage<T, Q extends PageQuery>(v: V2Context, ...args: ListPageArgs<T, Q>) {
  return pageOfCall(v.ctx, ...args);
}
