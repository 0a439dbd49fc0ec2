/**
 * Which route-table entry a request path names. Static segments are matched before parameterised
 * ones, whatever order the table declares its entries in: `/registries/delegations` is the
 * delegations route, never the registry credential `{id}` = "delegations". The rule is the
 * common one of HTTP routers (a literal segment is more specific than a parameter), applied
 * segment by segment from the left, so that adding a route can never shadow or be shadowed by
 * one declared before it.
 *
 * A path belongs to its most specific pattern alone: a method that pattern does not serve is a
 * 405 listing the methods it does, and the request never falls through to a less specific
 * pattern that happens to match the same path (`DELETE /registries/delegations` is not "delete
 * the credential `delegations`").
 */
import { badRequest } from "./errors";

/** A route as the table holds it: its method, path pattern and whatever the router attaches. */
export interface TableRoute<T> {
  method: string;
  /** Path with `{name}` parameters: "/pods/{id}". */
  path: string;
  value: T;
}

interface Compiled<T> {
  route: TableRoute<T>;
  segments: readonly string[];
  /** The pattern with parameter names erased (`/pods/{}`): routes with the same shape serve one path. */
  shape: string;
}

export type RouteMatch<T> =
  | { found: TableRoute<T>; params: Record<string, string> }
  /** The path exists but not for this method: the methods it serves. */
  | { allowed: string[] }
  | undefined;

const isParameter = (segment: string): boolean => segment.startsWith("{");

/**
 * Negative when `a` is more specific than `b`: at the first position where one has a literal and
 * the other a parameter, the literal wins. Equal (0) otherwise, so a stable sort keeps the
 * table's order among routes of one shape.
 */
export function compareSpecificity(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const aParam = isParameter(a[i] as string);
    const bParam = isParameter(b[i] as string);
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

export class RouteTable<T> {
  /** Routes by segment count, most specific first: a request only compares against paths of its own length. */
  private readonly byLength = new Map<number, Array<Compiled<T>>>();

  constructor(routes: Iterable<TableRoute<T>>) {
    for (const route of routes) {
      const segments = route.path.split("/").filter((s) => s !== "");
      const shape = `/${segments.map((s) => (isParameter(s) ? "{}" : s)).join("/")}`;
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ route, segments, shape });
      this.byLength.set(segments.length, list);
    }
    for (const list of this.byLength.values()) list.sort((a, b) => compareSpecificity(a.segments, b.segments));
  }

  /** The route `method` and `path` name (its parameters decoded), the methods the path allows, or undefined: no such path. */
  match(method: string, path: string): RouteMatch<T> {
    const parts = path.split("/").filter((s) => s !== "");
    const candidates = this.byLength.get(parts.length) ?? [];
    const first = candidates.find((c) => fits(c.segments, parts));
    if (!first) return undefined;
    // Only routes of the most specific matching shape serve this path.
    const served = candidates.filter((c) => c.shape === first.shape);
    const chosen = served.find((c) => c.route.method === method);
    if (!chosen) return { allowed: served.map((c) => c.route.method) };
    return { found: chosen.route, params: paramsOf(chosen.segments, parts) };
  }
}

function fits(pattern: readonly string[], parts: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    if (!isParameter(want) && want !== parts[i]) return false;
  }
  return true;
}

function paramsOf(pattern: readonly string[], parts: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string;
    if (isParameter(want)) params[want.slice(1, -1)] = decodeSegment(parts[i] as string);
  }
  return params;
}

function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
  }
}
