/**
 * The project's description of the service's v2 wire (fixtures/v2-wire.json), read into the
 * structures the conformance tests hold the emulator against.
 *
 * Where the facts come from: each operation and schema in the file carries `source` ("2026-08": the
 * service's published v2 description as of August 2026; "today §N": the section of the project's
 * notes on what the live API gained since, such as paginated lists, account secrets and limits,
 * container commands, a pod's gpu figures), and so does each fact added later to an older schema.
 * The file is checked against a copy of the reference by scripts/check-v2-wire.ts, a maintainer
 * tool; tests read only the file, so a clone needs nothing beside it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export interface WireNode {
  ref?: string;
  /** JSON types; "null" among them means nullable. Empty: any value. */
  types: string[];
  enum?: string[];
  /** The documented default, as JSON text (`300000`, `"OFF"`). */
  default?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  required: string[];
  properties: Map<string, WireNode>;
  items?: WireNode;
  additionalProperties?: WireNode;
  allOf: WireNode[];
  oneOf: WireNode[];
  anyOf: WireNode[];
}

export interface WireParam {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: WireNode;
}

export interface WireOperation {
  method: string;
  /** Without the /v2 prefix, as the emulator's document (servers: /api/v2) spells it. */
  path: string;
  operationId: string;
  params: WireParam[];
  requestBody?: string;
  /** Success status -> response schema name (undefined: no body). */
  responses: Map<number, string | undefined>;
  /** Documented error statuses (problem+json), without `default`. */
  errors: number[];
  source: string;
  /** A success answer that streams Server-Sent Events: its content type, the schema of each event's `data`, and the data field its `id` repeats. */
  events?: WireEvents;
}

export interface WireEvents {
  contentType: string;
  data: string;
  id: string;
}

export interface Wire {
  schemas: Map<string, WireNode>;
  operations: WireOperation[];
}

interface NodeJson {
  $ref?: string | undefined;
  type?: string[] | undefined;
  enum?: string[] | undefined;
  default?: string | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
  required?: string[] | undefined;
  properties?: Record<string, NodeJson> | undefined;
  items?: NodeJson | undefined;
  additionalProperties?: NodeJson | undefined;
  allOf?: NodeJson[] | undefined;
  oneOf?: NodeJson[] | undefined;
  anyOf?: NodeJson[] | undefined;
  source?: string | undefined;
}

const nodeJson: z.ZodType<NodeJson> = z.lazy(() =>
  z
    .object({
      $ref: z.string().optional(),
      type: z.array(z.string()).optional(),
      enum: z.array(z.string()).optional(),
      default: z.string().optional(),
      format: z.string().optional(),
      pattern: z.string().optional(),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      minLength: z.number().optional(),
      maxLength: z.number().optional(),
      minItems: z.number().optional(),
      maxItems: z.number().optional(),
      required: z.array(z.string()).optional(),
      properties: z.record(z.string(), nodeJson).optional(),
      items: nodeJson.optional(),
      additionalProperties: nodeJson.optional(),
      allOf: z.array(nodeJson).optional(),
      oneOf: z.array(nodeJson).optional(),
      anyOf: z.array(nodeJson).optional(),
      source: z.string().optional(),
    })
    .strict(),
);

const wireJson = z
  .object({
    about: z.string(),
    operations: z.array(
      z
        .object({
          method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
          path: z.string().startsWith("/"),
          operationId: z.string(),
          params: z.array(
            z
              .object({
                name: z.string(),
                in: z.enum(["path", "query", "header"]),
                required: z.boolean(),
                schema: nodeJson,
                source: z.string().optional(),
              })
              .strict(),
          ),
          requestBody: z.string().optional(),
          responses: z.record(z.string().regex(/^\d{3}$/), z.string().nullable()),
          errors: z.array(z.number().int()),
          source: z.string(),
          events: z.object({ contentType: z.string(), data: z.string(), id: z.string(), source: z.string() }).strict().optional(),
        })
        .strict(),
    ),
    schemas: z.record(z.string(), nodeJson),
  })
  .strict();

function toNode(json: NodeJson): WireNode {
  const node: WireNode = {
    types: json.type ?? [],
    required: json.required ?? [],
    properties: new Map(Object.entries(json.properties ?? {}).map(([name, child]) => [name, toNode(child)])),
    allOf: (json.allOf ?? []).map(toNode),
    oneOf: (json.oneOf ?? []).map(toNode),
    anyOf: (json.anyOf ?? []).map(toNode),
  };
  if (json.$ref !== undefined) node.ref = json.$ref;
  if (json.enum) node.enum = json.enum;
  if (json.default !== undefined) node.default = json.default;
  if (json.format !== undefined) node.format = json.format;
  if (json.pattern !== undefined) node.pattern = json.pattern;
  for (const bound of ["minimum", "maximum", "minLength", "maxLength", "maxItems"] as const) {
    const value = json[bound];
    if (value !== undefined) node[bound] = value;
  }
  if (json.items) node.items = toNode(json.items);
  if (json.additionalProperties) node.additionalProperties = toNode(json.additionalProperties);
  return node;
}

export const V2_WIRE_FILE = join(__dirname, "fixtures", "v2-wire.json");

let cached: Wire | undefined;

export function loadV2Wire(): Wire {
  if (cached) return cached;
  const json = wireJson.parse(JSON.parse(readFileSync(V2_WIRE_FILE, "utf8")));
  const schemas = new Map(Object.entries(json.schemas).map(([name, node]) => [name, toNode(node)]));
  const operations = json.operations.map((op): WireOperation => {
    const operation: WireOperation = {
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      params: op.params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: toNode(p.schema) })),
      responses: new Map(Object.entries(op.responses).map(([status, name]) => [Number(status), name ?? undefined])),
      errors: op.errors,
      source: op.source,
    };
    if (op.requestBody !== undefined) operation.requestBody = op.requestBody;
    if (op.events !== undefined) operation.events = { contentType: op.events.contentType, data: op.events.data, id: op.events.id };
    return operation;
  });
  // Every schema name the description uses must be one it defines.
  const refs = new Set<string>();
  const collect = (node: WireNode): void => {
    if (node.ref !== undefined) refs.add(node.ref);
    for (const child of [...node.properties.values(), ...node.allOf, ...node.oneOf, ...node.anyOf]) collect(child);
    if (node.items) collect(node.items);
    if (node.additionalProperties) collect(node.additionalProperties);
  };
  for (const node of schemas.values()) collect(node);
  for (const op of operations) {
    for (const p of op.params) collect(p.schema);
    for (const name of [op.requestBody, ...op.responses.values(), op.events?.data]) if (name !== undefined) refs.add(name);
  }
  const unknown = [...refs].filter((name) => !schemas.has(name));
  if (unknown.length > 0) throw new Error(`${V2_WIRE_FILE} names schemas it does not define: ${unknown.join(", ")}`);
  cached = { schemas, operations };
  return cached;
}

/** A described node with refs and allOf merged in: one object, primitive, array or union. */
export interface FlatNode {
  types: Set<string>;
  nullable: boolean;
  enum?: string[];
  default?: string;
  properties: Map<string, WireNode>;
  required: Set<string>;
  items?: WireNode;
  additionalProperties?: WireNode;
  /** The alternatives of a union (oneOf/anyOf with more than one non-null member). */
  variants: WireNode[];
  /** The schema name, where the node is one. */
  name?: string;
}

export function flattenWire(wire: Wire, node: WireNode): FlatNode {
  const flat: FlatNode = { types: new Set(), nullable: false, properties: new Map(), required: new Set(), variants: [] };
  const merge = (part: FlatNode) => {
    for (const t of part.types) flat.types.add(t);
    flat.nullable ||= part.nullable;
    if (part.enum) flat.enum ??= part.enum;
    if (part.default !== undefined) flat.default ??= part.default;
    for (const [k, v] of part.properties) flat.properties.set(k, v);
    for (const r of part.required) flat.required.add(r);
    if (part.items) flat.items ??= part.items;
    if (part.additionalProperties) flat.additionalProperties ??= part.additionalProperties;
    flat.variants.push(...part.variants);
  };
  if (node.ref !== undefined) {
    const target = wire.schemas.get(node.ref);
    if (!target) throw new Error(`the description names an unknown schema ${node.ref}`);
    merge(flattenWire(wire, target));
    flat.name = node.ref;
  }
  for (const part of node.allOf) merge(flattenWire(wire, part));
  const alternatives = [...node.oneOf, ...node.anyOf];
  const nonNull = alternatives.filter((a) => !(a.types.length === 1 && a.types[0] === "null" && a.ref === undefined));
  if (nonNull.length < alternatives.length) flat.nullable = true;
  if (nonNull.length === 1) merge(flattenWire(wire, nonNull[0] as WireNode));
  else flat.variants.push(...nonNull);
  for (const t of node.types) {
    if (t === "null") flat.nullable = true;
    else flat.types.add(t);
  }
  if (node.enum) flat.enum = node.enum;
  if (node.default !== undefined) flat.default = node.default;
  for (const [k, v] of node.properties) flat.properties.set(k, v);
  for (const r of node.required) flat.required.add(r);
  if (node.items) flat.items = node.items;
  if (node.additionalProperties) flat.additionalProperties = node.additionalProperties;
  if (flat.properties.size > 0 && flat.types.size === 0) flat.types.add("object");
  return flat;
}
