/**
 * Seeded values for the stateful fuzzer: a small PRNG, the ids and names it has seen (by the
 * collection that answered them), and values made from a JSON schema, either ones the schema
 * accepts (an id field gets an id of the collection its name points at) or ones it should refuse.
 */
import { type JsonSchema, type OpenApiDoc, resolveSchema } from "./description";

/** mulberry32: small, fast and the same on every platform, so a seed replays a run. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/** `networkVolumes`, `network-volumes`, `registries` -> `networkvolume`, `networkvolume`, `registry`: how names and path segments are matched. */
function stem(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z0-9]/g, "");
  return w.endsWith("ies") ? `${w.slice(0, -3)}y` : w.endsWith("s") ? w.slice(0, -1) : w;
}

/** Ids seen in answers, by the concrete collection path that holds them (`/pods`, `/serverless/abc/workers`). */
export class IdPools {
  private readonly pools = new Map<string, string[]>();
  /** Ids the fuzzer deleted: a later request naming one must get a documented answer (404). */
  readonly gone: string[] = [];

  add(collection: string, id: string): void {
    const pool = this.pools.get(collection) ?? [];
    if (pool.includes(id)) return;
    pool.push(id);
    // Bounded: a long run keeps the newest, so its own creates stay reachable.
    if (pool.length > 40) pool.shift();
    this.pools.set(collection, pool);
  }

  remove(collection: string, id: string): void {
    const pool = this.pools.get(collection);
    const at = pool?.indexOf(id) ?? -1;
    if (pool && at >= 0) pool.splice(at, 1);
    this.gone.push(id);
    if (this.gone.length > 40) this.gone.shift();
  }

  of(collection: string): readonly string[] {
    return this.pools.get(collection) ?? [];
  }

  /** The ids of the collection whose last segment a field's name points at (`templateId` -> `/templates`, `gpu.id` -> `/catalog/gpus`). */
  forField(name: string): readonly string[] {
    // The whole name first, then without its last words (`gpuType` -> `gpu`).
    const words = name.split(/(?=[A-Z])/);
    for (let n = words.length; n > 0; n--) {
      const wanted = stem(words.slice(0, n).join(""));
      if (wanted === "") continue;
      for (const [collection, ids] of this.pools) {
        const last = stem(collection.split("/").pop() ?? "");
        if (ids.length > 0 && (last === wanted || last.endsWith(wanted))) return ids;
      }
    }
    return [];
  }

  /** Strings seen under a key in answers (`pool`, `dataCenter`, `image`): what a field of that name may take. */
  private readonly byKey = new Map<string, string[]>();

  /** Keeps the short strings of an answer, by the stem of their key, a few levels deep. */
  observe(value: unknown, key = "", depth = 0): void {
    if (depth > 6) return;
    if (typeof value === "string") {
      if (key === "" || value.length === 0 || value.length > 80) return;
      const seen = this.byKey.get(stem(key)) ?? [];
      if (seen.length < 24 && !seen.includes(value)) seen.push(value);
      this.byKey.set(stem(key), seen);
    } else if (Array.isArray(value)) {
      for (const item of value.slice(0, 40)) this.observe(item, key, depth + 1);
    } else if (typeof value === "object" && value !== null) {
      // Ids are kept by collection (add), not by key: every answer has an `id`.
      for (const [k, v] of Object.entries(value)) if (k !== "id") this.observe(v, k, depth + 1);
    }
  }

  /** Strings seen under a key of the same stem (`pools` takes the `pool`s seen). */
  seenFor(key: string): readonly string[] {
    return this.byKey.get(stem(key)) ?? [];
  }
}

/** The stem of the collection an id-bearing field names: `templateId` -> `template`, `dataCenterIds` -> `dataCenter`, `id` in `gpu` -> `gpu`, `dataCenter` -> `dataCenter`. */
function idFieldStem(key: string, parent: string): string | undefined {
  if (key === "id" || key === "ids") return parent === "" ? undefined : parent;
  const match = /^(.+?)Ids?$/.exec(key);
  if (match?.[1]) return match[1];
  return /dataCenter|region/i.test(key) ? key : undefined;
}

/** Strings tried against a `pattern`, for the fields that have one. */
const PATTERN_CANDIDATES: readonly string[] = [
  "8888/http",
  "22/tcp",
  "12.4",
  "US",
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFuzzKeyOnlyForTests fuzz@host",
  "2026-01-01T00:00:00Z",
  "abc",
  "/workspace",
  "example/app:1",
];

const ODD_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "null",
  "-1",
  "1e309",
  "NaN",
  "🚀 GPU",
  "\u202egnp.exe",
  "' OR 1=1 --",
  "../../etc/passwd",
  "%00%ff%",
  "__proto__",
  "constructor",
  "x".repeat(5_000),
];

/** Integers a schema with no maximum still accepts, and whose size a handler might loop over. */
const LARGE_INTEGERS: readonly number[] = [1_000_000, 2 ** 31, 1e15, Number.MAX_SAFE_INTEGER];

export class Values {
  constructor(
    private readonly rng: Rng,
    private readonly doc: OpenApiDoc,
    private readonly ids: IdPools,
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    return resolveSchema(this.doc, schema);
  }

  /** A value the schema accepts, as far as this generator reads it; `key` and `parent` name the field, for ids. */
  valid(schema: JsonSchema, key = "", parent = "", depth = 0): unknown {
    const s = this.resolve(schema);
    const idStem = idFieldStem(key, parent);
    if (idStem !== undefined && (s.type === "string" || s.type === "array")) {
      const known = this.ids.forField(idStem);
      if (known.length > 0 && this.rng.chance(0.85)) return s.type === "array" ? [this.rng.pick(known)] : this.rng.pick(known);
    }
    if (s.enum && s.enum.length > 0) return this.rng.pick(s.enum);
    const seen = idStem === undefined && (s.type === "string" || s.type === "array") ? this.fitting(this.ids.seenFor(key), s) : [];
    if (seen.length > 0 && this.rng.chance(0.85)) return s.type === "array" ? [this.rng.pick(seen)] : this.rng.pick(seen);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives && alternatives.length > 0) return this.valid(this.rng.pick(alternatives), key, parent, depth + 1);
    switch (s.type) {
      case "integer":
      case "number":
        return this.number(s);
      case "boolean":
        return this.rng.chance(0.5);
      case "string":
        return this.string(s);
      case "array": {
        if (depth > 5) return [];
        const lo = s.minItems ?? 0;
        const n = this.rng.int(lo, Math.max(lo, Math.min(s.maxItems ?? 3, 3)));
        return Array.from({ length: n }, () => this.valid(s.items ?? {}, key, parent, depth + 1));
      }
      default:
        return depth > 5 ? {} : this.object(s, key, depth);
    }
  }

  /** The seen strings a string schema (or an array's items) accepts: its pattern, its lengths. */
  private fitting(seen: readonly string[], schema: JsonSchema): readonly string[] {
    const s = schema.type === "array" ? this.resolve(schema.items ?? {}) : schema;
    const re = s.pattern === undefined ? undefined : new RegExp(s.pattern);
    return seen.filter((v) => (re === undefined || re.test(v)) && v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
  }

  private number(s: JsonSchema): number {
    const lo = s.minimum ?? 0;
    if (s.maximum === undefined && this.rng.chance(0.1)) return this.rng.pick(LARGE_INTEGERS.filter((n) => n >= lo));
    const hi = Math.min(s.maximum ?? lo + 100, lo + 1_000);
    // Mostly small values and powers of two: counts and sizes the service can actually provide.
    const small = [lo, 1, 2, 4, 8, 16, 32].filter((n) => n >= lo && n <= hi);
    if (small.length > 0 && this.rng.chance(0.6)) return this.rng.pick(small);
    return s.type === "integer" ? this.rng.int(Math.ceil(lo), Math.floor(hi)) : lo + this.rng.next() * (hi - lo);
  }

  private string(s: JsonSchema): string {
    if (s.format === "date-time") {
      // Now and then a date centuries away: windows are parameters, not data.
      const year = this.rng.chance(0.2) ? this.rng.int(0, 9999) : this.rng.int(2025, 2027);
      const date = new Date(0);
      date.setUTCFullYear(year, this.rng.int(0, 11), this.rng.int(1, 28));
      return date.toISOString().replace(/\.\d{3}Z$/, "Z");
    }
    if (s.pattern !== undefined) {
      const re = new RegExp(s.pattern);
      const fits = PATTERN_CANDIDATES.filter((c) => re.test(c));
      if (fits.length > 0) return this.rng.pick(fits);
    }
    const min = s.minLength ?? 1;
    const length = this.rng.int(Math.max(min, 1), Math.max(min, Math.min(s.maxLength ?? 16, 16)));
    let out = "fz";
    while (out.length < length) out += "abcdefghijklmnopqrstuvwxyz0123456789"[this.rng.int(0, 35)];
    return out.slice(0, Math.max(length, 1));
  }

  private object(s: JsonSchema, key: string, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(s.required ?? []);
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (required.has(name) || this.rng.chance(0.3)) out[name] = this.valid(prop, name, key, depth + 1);
    }
    if (!s.properties && typeof s.additionalProperties === "object") {
      for (let i = this.rng.int(0, 2); i > 0; i--) out[`FUZZ_${i}`] = this.valid(s.additionalProperties, "", key, depth + 1);
    }
    return out;
  }

  /** A value the schema should refuse (or an odd one it may accept). */
  invalid(schema: JsonSchema): unknown {
    const s = this.resolve(schema);
    switch (this.rng.int(0, 9)) {
      case 0:
        return null;
      case 1:
        return this.rng.pick(ODD_STRINGS);
      case 2:
        return this.rng.pick([-1, 0, 0.5, 1e308, -1e308, 2 ** 53 + 1]);
      case 3:
        return s.minimum !== undefined ? s.minimum - 1 : -this.rng.int(1, 1e9);
      case 4:
        return s.maximum !== undefined ? s.maximum + 1 : 1e15;
      case 5:
        return s.type === "array" ? {} : [];
      case 6:
        return s.type === "object" ? "not an object" : {};
      case 7:
        return s.enum ? `${String(this.rng.pick(s.enum)).toLowerCase()}!` : true;
      case 8:
        return s.type === "array" ? [this.invalid(s.items ?? {})] : String(this.valid(s));
      default:
        return JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    }
  }

  /** A valid object with one to three faults: a field of the wrong kind, a required one missing, a key it does not define, a null. */
  mutated(schema: JsonSchema): unknown {
    const s = this.resolve(schema);
    const value = this.valid(s);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return this.invalid(s);
    const obj = value as Record<string, unknown>;
    const props = Object.entries(s.properties ?? {});
    for (let n = this.rng.int(1, 3); n > 0; n--) {
      const r = this.rng.next();
      if (r < 0.5 && props.length > 0) {
        const [name, prop] = this.rng.pick(props);
        obj[name] = this.invalid(prop);
      } else if (r < 0.7 && (s.required?.length ?? 0) > 0) {
        delete obj[this.rng.pick(s.required ?? [])];
      } else if (r < 0.85) {
        obj[this.rng.pick(["extra", "id", "Name", "🚀"])] = this.invalid({});
      } else if (props.length > 0) {
        obj[this.rng.pick(props)[0]] = null;
      }
    }
    return obj;
  }
}
