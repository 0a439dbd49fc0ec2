/**
 * Reads the service's v2 reference (../shared/reference/management-api-v2-paths.txt and
 * management-api-v2-schemas.txt, flattened from the service's own OpenAPI description) into
 * plain structures the conformance test can hold the emulator's OpenAPI against.
 *
 * The schema file is indentation-structured: a `type=...` line carries a node's type, enum and
 * required list; `-> Name` refers to another schema; `allOf:`/`oneOf:`/`anyOf:` list sub-nodes;
 * `.field:`, `items:` and `additionalProperties:` open a child node one level deeper.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface RefNode {
  ref?: string;
  /** JSON types; "null" among them means nullable. Empty: any value. */
  types: string[];
  enum?: string[];
  /** The documented default, as JSON text (`300000`, `"OFF"`). */
  default?: string;
  required: string[];
  properties: Map<string, RefNode>;
  items?: RefNode;
  additionalProperties?: RefNode;
  allOf: RefNode[];
  oneOf: RefNode[];
  anyOf: RefNode[];
}

export interface RefParam {
  name: string;
  in: "path" | "query" | "header";
  schema: RefNode;
}

export interface RefOperation {
  method: string;
  /** Without the /v2 prefix, as the emulator's document (servers: /api/v2) spells it. */
  path: string;
  operationId: string;
  params: RefParam[];
  requestBody?: string;
  /** Success status -> response schema name (undefined: no body). */
  responses: Map<number, string | undefined>;
  /** Documented error statuses (problem+json), without `default`. */
  errors: number[];
}

export interface Reference {
  schemas: Map<string, RefNode>;
  operations: RefOperation[];
}

const REFERENCE_DIR = join(__dirname, "..", "..", "..", "shared", "reference");

interface Line {
  indent: number;
  text: string;
  children: Line[];
}

function lineTree(lines: readonly string[]): Line[] {
  const root: Line = { indent: -1, text: "", children: [] };
  const stack: Line[] = [root];
  for (const raw of lines) {
    if (raw.trim() === "") continue;
    const line: Line = { indent: raw.length - raw.trimStart().length, text: raw.trim(), children: [] };
    while ((stack.at(-1) as Line).indent >= line.indent) stack.pop();
    (stack.at(-1) as Line).children.push(line);
    stack.push(line);
  }
  return root.children;
}

function emptyNode(): RefNode {
  return { types: [], required: [], properties: new Map(), allOf: [], oneOf: [], anyOf: [] };
}

/** `["a", "b"]` (JSON) or `['a', 'b']` (Python repr) to a string list. */
function list(text: string): string[] {
  return JSON.parse(text.replaceAll("'", '"')) as string[];
}

/** Reads `type=X enum=[...] required=[...]` (or a param's `X enum=[...]`) into the node. */
function readAttributes(node: RefNode, text: string): void {
  const type = /^(?:type=)?(\[[^\]]*\]|\S+)/.exec(text)?.[1] ?? "None";
  if (type.startsWith("[")) node.types.push(...list(type));
  else if (type !== "None") node.types.push(type);
  const enumText = /enum=(\[[^\]]*\])/.exec(text)?.[1];
  if (enumText) node.enum = list(enumText);
  const defaultText = /default=("[^"]*"|\S+)/.exec(text)?.[1];
  if (defaultText !== undefined) node.default = defaultText;
  const required = /required=(\[[^\]]*\])/.exec(text)?.[1];
  if (required) node.required.push(...list(required));
}

/** One schema node from the lines that describe it (siblings at one indentation). */
function readNode(lines: readonly Line[]): RefNode {
  const node = emptyNode();
  const readChildren = (children: readonly Line[]) => {
    for (const child of children) {
      const field = /^\.(\w+):/.exec(child.text);
      if (field) node.properties.set(field[1] ?? "", readNode(child.children));
      else if (child.text === "items:") node.items = readNode(child.children);
      else if (child.text === "additionalProperties:") node.additionalProperties = readNode(child.children);
    }
  };
  for (const line of lines) {
    const combinator = /^(allOf|oneOf|anyOf):$/.exec(line.text)?.[1] as "allOf" | "oneOf" | "anyOf" | undefined;
    if (combinator) node[combinator].push(...line.children.map((c) => readNode([c])));
    else if (line.text.startsWith("-> ")) node.ref = line.text.slice(3).trim();
    else if (line.text.startsWith("type=")) {
      readAttributes(node, line.text);
      readChildren(line.children);
    } else readChildren(line.children); // `desc:` lines can hold the fields that follow them
  }
  return node;
}

function readSchemas(text: string): Map<string, RefNode> {
  const schemas = new Map<string, RefNode>();
  for (const block of text.split(/^=== schema /m).slice(1)) {
    const [name = "", ...rest] = block.split("\n");
    schemas.set(name.trim(), readNode(lineTree(rest)));
  }
  return schemas;
}

/** A param's type: `integer minimum=1`, `array<Product>`, `LogSource`. */
function paramSchema(text: string): RefNode {
  const array = /^array<(\w+)>/.exec(text);
  if (array) return { ...emptyNode(), types: ["array"], items: paramSchema(array[1] ?? "") };
  if (/^[A-Z]/.test(text)) return { ...emptyNode(), ref: /^\w+/.exec(text)?.[0] ?? "" };
  const node = emptyNode();
  readAttributes(node, text);
  return node;
}

function readOperations(text: string): RefOperation[] {
  const operations: RefOperation[] = [];
  for (const block of text.split(/^### /m).slice(1)) {
    const [head = "", ...lines] = block.split("\n");
    const match = /^(\w+) \/v2(\S*)\s+opId=(\w+)/.exec(head);
    if (!match) throw new Error(`unreadable operation line: ${head}`);
    const op: RefOperation = { method: match[1] ?? "", path: match[2] ?? "", operationId: match[3] ?? "", params: [], responses: new Map(), errors: [] };
    for (const line of lines.map((l) => l.trim())) {
      const param = /^param (path|query|header) ([\w-]+): (.*?)(?: -- .*)?$/.exec(line);
      if (param) op.params.push({ in: param[1] as RefParam["in"], name: param[2] ?? "", schema: paramSchema(param[3] ?? "") });
      const body = /^requestBody application\/json (\w+)/.exec(line);
      if (body?.[1]) op.requestBody = body[1];
      const response = /^resp (\d{3}) .*?\{(.*)\}/.exec(line);
      if (response) op.responses.set(Number(response[1]), /'application\/json': '(\w+)'/.exec(response[2] ?? "")?.[1]);
      const errors = /^errors \(.*?\): (.*)$/.exec(line);
      if (errors) op.errors = (errors[1] ?? "").split(/\s+/).filter((code) => /^\d{3}$/.test(code)).map(Number);
    }
    operations.push(op);
  }
  return operations;
}

let cached: Reference | undefined;

export function loadV2Reference(): Reference {
  cached ??= {
    schemas: readSchemas(readFileSync(join(REFERENCE_DIR, "management-api-v2-schemas.txt"), "utf8")),
    operations: readOperations(readFileSync(join(REFERENCE_DIR, "management-api-v2-paths.txt"), "utf8")),
  };
  return cached;
}
