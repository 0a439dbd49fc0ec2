/**
 * A small, seeded, schema-driven request generator for the emulator's management API, driven by its
 * own OpenAPI description (GET /v1/openapi.json). Per operation it builds valid-ish requests (a
 * value for every property the schema describes) and mutates them: wrong types, missing required
 * fields, out-of-range numbers, huge strings, unicode and control characters, nulls, extra keys,
 * prototype keys, deep nesting (up to thousands of levels), malformed or non-object JSON, oversized
 * bodies, bad ids and query values. Used by test/emulator/management/v1/fuzz-openapi.test.ts (/v1) and
 * v2-fuzz.test.ts (/api/v2).
 *
 * Below the management generator: a job API generator (JobApiFuzzer) and raw-socket requests that
 * no HTTP client would send (malformed HTTP, an oversized body written in full before reading),
 * used by test/emulator/http/hardening-fuzz.test.ts; and the sender both management fuzzers share.
 */
import { type Agent, request as httpRequest } from "node:http";
import { z } from "zod";
// The schema subset and the PRNG are the stateful fuzzer's (scripts/lib/fuzzV2), shared rather than kept twice.
import { type JsonSchema, JsonSchemaZ, ParameterZ } from "../../scripts/lib/fuzzV2/description";
import { Rng } from "../../scripts/lib/fuzzV2/values";

export type { JsonSchema };
export { Rng };

// ---- the OpenAPI document, validated at the edge (only what the generator reads) ----------------

const OperationZ = z.looseObject({
  operationId: z.string(),
  parameters: z.array(ParameterZ).optional(),
  requestBody: z.looseObject({ content: z.record(z.string(), z.looseObject({ schema: JsonSchemaZ })) }).optional(),
  security: z.array(z.unknown()).optional(),
});

export const OpenApiDocZ = z.looseObject({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), OperationZ)),
  components: z.looseObject({ schemas: z.record(z.string(), JsonSchemaZ) }),
});
export type OpenApiDoc = z.infer<typeof OpenApiDocZ>;

export interface FuzzOperation {
  operationId: string;
  method: string;
  /** Path template after the base URL, e.g. "/pods/{podId}". */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  /** The collection a path id refers to, e.g. "pods" for /pods/{podId}. */
  collection: string;
}

export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const bodySchema = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: bodySchema,
        collection: path.split("/").filter((s) => s !== "")[0] ?? "",
      });
    }
  }
  return out;
}

// ---- seeded randomness ---------------------------------------------------------------------------

// ---- values ------------------------------------------------------------------------------------

const WEIRD_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "\u0007\b\f\n\r\t\v",
  "null",
  "undefined",
  "true",
  "-1",
  "1e309",
  "NaN",
  "🚀🔥 GPU 🤖",
  "\u202egnp.exe",
  "\u200b\u200c\u200d\ufeff",
  "Ω≈ç√∫˜µ≤≥÷",
  "田中さんにあげて下さい",
  "\ud800",
  "\udfff\ud800",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00%ff%",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup string, sent as hostile input
  "${jndi:ldap://x}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "a".repeat(192),
  "é".repeat(300),
];

/** Candidates tried against a `pattern` before falling back to a plain string. */
const PATTERN_CANDIDATES: readonly string[] = [
  "US",
  "de",
  "8888/http",
  "22/tcp",
  "2024-01-01T00:00:00Z",
  "2024-01-01",
  "abc",
  "12.4",
  "/workspace",
];

export class ValueGen {
  constructor(
    private readonly rng: Rng,
    private readonly doc: OpenApiDoc,
    /** Ids seen in 2xx answers, by collection, so valid-ish requests can point at real resources. */
    private readonly ids: Map<string, string[]>,
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    let s = schema;
    for (let i = 0; s.$ref && i < 5; i++) {
      const name = s.$ref.split("/").pop() ?? "";
      s = this.doc.components.schemas[name] ?? {};
    }
    return s;
  }

  /** A value the schema accepts (as far as this small generator understands it). */
  valid(schema: JsonSchema, depth = 0, key = ""): unknown {
    const s = this.resolve(schema);
    if (s.enum && s.enum.length > 0) return this.rng.pick(s.enum);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives && alternatives.length > 0) return this.valid(this.rng.pick(alternatives), depth + 1, key);
    switch (s.type) {
      case "integer":
      case "number": {
        const lo = s.minimum ?? 0;
        const hi = s.maximum ?? Math.max(lo + 100, 100);
        return s.type === "integer"
          ? this.rng.int(Math.ceil(lo), Math.floor(Math.min(hi, lo + 1000)))
          : lo + this.rng.next() * (Math.min(hi, lo + 1000) - lo);
      }
      case "boolean":
        return this.rng.chance(0.5);
      case "string":
        return this.validString(s, key);
      case "array": {
        if (depth > 4) return [];
        const n = this.rng.int(0, 3);
        return Array.from({ length: n }, () => this.valid(s.items ?? {}, depth + 1, key));
      }
      default: {
        if (depth > 4) return {};
        const out: Record<string, unknown> = {};
        const required = new Set(s.required ?? []);
        for (const [name, prop] of Object.entries(s.properties ?? {})) {
          if (required.has(name) || this.rng.chance(0.4)) out[name] = this.valid(prop, depth + 1, name);
        }
        if (!s.properties && typeof s.additionalProperties === "object") {
          for (let i = this.rng.int(0, 2); i > 0; i--) out[`KEY_${i}`] = this.valid(s.additionalProperties, depth + 1);
        }
        return out;
      }
    }
  }

  private validString(s: JsonSchema, key: string): string {
    // An id field gets a real id now and then, so the handler goes past its 404.
    if (/Id$/.test(key)) {
      const collection =
        key === "templateId"
          ? "templates"
          : key === "networkVolumeId"
            ? "networkvolumes"
            : key === "containerRegistryAuthId"
              ? "containerregistryauth"
              : "";
      const pool = this.ids.get(collection);
      if (pool && pool.length > 0 && this.rng.chance(0.7)) return this.rng.pick(pool);
    }
    if (s.format === "date-time") return new Date(Date.UTC(2025, this.rng.int(0, 11), this.rng.int(1, 28))).toISOString();
    if (s.pattern) {
      const re = new RegExp(s.pattern);
      const fits = PATTERN_CANDIDATES.filter((c) => re.test(c));
      if (fits.length > 0) return this.rng.pick(fits);
    }
    const min = s.minLength ?? 0;
    const max = Math.min(s.maxLength ?? 24, 24);
    const length = this.rng.int(Math.max(min, 1), Math.max(min, max, 1));
    let out = "";
    for (let i = 0; i < length; i++) out += "abcdefghijklmnopqrstuvwxyz0123456789-"[this.rng.int(0, 36)];
    return out;
  }

  /** A value the schema rejects, or an odd one it may accept. */
  invalid(schema: JsonSchema, depth = 0): unknown {
    const s = this.resolve(schema);
    const r = this.rng.int(0, 15);
    switch (r) {
      case 0:
        return null;
      case 1:
        return this.rng.pick(WEIRD_STRINGS);
      case 2:
        return this.rng.pick([-1, 0, -0, 1e308, -1e308, 2 ** 53 + 1, 0.5, -2147483649, 4294967296]);
      case 3:
        return s.minimum !== undefined ? s.minimum - this.rng.pick([1, 0.5, 1e6]) : -this.rng.int(1, 1e9);
      case 4:
        return s.maximum !== undefined ? s.maximum + this.rng.pick([1, 0.5, 1e9]) : 1e15;
      case 5:
        return this.rng.chance(0.5) ? "x".repeat(this.rng.int(1_000, 200_000)) : "🚀".repeat(this.rng.int(100, 20_000));
      case 6:
        return this.rng.chance(0.5);
      case 7:
        return [];
      case 8:
        return {};
      case 9:
        return [this.valid(s, depth + 1), null, { nested: [[[]]] }];
      case 10:
        return s.enum ? `${String(this.rng.pick(s.enum)).toLowerCase()} ` : "not-in-any-enum";
      case 11:
        return nest(this.rng.int(10, 60));
      case 12:
        // Own "__proto__" and "constructor" keys, as a JSON body would carry them.
        return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown;
      case 13:
        return String(this.valid(s, depth + 1));
      case 14:
        return this.rng.pick(WEIRD_STRINGS) + this.rng.pick(WEIRD_STRINGS);
      default:
        return s.type === "array"
          ? [this.invalid(s.items ?? {}, depth + 1)]
          : s.type === "object" && depth < 3
            ? { [this.rng.pick(WEIRD_STRINGS)]: this.invalid({}, depth + 1) }
            : 42;
    }
  }
}

/**
 * JSON text nested `levels` deep, alternating arrays and objects, written as text: a value this deep
 * may be more than JSON.stringify can render.
 */
export function deepJson(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? "[" : '{"a":';
    close = (i % 2 === 0 ? "]" : "}") + close;
  }
  return `${open}"deep"${close}`;
}

/** A body with one property (or the whole body) nested 1,000 to 6,000 levels deep. */
function deepBody(rng: Rng, schema: JsonSchema): string {
  const deep = deepJson(rng.int(1_000, 6_000));
  const names = Object.keys(schema.properties ?? {});
  return names.length > 0 && rng.chance(0.8) ? `{${JSON.stringify(rng.pick(names))}: ${deep}}` : deep;
}

function nest(depth: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

// ---- requests ------------------------------------------------------------------------------------

export interface FuzzRequest {
  operationId: string;
  /** What kind of request this is, for the tallies. */
  kind: string;
  method: string;
  /** Raw path after the base URL (may hold odd bytes on purpose). */
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

const BAD_IDS: readonly string[] = [
  "",
  "x",
  "..",
  "%2e%2e",
  "%00",
  "%",
  "%E0%A4%A",
  "a".repeat(5_000),
  "%F0%9F%9A%80",
  "null",
  "undefined",
  "0",
  "-1",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "abc%2Fdef",
  "id with space",
  "%20",
  "pod;drop",
];

const MALFORMED_JSON: readonly string[] = [
  "{",
  "}",
  '{"name":}',
  '{"name": "x",}',
  "{'name': 'x'}",
  "[1,2,",
  "nul",
  "\u0000",
  '{"a":"\\ud800"}',
  '{"a": 1e999}',
  '{"a": NaN}',
  '"just a string"',
  "42",
  "null",
  "[]",
  "[{}]",
  "true",
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a":1}{"b":2}',
  '\ufeff{"name": "bom"}',
];

export class OpenApiFuzzer {
  readonly rng: Rng;
  readonly values: ValueGen;
  readonly operations: FuzzOperation[];
  /** Ids from 2xx answers, by collection ("pods", "templates", ...). */
  readonly ids = new Map<string, string[]>();

  constructor(
    doc: OpenApiDoc,
    seed: number,
    private readonly apiKey: string,
  ) {
    this.rng = new Rng(seed);
    this.values = new ValueGen(this.rng, doc, this.ids);
    this.operations = operationsOf(doc);
  }

  /** Remembers ids of created resources (call with 2xx bodies). */
  learn(op: FuzzOperation | undefined, body: unknown): void {
    if (op?.method !== "POST" || op.pathParams.length > 0) return;
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id !== "string") return;
    const pool = this.ids.get(op.collection) ?? [];
    pool.push(id);
    if (pool.length > 50) pool.shift();
    this.ids.set(op.collection, pool);
  }

  /** Adds a known id (e.g. of a resource created before the run) to a collection's pool. */
  remember(collection: string, id: string): void {
    const pool = this.ids.get(collection) ?? [];
    pool.push(id);
    this.ids.set(collection, pool);
  }

  next(): { op: FuzzOperation; request: FuzzRequest } {
    const op = this.rng.pick(this.operations);
    const rng = this.rng;
    let kind = "valid-ish";
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };

    // Path parameters: a real id, another collection's id, or a bad one.
    let path = op.path;
    for (const name of op.pathParams) {
      const pool = this.ids.get(op.collection) ?? [];
      let id: string;
      const r = rng.next();
      if (r < 0.45 && pool.length > 0) id = encodeURIComponent(rng.pick(pool));
      else if (r < 0.6) {
        const other = [...this.ids.values()].flat();
        id = other.length > 0 ? encodeURIComponent(rng.pick(other)) : "nope";
        kind = "other-collection-id";
      } else {
        id = rng.pick(BAD_IDS);
        kind = "bad-id";
      }
      path = path.replace(`{${name}}`, id);
    }

    // Query: valid values, wrong ones, repeats.
    const query: string[] = [];
    for (const q of op.query) {
      if (!rng.chance(0.35)) continue;
      if (rng.chance(0.6)) {
        const v = this.values.valid(q.schema, 0, q.name);
        for (const item of Array.isArray(v) ? v : [v]) query.push(`${encodeURIComponent(q.name)}=${encodeURIComponent(String(item))}`);
      } else {
        kind = kind === "valid-ish" ? "bad-query" : kind;
        const bad = rng.pick(["maybe", "", "%", "%ZZ", "1e309", "-1", "x".repeat(2_000), "🚀", "true&true", "[]"]);
        query.push(`${encodeURIComponent(q.name)}=${bad}`);
        if (rng.chance(0.3)) query.push(`${encodeURIComponent(q.name)}=${bad}`);
      }
    }
    if (rng.chance(0.05)) {
      query.push(`${rng.pick(["unknownParam", "__proto__", "constructor", "a[b]", "%"])}=${rng.pick(["1", "%", ""])}`);
      kind = kind === "valid-ish" ? "bad-query" : kind;
    }
    if (query.length > 0) path += `?${query.join("&")}`;

    // Body.
    let body: string | Buffer | undefined;
    if (op.body) {
      const r = rng.next();
      headers["content-type"] = "application/json";
      if (r < 0.3) {
        body = JSON.stringify(this.values.valid(op.body));
      } else if (r < 0.72) {
        body = JSON.stringify(this.mutateObject(op.body));
        kind = "bad-body";
      } else if (r < 0.84) {
        body = rng.pick(MALFORMED_JSON);
        kind = "malformed-json";
      } else if (r < 0.88) {
        body = "";
        kind = "empty-body";
      } else if (r < 0.92) {
        // Beyond the 1 MB body limit: must be a 413, not a hang or a crash.
        body = Buffer.alloc(rng.int(1_100_000, 1_500_000), 0x61);
        kind = "oversized-body";
      } else if (r < 0.96) {
        body = deepBody(rng, this.values.resolve(op.body));
        kind = "deep-nesting";
      } else {
        body = JSON.stringify(this.values.valid(op.body));
        headers["content-type"] = rng.pick(["text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", ""]);
        if (headers["content-type"] === "") delete headers["content-type"];
        kind = "odd-content-type";
      }
    } else if (rng.chance(0.08)) {
      // A body where none is expected.
      headers["content-type"] = "application/json";
      body = rng.pick(MALFORMED_JSON);
      kind = "unexpected-body";
    }
    if (rng.chance(0.03)) {
      headers["authorization"] = rng.pick([
        "",
        "Bearer",
        "Bearer ",
        `Basic ${Buffer.from("a:b").toString("base64")}`,
        this.apiKey,
        `bearer ${this.apiKey}`,
        "Bearer \u00e9\u00ff",
      ]);
      kind = "odd-auth";
    }
    // A request target can only carry visible ASCII: escape the rest (malformed escapes such as
    // "%" or "%ZZ" stay as they are, on purpose).
    path = path.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
    return { op, request: { operationId: op.operationId, kind, method: op.method, path, headers, body } };
  }

  /** A valid-ish object with a few mutations: wrong types, nulls, missing required, extra keys. */
  private mutateObject(schema: JsonSchema): unknown {
    const s = this.values.resolve(schema);
    const rng = this.rng;
    const value = this.values.valid(s);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return this.values.invalid(s);
    const obj = value as Record<string, unknown>;
    const props = Object.entries(s.properties ?? {});
    for (let n = rng.int(1, 3); n > 0; n--) {
      const r = rng.next();
      if (r < 0.5 && props.length > 0) {
        const [name, prop] = rng.pick(props);
        obj[name] = this.values.invalid(prop);
      } else if (r < 0.65 && (s.required?.length ?? 0) > 0) {
        delete obj[rng.pick(s.required ?? [])];
      } else if (r < 0.8) {
        // defineProperty: a plain assignment to "__proto__" would set the prototype, not a key.
        const key = rng.pick(["extra", "id", "userId", "__proto__", "constructor", "Name", "IMAGENAME", "🚀", ""]);
        Object.defineProperty(obj, key, { value: this.values.invalid({}), enumerable: true, writable: true, configurable: true });
      } else if (props.length > 0) {
        const [name] = rng.pick(props);
        obj[name] = null;
      }
    }
    return obj;
  }
}

// ---- the job API ---------------------------------------------------------------------------------

/** The job API's operations: method, path after /v2/<endpoint_id>, and whether a body is read. */
const JOB_OPERATIONS: readonly { method: string; path: string; body: boolean }[] = [
  { method: "POST", path: "/run", body: true },
  { method: "POST", path: "/runsync?wait=1000", body: true },
  { method: "GET", path: "/status/{jobId}", body: false },
  { method: "POST", path: "/status/{jobId}", body: true },
  { method: "GET", path: "/stream/{jobId}", body: false },
  { method: "POST", path: "/cancel/{jobId}", body: true },
  { method: "POST", path: "/retry/{jobId}", body: true },
  { method: "POST", path: "/purge-queue", body: true },
  { method: "GET", path: "/health", body: false },
  { method: "GET", path: "/requests?limit=5", body: false },
];

/** Values for the fields of a job request, valid or not. */
const JOB_FIELD_VALUES: readonly (() => unknown)[] = [
  () => ({ prompt: "hi" }),
  () => ({ n: 1, nested: { list: [1, 2, { x: null }] } }),
  () => null,
  () => "a string",
  () => [1, 2],
  () => ({ executionTimeout: 1 }),
  () => ({ ttl: 10_000, lowPriority: true }),
  () => "http://127.0.0.1:9/hook",
  () => ({ accessId: "a", accessSecret: "s", bucketName: "b", endpointUrl: "ftp://x" }),
];

/**
 * Seeded requests for the job API of one endpoint: valid jobs, wrong fields, malformed and deeply
 * nested bodies, known and bad job ids. Paths are relative to /v2/<endpoint_id>.
 */
export class JobApiFuzzer {
  readonly rng: Rng;
  private readonly jobIds: string[] = [];

  constructor(
    seed: number,
    private readonly apiKey: string,
  ) {
    this.rng = new Rng(seed);
  }

  /** Remembers the id of a submitted job (call with 2xx bodies of /run and /runsync). */
  learn(body: unknown): void {
    const id = (body as { id?: unknown } | undefined)?.id;
    if (typeof id === "string") this.jobIds.push(id);
    if (this.jobIds.length > 50) this.jobIds.shift();
  }

  next(): FuzzRequest {
    const rng = this.rng;
    const op = rng.pick(JOB_OPERATIONS);
    const jobId = this.jobIds.length > 0 && rng.chance(0.6) ? rng.pick(this.jobIds) : rng.pick(BAD_IDS);
    const path = op.path.replace("{jobId}", encodeURIComponent(jobId).replace(/%25/g, "%"));
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, "content-type": "application/json" };
    let kind = "valid-ish";
    let body: string | undefined;
    if (op.body) {
      const r = rng.next();
      if (r < 0.45) {
        const request: Record<string, unknown> = { input: { prompt: "fuzz" } };
        for (const field of ["input", "policy", "webhook", "s3Config", "extra"]) {
          if (rng.chance(0.3)) request[field] = rng.pick(JOB_FIELD_VALUES)();
        }
        body = JSON.stringify(request);
        kind = "job-request";
      } else if (r < 0.7) {
        const field = rng.pick(["input", "policy", "webhook", "s3Config"]);
        const deep = deepJson(rng.int(1_000, 6_000));
        body = field === "input" ? `{"input": ${deep}}` : `{"input": {}, ${JSON.stringify(field)}: ${deep}}`;
        kind = "deep-nesting";
      } else if (r < 0.9) {
        body = rng.pick(MALFORMED_JSON);
        kind = "malformed-json";
      } else {
        body = "";
        kind = "empty-body";
      }
    }
    return { operationId: `${op.method} ${op.path.split("?")[0] ?? ""}`, kind, method: op.method, path, headers, body };
  }
}

// ---- below HTTP: raw requests --------------------------------------------------------------------

/** A raw request: bytes written to a fresh connection, and the statuses that are a right answer. */
export interface RawFuzzRequest {
  kind: string;
  bytes: Buffer;
  /** Statuses of the answers expected in order (the last one closes the connection). */
  expect: readonly (readonly number[])[];
}

/**
 * Malformed HTTP (each must get a JSON 4xx/505 and a close), or an oversized body written in full
 * before anything is read (a 413, then the next request on the same connection answered).
 */
export function rawFuzzRequest(rng: Rng, apiKey: string, path: string, limitBytes: number): RawFuzzRequest {
  const auth = `authorization: Bearer ${apiKey}\r\n`;
  const malformed: readonly [string, string, number][] = [
    ["garbage-line", `${rng.pick(["GARBAGE", "\u0000\u0001", "GET", "/v1/pods HTTP/1.1", " GET / HTTP/1.1"])}\r\n\r\n`, 400],
    ["unknown-method", `${rng.pick(["FROB", "G3T", "BREW"])} ${path} HTTP/1.1\r\nhost: x\r\n\r\n`, 400],
    [
      "bad-content-length",
      `POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}content-length: ${rng.pick(["ten", "-1", "1e3", "0x10"])}\r\n\r\n`,
      400,
    ],
    ["duplicate-content-length", `POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}content-length: 2\r\ncontent-length: 4\r\n\r\n{}`, 400],
    [
      "bad-chunked",
      `POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}transfer-encoding: chunked\r\n\r\n${rng.pick(["zz", "-1", "ffffffffffffffffff"])}\r\nabc\r\n0\r\n\r\n`,
      400,
    ],
    ["nul-in-header", `GET ${path} HTTP/1.1\r\nhost: x\r\nx-a: a\u0000b\r\n\r\n`, 400],
    ["header-without-colon", `GET ${path} HTTP/1.1\r\nhost: x\r\nnot a header\r\n\r\n`, 400],
    ["huge-headers", `GET ${path} HTTP/1.1\r\nhost: x\r\nx-a: ${"a".repeat(rng.int(17_000, 40_000))}\r\n\r\n`, 431],
    ["bad-version", `GET ${path} HTTP/${rng.pick(["3.0", "1.7", "9.9"])}\r\nhost: x\r\n\r\n`, 505],
    ["connect", "CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n", 405],
  ];
  if (rng.chance(0.7)) {
    const [kind, text, status] = rng.pick(malformed);
    // A garbage line may also read as an unknown method or a bad version: any 4xx/505 is right.
    return { kind, bytes: Buffer.from(text, "latin1"), expect: [kind === "garbage-line" ? [400, 505] : [status]] };
  }
  const size = limitBytes + rng.int(1, 4 * limitBytes);
  const head = `POST ${path} HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ncontent-length: ${size}\r\n\r\n`;
  const next = `GET ${path} HTTP/1.1\r\nhost: x\r\n${auth}connection: close\r\n\r\n`;
  return {
    kind: "oversized-before-read",
    bytes: Buffer.concat([Buffer.from(head), Buffer.alloc(size, 0x61), Buffer.from(next)]),
    // A rate limit may refuse first (429, after the body is drained just the same); the follow-up
    // GET may be a 200, 404, 405 or 429 depending on the path: it only has to be answered.
    expect: [
      [413, 429],
      [200, 400, 404, 405, 429],
    ],
  };
}

// ---- sending ----------------------------------------------------------------------------------

export interface FuzzOutcome {
  status?: number;
  text?: string;
  contentType?: string;
  /** No answer: a socket error before the response, or the timeout. */
  error?: string;
  ms: number;
}

/**
 * Sends one request over node:http (fetch refuses a GET with a body, which the generator makes on
 * purpose) and never rejects: a socket error or the timeout is an outcome without a status.
 */
export function sendFuzzRequest(base: URL, agent: Agent, req: FuzzRequest, timeoutMs = 5_000): Promise<FuzzOutcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Omit<FuzzOutcome, "ms">): void => {
      if (settled) return;
      settled = true;
      resolve({ ...o, ms: Date.now() - started });
    };
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const r = httpRequest(
      { host: base.hostname, port: base.port, method: req.method, path: `${base.pathname}${req.path}`, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          done({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            contentType: String(res.headers["content-type"] ?? ""),
          }),
        );
        res.on("error", (e) => done({ status: res.statusCode ?? 0, error: `response: ${e.message}` }));
      },
    );
    r.on("timeout", () => {
      done({ error: `no answer within ${timeoutMs} ms` });
      r.destroy();
    });
    // An oversized body may still be in flight when the 413 arrives and the server closes: the
    // answer counts, a late EPIPE does not.
    r.on("error", (e: NodeJS.ErrnoException) => done({ error: `${e.code ?? ""} ${e.message}` }));
    r.end(req.body);
  });
}
