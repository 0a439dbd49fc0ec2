/**
 * GET /api/v2/openapi.json: the emulator's description of its v2 surface, generated from the v2
 * route table and the zod schemas that validate requests and type responses. Schema names are the
 * reference's (CreatePodRequest, Pod, ListPodsResponse, ...), so the conformance test can hold
 * them against management-api-v2-schemas.txt.
 */
import { z } from "zod";
import { type Operation } from "../../http/router";
import { type Json, jsonSchema } from "../../openapi";
import { RESPONSE_SCHEMAS } from "../../vocabulary/schemas/v2/wire";
import { v2Route } from "./operation";
import { PROBLEM_CONTENT_TYPE } from "./problem";

export const V2_BASE_PATH = "/api/v2";

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad request: a field's value does not fit the account's state; `errors` names the field.",
  401: "Missing or unknown API key.",
  402: "Refused by the account's hourly spend cap.",
  403: "The API key lacks the operation's scope (named in `detail`).",
  410: "Gone.",
  404: "No such resource in this account.",
  405: "Method not allowed on this path.",
  409: "Conflict with the current state (an action that does not fit, a volume still attached).",
  413: "Request body too large.",
  422: "The body does not fit the schema; `errors` lists every field at fault.",
  429: "Rate limit exceeded; retry after `Retry-After` seconds.",
};

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const RATE_HEADERS: Json = {
  RateLimit: { description: "Live per-window quota state (minute, hour, day): remaining r, seconds to reset t.", schema: { type: "string" } },
  "RateLimit-Policy": { description: "Per-window quota policy: quota q, window length w in seconds.", schema: { type: "string" } },
};

function parameters(op: Operation): Json[] {
  const out: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) out.push({ name: match[1] ?? "", in: "path", required: true, schema: { type: "string" } });
  if (op.querySchema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(op.querySchema.shape as Record<string, z.ZodType>)) {
      const schema = jsonSchema(field, "input");
      const isArray = typeof schema === "object" && schema !== null && !Array.isArray(schema) && schema.type === "array";
      out.push({ name, in: "query", required: false, schema, ...(isArray ? { style: "form", explode: false } : {}) });
    }
  }
  return out;
}

function operationObject(op: Operation): Json {
  const responses: { [status: string]: Json } = {};
  const { status, description, schemaName } = op.response;
  const headers = op.public ? {} : { headers: RATE_HEADERS };
  responses[String(status)] =
    schemaName === undefined ? { description, ...headers } : { description, ...headers, content: { "application/json": { schema: ref(schemaName) } } };
  const errors = new Set(op.errors);
  if (!op.public) {
    errors.add(401);
    errors.add(429);
  }
  // A key without the operation's scope is refused (management/v2/scopes.ts).
  if (op.scope !== undefined) errors.add(403);
  if (op.bodySchema) errors.add(413);
  for (const code of [...errors].sort()) {
    responses[String(code)] = { description: STATUS_TEXT[code] ?? "Error.", content: { [PROBLEM_CONTENT_TYPE]: { schema: ref("ErrorResponse") } } };
  }
  const operation: { [key: string]: Json } = { operationId: op.operationId, summary: op.summary, tags: [op.tag], parameters: parameters(op), responses };
  if (op.scope !== undefined) operation.description = `Needs the API key scope \`${op.scope}\`.`;
  if (op.bodySchema && op.bodyName) operation.requestBody = { required: true, content: { "application/json": { schema: ref(op.bodyName) } } };
  if (op.public) operation.security = [];
  return operation;
}

export function buildV2OpenApiDocument(operations: readonly Operation[]): Json {
  const schemas: { [name: string]: Json } = {};
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) schemas[name] = jsonSchema(schema, "output");
  for (const op of operations) if (op.bodySchema && op.bodyName) schemas[op.bodyName] = jsonSchema(op.bodySchema, "input");
  const paths: { [path: string]: { [method: string]: Json } } = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  return {
    openapi: "3.0.3",
    info: {
      title: "pulumi-gpucloud emulator: management API v2",
      version: "2.0.0",
      description:
        "The local emulator's implementation of the service's management API v2, over the same store as /v1. Errors are " +
        "RFC 9457 `application/problem+json` `{title, status, detail, errors?}`. Every operation except this document needs " +
        "`Authorization: Bearer <api key>` and is rate-limited per account (RateLimit, RateLimit-Policy; 429 with Retry-After).",
    },
    servers: [{ url: V2_BASE_PATH }],
    security: [{ bearerAuth: [] }],
    paths,
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } }, schemas },
  };
}

/** The public document operation; `all` is read lazily so it can describe itself. */
export function v2DocumentationOperation(all: () => readonly Operation[]): Operation {
  let cached: string | undefined;
  return v2Route("GET /openapi.json", "getOpenApi", "public", "OpenAPI 3.0 description of this emulator's management API v2", { answer: [200, undefined, "The OpenAPI document."], errors: [] }, () => {
    cached ??= JSON.stringify(buildV2OpenApiDocument(all()));
    return { status: 200, text: cached, contentType: "application/json; charset=utf-8" };
  });
}
