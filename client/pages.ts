// Reads a paginated v2 list whole: the one place that walks pages. The service's lists answer
// `{"<key>": [...], "pagination": {"nextCursor", "hasNextPage"}}` and a caller that read only the
// first page would miss resources (a lost create would be made again, a lookup would say "not
// found"). The rules are those of management-api-v2-today.md 1.4:
//   - send limit=1000 (the largest page) and follow nextCursor until hasNextPage is false;
//   - stop as well when the block is absent or nextCursor is null or empty (older hosts and the
//     unpaginated lists send no block, so one call reads those whole);
//   - keep every other query parameter identical across pages (a cursor is bound to them);
//   - a 422 to a cursor request means the cursor is no longer good: start again from the first
//     page, once; a second 422 is a PaginationError (never the same cursor retried as is);
//   - a cursor that comes back a second time would loop forever: a PaginationError.
// Page counts never tell where the list ends: a pods page may hold fewer items than asked.

import { z } from "zod";
import { ApiError } from "./errors";
import { PaginationError } from "./paginationError";
import type { QueryValue, Transport } from "./transport";

/** The largest page the service gives (PaginationLimit); asked for so an account of up to 1000 items is one call. */
export const PAGE_LIMIT = 1000;

export { PaginationError } from "./paginationError";

/** The pagination block, read leniently: absent, null or partial reads as "no further page". */
const PaginationSchema = z
  .looseObject({
    nextCursor: z.string().nullish(),
    hasNextPage: z.boolean().nullish(),
  })
  .nullish();

export interface ListSpec<T> {
  /** Path below the base URL, e.g. "/pods". */
  path: string;
  /** The reference's operation id, e.g. "listPods". */
  operation: string;
  /** The answer's array key, e.g. "pods". */
  key: string;
  item: z.ZodType<T>;
  /**
   * Whether the reference pages this list (pods, serverless, templates): only then is `limit` sent.
   * A block on another list is still followed, since the service may page more lists later (a client
   * must accept both shapes), but a parameter the reference does not define for it is not sent.
   */
  paged: boolean;
  /** Other query parameters, sent unchanged with every page. */
  query?: Readonly<Record<string, QueryValue>> | undefined;
  /**
   * Called with the whole answer of each first page (again after a restart from page one), for a
   * list whose answer carries more than its items (the release history's rollout summary).
   */
  firstPage?: ((body: Readonly<Record<string, unknown>>) => void) | undefined;
}

/** Every item of a (possibly) paginated list, following its cursors; one call when it fits one page. */
export async function readAllPages<T>(transport: Transport, spec: ListSpec<T>): Promise<T[]> {
  const schema = z.looseObject({ [spec.key]: z.array(spec.item).nullish(), pagination: PaginationSchema });
  const pageOf = async (cursor: string | undefined) => {
    const query = { ...spec.query, ...(spec.paged ? { limit: PAGE_LIMIT } : {}), ...(cursor === undefined ? {} : { cursor }) };
    const body = await transport.request({ method: "GET", path: spec.path, operation: spec.operation, query, schema });
    if (cursor === undefined) spec.firstPage?.(body);
    return { items: (body[spec.key] ?? []) as T[], pagination: body.pagination as z.output<typeof PaginationSchema> };
  };
  for (let attempt = 1; ; attempt++) {
    const items: T[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    try {
      for (;;) {
        const page = await pageOf(cursor);
        items.push(...page.items);
        const next = page.pagination?.nextCursor;
        if (page.pagination?.hasNextPage !== true || next === undefined || next === null || next === "") return withoutRepeats(items);
        if (cursors.has(next)) {
          throw new PaginationError(
            spec.operation,
            `the service returned the cursor ${JSON.stringify(shorten(next))} a second time after ${cursors.size + 1} pages, so the list would never end; ` +
              "nothing was changed; retry later, and report it to the service if it persists",
          );
        }
        cursors.add(next);
        cursor = next;
      }
    } catch (error) {
      const staleCursor = cursor !== undefined && error instanceof ApiError && error.status === 422;
      if (!staleCursor) throw error;
      if (attempt >= 2) {
        throw new PaginationError(
          spec.operation,
          "the service refused a cursor it had just issued (422) twice, after reading the list again from the first page; " +
            "the list changes faster than it can be read or the service's cursors are broken; nothing was changed; retry later",
          { cause: error },
        );
      }
      // The cursor went stale (the service restarted, the list was rebuilt): read it again from page one.
    }
  }
}

/** An item listed twice (a list that shifted under an offset-based cursor) is kept once, where first seen. */
function withoutRepeats<T>(items: readonly T[]): T[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const id = typeof item === "object" && item !== null ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== "string") return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

function shorten(cursor: string): string {
  return cursor.length > 40 ? `${cursor.slice(0, 37)}...` : cursor;
}
