/**
 * What the stateful fuzzer reads of an OpenAPI 3.0 description (the emulator's
 * `GET /api/v2/openapi.json`), validated at the edge with zod: per operation its method, path,
 * parameters, request body and the statuses it documents; per path parameter, the collection its
 * ids come from. Nothing here names an operation: what the description lists is what is fuzzed, so
 * operations added to the route table are covered without a change here.
 */
import { z } from "zod";

export interface JsonSchema {
  type?: string | undefined;
  enum?: unknown[] | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
  pattern?: string | undefined;
  format?: string | undefined;
  nullable?: boolean | undefined;
  items?: JsonSchema | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  additionalProperties?: boolean | JsonSchema | undefined;
  anyOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  allOf?: JsonSchema[] | undefined;
  $ref?: string | undefined;
}

const number = z.number().optional();
export const JsonSchemaZ: z.ZodType<JsonSchema> = z.lazy(() =>
  z.looseObject({
    type: z.string().optional(),
    enum: z.array(z.unknown()).optional(),
    minimum: number,
    maximum: number,
    minLength: number,
    maxLength: number,
    minItems: number,
    maxItems: number,
    pattern: z.string().optional(),
    format: z.string().optional(),
    nullable: z.boolean().optional(),
    items: JsonSchemaZ.optional(),
    properties: z.record(z.string(), JsonSchemaZ).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([z.boolean(), JsonSchemaZ]).optional(),
    anyOf: z.array(JsonSchemaZ).optional(),
    oneOf: z.array(JsonSchemaZ).optional(),
    allOf: z.array(JsonSchemaZ).optional(),
    $ref: z.string().optional(),
  }),
);

export const ParameterZ = z.looseObject({
  name: z.string(),
  in: z.enum(["path", "query", "header", "cookie"]),
  required: z.boolean().optional(),
  schema: JsonSchemaZ.optional(),
});

const OperationZ = z.looseObject({
  operationId: z.string().optional(),
  parameters: z.array(ParameterZ).optional(),
  requestBody: z
    .looseObject({ required: z.boolean().optional(), content: z.record(z.string(), z.looseObject({ schema: JsonSchemaZ })) })
    .optional(),
  responses: z.record(z.string(), z.unknown()),
  security: z.array(z.unknown()).optional(),
});

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export const OpenApiDocZ = z.looseObject({
  openapi: z.string().startsWith("3."),
  paths: z.record(z.string(), z.looseObject(Object.fromEntries(METHODS.map((m) => [m, OperationZ.optional()])))),
  components: z.looseObject({ schemas: z.record(z.string(), JsonSchemaZ) }).optional(),
});
export type OpenApiDoc = z.infer<typeof OpenApiDocZ>;

/** A path parameter and the collection (a path template such as `/pods`) whose ids fill it. */
export interface PathParameter {
  name: string;
  collection: string;
}

export interface FuzzOperation {
  /** The operationId, or `METHOD path` when the description gives none. */
  id: string;
  method: string;
  /** Path template after the base, e.g. `/pods/{id}/action`. */
  path: string;
  pathParams: PathParameter[];
  query: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  /** Statuses the description documents for it (success and errors). */
  documented: ReadonlySet<number>;
  /** Needs no API key (`security: []`). */
  public: boolean;
  /**
   * What it does to a collection, read from its method and path: `create` (POST to a collection),
   * `delete` (DELETE of one member), `read` (GET), `change` (anything else).
   */
  role: "create" | "delete" | "read" | "change";
  /** The collection it lists or creates in (`/pods`, `/serverless/{id}/releases`); the member's collection for one-member paths. */
  collection: string;
}

/** `/serverless/{id}/workers/{workerId}/logs` -> the collections of `id` and `workerId`: `/serverless`, `/serverless/{id}/workers`. */
function pathParameters(path: string): PathParameter[] {
  const segments = path.split("/");
  const out: PathParameter[] = [];
  segments.forEach((segment, i) => {
    const match = /^\{(\w+)\}$/.exec(segment);
    if (match?.[1]) out.push({ name: match[1], collection: segments.slice(0, i).join("/") });
  });
  return out;
}

export function operationsOf(doc: OpenApiDoc): FuzzOperation[] {
  const out: FuzzOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      const pathParams = pathParameters(path);
      const endsWithParam = /\}$/.test(path);
      const role =
        method === "get"
          ? "read"
          : method === "post" && !endsWithParam
            ? "create"
            : method === "delete" && endsWithParam
              ? "delete"
              : "change";
      out.push({
        id: op.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams,
        query: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined,
        documented: new Set(
          Object.keys(op.responses)
            .map(Number)
            .filter((n) => Number.isInteger(n)),
        ),
        public: Array.isArray(op.security) && op.security.length === 0,
        role,
        collection: endsWithParam ? (pathParams[pathParams.length - 1]?.collection ?? path) : path,
      });
    }
  }
  return out;
}

/** A schema with its `$ref` followed (a few levels: the description's schemas are flat). */
export function resolveSchema(doc: OpenApiDoc, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref !== undefined && i < 8; i++) s = doc.components?.schemas[s.$ref.split("/").pop() ?? ""] ?? {};
  return s;
}
