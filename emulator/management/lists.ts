/**
 * Paginated lists as the service has them today (management-api-v2-today.md section 1): `limit`
 * (1..1000, default 1000) and an opaque `cursor` on the paginated lists, a required
 * `pagination: {nextCursor, hasNextPage}` block on their answers, newest first. A surface reads
 * `limit` and `cursor` and writes the block; the page and its cursor are made here.
 *
 * A cursor is the position of the last item of its page, (createdAt, id) for resources and
 * (version, id) for releases, and the next page continues strictly after it: an item deleted
 * between two pages neither shifts nor repeats the others, as an offset would. The cursor is
 * bound (by an HMAC) to the list (its operation), its path parameters, its other query parameters
 * and the account, so a cursor used anywhere else, or altered, is the reference's 422. The key is
 * made per emulator process: a cursor does not survive a restart of the emulator (the client
 * starts again from the first page, as it does on any 422 to a cursor). The emulator's
 * --page-size caps every page below `limit`. A resource a fault hides from lists for a while
 * (visibility.ts) is on no page until then.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { PAGE_LIMIT_MAX } from "../vocabulary/schemas/v2/requests";
import type { Pagination } from "../vocabulary/schemas/v2/pagination";
import type { ManagementContext } from "./context";
import { Refusal } from "./errors";

/** Where an item sits in a newest-first list: a larger `rank` comes first, then a larger `id`. */
export interface Position {
  rank: number;
  id: string;
}

export interface PageRequest {
  /** The list: its operation's id. */
  list: string;
  accountId: string;
  /** Everything else the cursor is bound to: path parameters and the other (known) query parameters. */
  bound: Readonly<Record<string, unknown>>;
  /** The list's `limit` and `cursor` query parameters. */
  query: { limit?: number | undefined; cursor?: string | undefined };
}

const KEY = randomBytes(32);

function mac(request: PageRequest, at: Position): string {
  const bound = Object.entries(request.bound)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac("sha256", KEY)
    .update(JSON.stringify([request.list, request.accountId, bound, at.rank, at.id]))
    .digest("base64url");
}

function encode(request: PageRequest, at: Position): string {
  return Buffer.from(JSON.stringify({ r: at.rank, i: at.id, s: mac(request, at) })).toString("base64url");
}

function invalidCursor(why: string): Refusal {
  const message = `invalid query parameter cursor: ${why}; pass the previous page's pagination.nextCursor unchanged, with the same other query parameters, or leave cursor out to start from the first page`;
  return new Refusal(422, message, [message]);
}

function decode(request: PageRequest, cursor: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor("not a cursor this service issued");
  }
  const fields = z.object({ r: z.number(), i: z.string(), s: z.string() }).safeParse(parsed);
  if (!fields.success) throw invalidCursor("not a cursor this service issued");
  const at = { rank: fields.data.r, id: fields.data.i };
  const want = Buffer.from(mac(request, at));
  const got = Buffer.from(fields.data.s);
  if (want.length !== got.length || !timingSafeEqual(want, got)) {
    throw invalidCursor(`it was issued for another list, other query parameters or another account than this ${request.list} call`);
  }
  return at;
}

/** Resources: newest first by creation time. */
export function byCreation(record: { createdAtMs: number; id: string }): Position {
  return { rank: record.createdAtMs, id: record.id };
}

function before(a: Position, b: Position): boolean {
  return a.rank !== b.rank ? a.rank > b.rank : a.id > b.id;
}

/** One page of `items`, newest first, with its pagination block. */
export function pageOf<T>(
  ctx: Pick<ManagementContext, "options" | "visibility">,
  items: Iterable<T>,
  positionOf: (item: T) => Position,
  request: PageRequest,
): { items: T[]; pagination: Pagination } {
  const { limit, cursor } = request.query;
  const after = cursor === undefined ? undefined : decode(request, cursor);
  const ordered = Array.from(items, (item) => ({ item, at: positionOf(item) }))
    .sort((a, b) => (before(a.at, b.at) ? -1 : before(b.at, a.at) ? 1 : 0))
    // A new resource a fault hides (`hidden=P@D`, visibility.ts) is left out until its time.
    .filter(({ at }) => (after === undefined || before(after, at)) && ctx.visibility.isListed(at.id));
  const size = Math.min(limit ?? PAGE_LIMIT_MAX, ctx.options.pageSize ?? PAGE_LIMIT_MAX);
  const page = ordered.slice(0, size);
  const hasNextPage = ordered.length > page.length;
  const lastOfPage = page.at(-1);
  return {
    items: page.map(({ item }) => item),
    pagination: { nextCursor: hasNextPage && lastOfPage ? encode(request, lastOfPage.at) : null, hasNextPage },
  };
}

/** The `limit` and `cursor` query parameters of a paginated list. */
export type PageQuery = { limit?: number | undefined; cursor?: string | undefined };

/** A paginated list's call: its id, the request (account, path and query parameters), its items and their positions. */
export type ListPageArgs<T, Q extends PageQuery> = [
  list: string,
  call: { accountId: string; params: Readonly<Record<string, string>>; query: Q },
  items: Iterable<T>,
  positionOf: (item: T) => Position,
];

/**
 * The page a paginated list answers, read from its call: `limit` and `cursor`, the cursor bound to
 * the list, the account, the path parameters and the other query parameters; newest first by
 * `positionOf` (`byCreation` for resources).
 */
export function pageOfCall<T, Q extends PageQuery>(
  ctx: Pick<ManagementContext, "options" | "visibility">,
  ...[list, call, items, positionOf]: ListPageArgs<T, Q>
) {
  const { limit, cursor, ...others } = call.query;
  return pageOf(ctx, items, positionOf, {
    list,
    accountId: call.accountId,
    bound: { ...call.params, ...others },
    query: { limit, cursor },
  });
}
