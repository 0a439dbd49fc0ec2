/**
 * The OpenAPI 3.0 document each surface serves at `{base}/openapi.json` (/v1, /api/v2, the job
 * API's /v2), generated from its route table and the same zod schemas that read its requests and
 * type its answers, so that it cannot drift from what is served. A fuzzer can be driven by it.
 *
 * One generator for the three: a surface gives its facts (`SurfaceFacts`: title, base path, error
 * format, what its statuses mean, what every authenticated operation may answer, security) and
 * its operations as `DescribedOperation`s (`describeRoute` makes them from a management route-table
 * entry; the job API makes its own, an operation per method).
 */
import { z } from "zod";
import type { Operation } from "./router";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** zod's integer bounds (±2^53-1) say nothing useful; drop them. */
function tidy(value: Json): Json {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== "object") return value;
  const out: { [key: string]: Json } = {};
  for (const [key, child] of Object.entries(value)) {
    if ((key === "minimum" || key === "maximum") && typeof child === "number" && Math.abs(child) === Number.MAX_SAFE_INTEGER) continue;
    if (key === "$schema") continue;
    out[key] = tidy(child);
  }
  return out;
}

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  return tidy(z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }) as Json);
}

/** What one surface says of itself. */
export interface SurfaceFacts {
  title: string;
  version: string;
  description: string;
  /** Where the paths are served (`servers`). */
  basePath: string;
  /** The scheme every operation that is not public needs: its name in components and its definition. */
  security: readonly [name: string, scheme: Json];
  /** Tags with their descriptions, when the surface describes them. */
  tags?: Json[];
  /** The error body: its content type and the name of its schema among `schemas`. */
  errorBody: { contentType: string; schemaName: string };
  /** The answers' schemas, by their names in components.schemas (request bodies come from the operations). */
  schemas: Readonly<Record<string, z.ZodType>>;
  /** What each error status means on this surface. */
  statusText: Readonly<Record<number, string>>;
  /** Statuses every operation that is not public may answer (401; a rate limit's 429; the job API's unknown endpoint). */
  authenticatedStatuses: readonly number[];
  /** Headers every success of an operation that is not public carries (the rate limit's state). */
  authenticatedHeaders?: Json;
  /** How an array query parameter is written: `?a=1&a=2` (true) or `?a=1,2` (false); undefined: not said. */
  explodeArrays?: boolean;
  /** Descriptions of path parameters; when given, every path parameter is described (by its name if not listed). */
  parameterText?: Readonly<Record<string, string>>;
}

/** One operation under one method, as the document lists it. */
export interface DescribedOperation {
  method: string;
  path: string;
  /** Absent for a method that answers another method's operation (`description` says whose). */
  operationId?: string | undefined;
  summary: string;
  tag: string;
  description?: string | undefined;
  query: ReadonlyArray<readonly [name: string, schema: z.ZodType]>;
  response: { status: number; description: string; schemaName?: string | undefined; array?: boolean | undefined };
  /** What an empty 204 means, for an operation that may give one besides its answer. */
  noContent?: string | undefined;
  /** The error statuses it may answer besides the surface's `authenticatedStatuses`. */
  errors: readonly number[];
  /** Vendor extensions (`x-limit`), after the description. */
  extensions?: Readonly<Record<string, Json>> | undefined;
  /** Its request body: a schema named in components.schemas, or one shown inline. */
  body?: { schema: z.ZodType; name?: string | undefined; required: boolean } | undefined;
  /** Needs no API key. */
  public: boolean;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * A management route-table entry (http/router.ts), with the statuses the kit itself answers: an
 * operation with a body may answer 400 (the body reader: not JSON, not an object, nested too deep)
 * and 413 (over its limit), one with path parameters 400 (a malformed percent-encoding in one), a
 * scoped one 403 (the router's scope check). What its handler refuses is its entry's `errors`.
 */
export function describeRoute(op: Operation): DescribedOperation {
  const errors = new Set(op.errors);
  if (op.path.includes("{")) errors.add(400);
  if (op.scope !== undefined) errors.add(403);
  if (op.bodySchema) for (const status of [400, 413]) errors.add(status);
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tag: op.tag,
    description: op.scope === undefined ? undefined : `Needs the API key scope \`${op.scope}\`.`,
    query: op.querySchema instanceof z.ZodObject ? Object.entries(op.querySchema.shape as Record<string, z.ZodType>) : [],
    response: op.response,
    noContent: op.noContent,
    errors: [...errors],
    body: op.bodySchema && op.bodyName ? { schema: op.bodySchema, name: op.bodyName, required: true } : undefined,
    public: op.public,
  };
}

function parameters(facts: SurfaceFacts, op: DescribedOperation): Json[] {
  const out: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
    const name = match[1] ?? "";
    const text = facts.parameterText === undefined ? {} : { description: facts.parameterText[name] ?? name };
    out.push({ name, in: "path", required: true, ...text, schema: { type: "string" } });
  }
  for (const [name, field] of op.query) {
    const schema = jsonSchema(field, "input");
    const isArray = typeof schema === "object" && schema !== null && !Array.isArray(schema) && schema.type === "array";
    const style = isArray && facts.explodeArrays !== undefined ? { style: "form", explode: facts.explodeArrays } : {};
    out.push({ name, in: "query", required: false, schema, ...style });
  }
  return out;
}

function responses(facts: SurfaceFacts, op: DescribedOperation): { [status: string]: Json } {
  const out: { [status: string]: Json } = {};
  const { status, description, schemaName, array } = op.response;
  const headers = op.public || facts.authenticatedHeaders === undefined ? {} : { headers: facts.authenticatedHeaders };
  const schema = schemaName === undefined ? undefined : array ? { type: "array", items: ref(schemaName) } : ref(schemaName);
  out[String(status)] =
    schema === undefined ? { description, ...headers } : { description, ...headers, content: { "application/json": { schema } } };
  if (op.noContent !== undefined) out["204"] = { description: op.noContent };
  const errors = new Set(op.errors);
  if (!op.public) for (const code of facts.authenticatedStatuses) errors.add(code);
  const { contentType, schemaName: errorSchema } = facts.errorBody;
  for (const code of [...errors].sort()) {
    out[String(code)] = { description: facts.statusText[code] ?? "Error.", content: { [contentType]: { schema: ref(errorSchema) } } };
  }
  return out;
}

function operationObject(facts: SurfaceFacts, op: DescribedOperation): Json {
  const operation: { [key: string]: Json } = {};
  if (op.operationId !== undefined) operation.operationId = op.operationId;
  Object.assign(operation, { summary: op.summary, tags: [op.tag], parameters: parameters(facts, op), responses: responses(facts, op) });
  if (op.description !== undefined) operation.description = op.description;
  Object.assign(operation, op.extensions);
  if (op.body) {
    const schema = op.body.name === undefined ? jsonSchema(op.body.schema, "input") : ref(op.body.name);
    operation.requestBody = { required: op.body.required, content: { "application/json": { schema } } };
  }
  if (op.public) operation.security = [];
  return operation;
}

export function buildOpenApiDocument(facts: SurfaceFacts, operations: readonly DescribedOperation[]): Json {
  const schemas: { [name: string]: Json } = {};
  for (const [name, schema] of Object.entries(facts.schemas)) schemas[name] = jsonSchema(schema, "output");
  for (const { body } of operations) if (body?.name !== undefined) schemas[body.name] = jsonSchema(body.schema, "input");
  const paths: { [path: string]: { [method: string]: Json } } = {};
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    item[op.method.toLowerCase()] = operationObject(facts, op);
    paths[op.path] = item;
  }
  const [scheme, definition] = facts.security;
  return {
    openapi: "3.0.3",
    info: { title: facts.title, version: facts.version, description: facts.description },
    servers: [{ url: facts.basePath }],
    security: [{ [scheme]: [] }],
    ...(facts.tags === undefined ? {} : { tags: facts.tags }),
    paths,
    components: { securitySchemes: { [scheme]: definition }, schemas },
  };
}

/** The document as served, made on its first request (`operations` is read then, so it may list itself). */
export function documentText(facts: SurfaceFacts, operations: () => readonly DescribedOperation[]): () => string {
  let text: string | undefined;
  return () => (text ??= JSON.stringify(buildOpenApiDocument(facts, operations())));
}
