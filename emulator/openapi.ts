/**
 * GET /v1/openapi.json: the emulator's own OpenAPI 3.0 description, generated from the route
 * table and the same zod schemas that validate requests and type responses, so it cannot drift
 * from what is served. A fuzzer can be driven by it.
 */
import { z } from "zod";
import { type Operation, defineOperation } from "./http/router";
import * as wire from "./vocabulary/schemas/wire";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  Pod: wire.Pod,
  Endpoint: wire.Endpoint,
  Template: wire.Template,
  NetworkVolume: wire.NetworkVolume,
  ContainerRegistryAuth: wire.ContainerRegistryAuth,
  BillingRecord: wire.BillingRecord,
  NetworkVolumeBillingRecord: wire.NetworkVolumeBillingRecord,
  Error: wire.ErrorBody,
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Invalid input: the message names the field and the value received.",
  401: "Missing or unknown API key.",
  404: "No such resource in this account.",
  405: "Method not allowed on this path.",
  409: "Conflict with the current state (in use, name taken, no capacity, workers still running).",
  413: "Request body too large.",
  422: "Unknown field (only with the unknownFieldStatus: 422 quirk).",
};

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

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function operationObject(op: Operation): Json {
  const parameters: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: match[1] ?? "", in: "path", required: true, schema: { type: "string" } });
  }
  if (op.querySchema instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(op.querySchema.shape as Record<string, z.ZodType>)) {
      const schema = jsonSchema(field, "input");
      const isArray = typeof schema === "object" && schema !== null && !Array.isArray(schema) && schema.type === "array";
      parameters.push({ name, in: "query", required: false, schema, ...(isArray ? { style: "form", explode: true } : {}) });
    }
  }
  const responses: { [status: string]: Json } = {};
  const { status, description, schemaName, array } = op.response;
  responses[String(status)] =
    schemaName === undefined
      ? { description }
      : { description, content: { "application/json": { schema: array ? { type: "array", items: ref(schemaName) } : ref(schemaName) } } };
  const errors = new Set(op.errors);
  if (!op.public) errors.add(401);
  if (op.bodySchema) errors.add(413);
  for (const code of [...errors].sort()) {
    responses[String(code)] = { description: STATUS_TEXT[code] ?? "Error.", content: { "application/json": { schema: ref("Error") } } };
  }
  const operation: { [key: string]: Json } = {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    parameters,
    responses,
  };
  if (op.bodySchema && op.bodyName) {
    operation.requestBody = { required: true, content: { "application/json": { schema: ref(op.bodyName) } } };
  }
  if (op.public) operation.security = [];
  return operation;
}

export function buildOpenApiDocument(operations: readonly Operation[]): Json {
  const schemas: { [name: string]: Json } = {};
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) schemas[name] = jsonSchema(schema, "output");
  for (const op of operations) if (op.bodySchema && op.bodyName) schemas[op.bodyName] = jsonSchema(op.bodySchema, "input");
  const paths: { [path: string]: { [method: string]: Json } } = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "pulumi-gpucloud emulator: management API",
      version: "1.0.0",
      description:
        "The local emulator's implementation of the service's management API. Errors are JSON " +
        '`{"error": "...", "status": N}`. Every operation except this document and /docs needs `Authorization: Bearer <api key>`.',
    },
    servers: [{ url: "/v1" }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas,
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch] ?? ch);
}

/** The two public documentation operations; `all` is read lazily so they can describe themselves. */
export function documentationOperations(all: () => readonly Operation[]): Operation[] {
  let cached: string | undefined;
  return [
    defineOperation({
      method: "GET",
      path: "/openapi.json",
      operationId: "GetOpenAPI",
      tag: "meta",
      summary: "OpenAPI 3.0 description of this emulator's management API",
      public: true,
      response: { status: 200, description: "The OpenAPI document." },
      errors: [],
      handle() {
        cached ??= JSON.stringify(buildOpenApiDocument(all()));
        return { status: 200, text: cached, contentType: "application/json; charset=utf-8" };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/docs",
      operationId: "GetDocs",
      tag: "meta",
      summary: "Documentation page (operation list)",
      public: true,
      response: { status: 200, description: "HTML." },
      errors: [],
      handle() {
        const rows = all()
          .map((op) => `<tr><td>${op.method}</td><td><code>/v1${escapeHtml(op.path)}</code></td><td>${escapeHtml(op.summary)}</td></tr>`)
          .join("\n");
        const html =
          `<!doctype html><html><head><meta charset="utf-8"><title>gpucloud emulator API</title></head><body>` +
          `<h1>gpucloud emulator: management API</h1><p>Machine-readable: <a href="openapi.json">openapi.json</a></p>` +
          `<table>${rows}</table></body></html>`;
        return { status: 200, text: html, contentType: "text/html; charset=utf-8" };
      },
    }),
  ];
}
