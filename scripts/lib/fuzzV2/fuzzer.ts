/**
 * The stateful part: which request comes next, and what the answers teach. Requests are drawn from
 * the described operations, seeded; a create's answer gives an id that later reads, changes,
 * actions and deletes name in their paths (and that bodies name in their id fields), a list's
 * answer gives the ids it lists, a delete retires its id (later requests naming it expect a 404).
 * Lists without path parameters are read first, so the catalog's ids are known from the start.
 */
import type { FuzzOperation, OpenApiDoc } from "./description";
import { IdPools, type Rng, Values } from "./values";

export type RequestKind = "valid" | "bad-body" | "malformed-json" | "bad-query" | "unknown-id" | "gone-id";

export interface FuzzRequest {
  op: FuzzOperation;
  kind: RequestKind;
  method: string;
  /** After the base URL, with the query. */
  path: string;
  /** The path alone, ids filled in: where a list's ids are kept. */
  concretePath: string;
  /** The member's collection, ids filled in (`/pods` for `/pods/abc/action`), and the member's id. */
  member?: { collection: string; id: string } | undefined;
  /** Every path id came from an earlier answer. */
  linked: boolean;
  body?: string | undefined;
}

const UNKNOWN_IDS: readonly string[] = ["does-not-exist", "0", "x".repeat(300), "🚀", "__proto__", "a b", "%", "..", "null"];
const BAD_QUERY_VALUES: readonly string[] = ["", "maybe", "-1", "1e309", "%ZZ", "x".repeat(2_000), "🚀", "[]"];
const MALFORMED_JSON: readonly string[] = ["{", '{"name":}', "[1,", "nul", '{"a":1}{"b":2}', '"text"', "42", "null", "[]"];

/** Relative weights of the operations' roles: creates and reads often, deletes rarely, so resources live long enough to be used. */
const WEIGHT: Readonly<Record<FuzzOperation["role"], number>> = { create: 4, read: 4, change: 3, delete: 1 };

export class StatefulFuzzer {
  readonly ids = new IdPools();
  private readonly values: Values;
  /** Lists without path parameters, read first and in order. */
  private readonly warmUp: FuzzOperation[];
  private readonly cumulative: number[];
  /**
   * A body each operation accepted: sent again now and then. Rules the description cannot state
   * (one of two optional fields, a GPU type that fits the pool) make a first success rare; once
   * one is found, later requests build on it, as a user of the API would.
   */
  private readonly examples = new Map<string, string>();

  constructor(
    doc: OpenApiDoc,
    readonly operations: readonly FuzzOperation[],
    private readonly rng: Rng,
  ) {
    this.values = new Values(rng, doc, this.ids);
    this.warmUp = operations.filter((op) => op.role === "read" && op.pathParams.length === 0);
    let total = 0;
    this.cumulative = operations.map((op) => (total += WEIGHT[op.role]));
  }

  private pickOperation(): FuzzOperation {
    const warm = this.warmUp.shift();
    if (warm) return warm;
    const total = this.cumulative[this.cumulative.length - 1] ?? 0;
    const r = this.rng.next() * total;
    const at = this.cumulative.findIndex((c) => r < c);
    return this.operations[Math.max(at, 0)] as FuzzOperation;
  }

  next(): FuzzRequest {
    const op = this.pickOperation();
    const rng = this.rng;
    let kind: RequestKind = "valid";
    let linked = true;
    let path = op.path;
    let member: FuzzRequest["member"];
    for (const param of op.pathParams) {
      // The collection as it is now: earlier parameters already filled in.
      const collection = path.slice(0, path.indexOf(`{${param.name}}`) - 1);
      const known = this.ids.of(collection);
      let id: string;
      if (known.length > 0 && rng.chance(0.85)) id = rng.pick(known);
      else if (this.ids.gone.length > 0 && rng.chance(0.3)) {
        id = rng.pick(this.ids.gone);
        kind = "gone-id";
        linked = false;
      } else {
        id = rng.pick(UNKNOWN_IDS);
        kind = "unknown-id";
        linked = false;
      }
      path = path.replace(`{${param.name}}`, encodeURIComponent(id));
      member = { collection, id };
    }
    const concretePath = path;

    const query: string[] = [];
    for (const q of op.query) {
      const r = rng.next();
      if (r < 0.4) {
        const v = this.values.valid(q.schema, q.name);
        // Arrays as the description writes them (explode: false): one comma-separated value.
        query.push(`${encodeURIComponent(q.name)}=${encodeURIComponent(Array.isArray(v) ? v.join(",") : String(v))}`);
      } else if (r < 0.48) {
        query.push(`${encodeURIComponent(q.name)}=${encodeURIComponent(rng.pick(BAD_QUERY_VALUES))}`);
        if (kind === "valid") kind = "bad-query";
      }
    }
    if (query.length > 0) path += `?${query.join("&")}`;

    let body: string | undefined;
    if (op.body) {
      const r = rng.next();
      const example = this.examples.get(op.id);
      if (r < 0.3 && example !== undefined) body = example;
      else if (r < 0.6) body = JSON.stringify(this.values.valid(op.body));
      else if (r < 0.92) {
        body = JSON.stringify(this.values.mutated(op.body));
        if (kind === "valid") kind = "bad-body";
      } else {
        body = rng.pick(MALFORMED_JSON);
        if (kind === "valid") kind = "malformed-json";
      }
    }
    return { op, kind, method: op.method, path, concretePath, member, linked: linked && op.pathParams.length > 0, body };
  }

  /** What a 2xx answer teaches: a created id, a list's ids, a deleted id. */
  learn(request: FuzzRequest, status: number, body: unknown): void {
    if (status < 200 || status >= 300) return;
    const { op } = request;
    if (request.kind === "valid" && request.body !== undefined) this.examples.set(op.id, request.body);
    // What the API says of its resources, not what its description says of itself.
    if (!op.public) this.ids.observe(body);
    if (op.role === "delete" && request.member) {
      this.ids.remove(request.member.collection, request.member.id);
      return;
    }
    const id = idOf(body);
    if (op.role === "create" && id !== undefined) {
      this.ids.add(request.concretePath, id);
      return;
    }
    if (op.role !== "read") return;
    if (op.pathParams.length > 0 && /\}$/.test(op.path)) {
      // One member: it is still there.
      if (request.member && id !== undefined) this.ids.add(request.member.collection, id);
      return;
    }
    for (const listed of listedIds(body)) this.ids.add(request.concretePath, listed);
  }
}

function idOf(body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** The ids of a list's answer: its items, bare (`[...]`) or under one key (`{pods: [...], pagination}`). */
function listedIds(body: unknown): string[] {
  const arrays: unknown[][] = Array.isArray(body)
    ? [body]
    : typeof body === "object" && body !== null
      ? Object.values(body).filter((v): v is unknown[] => Array.isArray(v))
      : [];
  const out: string[] = [];
  for (const items of arrays) for (const item of items.slice(0, 40)) if (idOf(item) !== undefined) out.push(idOf(item) as string);
  return out;
}
