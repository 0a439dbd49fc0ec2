/**
 * Maintainer tool (not part of `npm test`): holds the project's description of the v2 wire,
 * test/support/fixtures/v2-wire.json, against a copy of the service's v2 reference.
 *
 *   npm run build && node dist/scripts/check-v2-wire.js <reference-dir>            # print differences
 *   npm run build && node dist/scripts/check-v2-wire.js <reference-dir> --print    # the reference, as a description
 *
 * The reference directory holds `management-api-v2-paths.txt` and `management-api-v2-schemas.txt`,
 * flattened from the service's OpenAPI description, and `management-api-v2-today.md`, the addendum
 * on what the live API gained since. The addendum is prose and tables, not a description: of it the
 * tool reads the operations it names (every `` `METHOD /v2/path` ``, wildcards and the areas it puts
 * out of scope aside), and holds the description's operations that only the addendum has by method
 * and path: each must be described, and nothing described may be in neither file. The schema file is indentation-structured: a
 * `type=...` line carries a node's type, enum, bounds and required list; `-> Name` refers to another
 * schema; `allOf:`/`oneOf:`/`anyOf:` list sub-nodes; `.field:`, `items:` and
 * `additionalProperties:` open a child node one level deeper.
 *
 * Why a separate tool: the tests read only the checked-in description (a clone has no reference
 * beside it). When the reference changes, run this, read the differences, and edit the description
 * by hand, keeping each fact's `source`. Facts the description took from elsewhere (the addendum on
 * what the live API gained since the copy) show up as differences against the older copy; the
 * `source` printed with each says which they are. Exit status: 0 when nothing differs, 1 otherwise.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./lib/repoRoot";

/** One schema node, in the description's JSON form. */
interface WireNode {
  $ref?: string;
  type?: string[];
  enum?: string[];
  default?: string;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  required?: string[];
  properties?: Record<string, WireNode>;
  items?: WireNode;
  additionalProperties?: WireNode;
  allOf?: WireNode[];
  oneOf?: WireNode[];
  anyOf?: WireNode[];
  source?: string;
}

interface WireParam {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: WireNode;
  source?: string;
}

interface WireOperation {
  method: string;
  path: string;
  operationId: string;
  params: WireParam[];
  requestBody?: string;
  responses: Record<string, string | null>;
  errors: number[];
  source?: string;
}

interface WireDescription {
  operations: WireOperation[];
  schemas: Record<string, WireNode>;
}

const AUGUST = "2026-08";

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

/** `["a", "b"]` (JSON) or `['a', 'b']` (Python repr) to a string list. */
function list(text: string): string[] {
  return JSON.parse(text.replaceAll("'", '"')) as string[];
}

const NUMERIC_BOUNDS = ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"] as const;

/** Reads `type=X enum=[...] required=[...] minimum=1 ...` (or a param's `X ...`) into the node. */
function readAttributes(node: WireNode, text: string): void {
  const type = /^(?:type=)?(\[[^\]]*\]|\S+)/.exec(text)?.[1] ?? "None";
  if (type.startsWith("[")) node.type = [...(node.type ?? []), ...list(type)];
  else if (type !== "None") node.type = [...(node.type ?? []), type];
  const enumText = /enum=(\[[^\]]*\])/.exec(text)?.[1];
  if (enumText) node.enum = list(enumText);
  const defaultText = /default=("[^"]*"|\S+)/.exec(text)?.[1];
  if (defaultText !== undefined) node.default = defaultText;
  const format = /format="([^"]*)"/.exec(text)?.[1];
  if (format !== undefined) node.format = format;
  const pattern = /pattern=("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  if (pattern !== undefined) node.pattern = JSON.parse(pattern) as string;
  for (const bound of NUMERIC_BOUNDS) {
    const value = new RegExp(`\\b${bound}=(-?[\\d.]+)`).exec(text)?.[1];
    if (value !== undefined) node[bound] = Number(value);
  }
  const required = /required=(\[[^\]]*\])/.exec(text)?.[1];
  if (required) node.required = [...(node.required ?? []), ...list(required)];
}

/** One schema node from the lines that describe it (siblings at one indentation). */
function readNode(lines: readonly Line[]): WireNode {
  const node: WireNode = {};
  const readChildren = (children: readonly Line[]) => {
    for (const child of children) {
      const field = /^\.(\w+):/.exec(child.text);
      if (field) node.properties = { ...node.properties, [field[1] ?? ""]: readNode(child.children) };
      else if (child.text === "items:") node.items = readNode(child.children);
      else if (child.text === "additionalProperties:") node.additionalProperties = readNode(child.children);
    }
  };
  for (const line of lines) {
    const combinator = /^(allOf|oneOf|anyOf):$/.exec(line.text)?.[1] as "allOf" | "oneOf" | "anyOf" | undefined;
    if (combinator) node[combinator] = [...(node[combinator] ?? []), ...line.children.map((c) => readNode([c]))];
    else if (line.text.startsWith("-> ")) node.$ref = line.text.slice(3).trim();
    else if (line.text.startsWith("type=")) {
      readAttributes(node, line.text);
      readChildren(line.children);
    } else readChildren(line.children); // `desc:` lines can hold the fields that follow them
  }
  return node;
}

function readSchemas(text: string): Record<string, WireNode> {
  const schemas: Record<string, WireNode> = {};
  for (const block of text.split(/^=== schema /m).slice(1)) {
    const [name = "", ...rest] = block.split("\n");
    schemas[name.trim()] = { ...readNode(lineTree(rest)), source: AUGUST };
  }
  return schemas;
}

/** A param's type: `integer minimum=1`, `array<Product>`, `LogSource`. */
function paramSchema(text: string): WireNode {
  const array = /^array<(\w+)>/.exec(text);
  if (array) return { type: ["array"], items: paramSchema(array[1] ?? "") };
  if (/^[A-Z]/.test(text)) return { $ref: /^\w+/.exec(text)?.[0] ?? "" };
  const node: WireNode = {};
  readAttributes(node, text);
  return node;
}

function readOperations(text: string): WireOperation[] {
  const operations: WireOperation[] = [];
  for (const block of text.split(/^### /m).slice(1)) {
    const [head = "", ...lines] = block.split("\n");
    const match = /^(\w+) \/v2(\S*)\s+opId=(\w+)/.exec(head);
    if (!match) throw new Error(`unreadable operation line: ${head}`);
    const op: WireOperation = {
      method: match[1] ?? "",
      path: match[2] ?? "",
      operationId: match[3] ?? "",
      params: [],
      responses: {},
      errors: [],
      source: AUGUST,
    };
    for (const line of lines.map((l) => l.trim())) {
      const param = /^param (path|query|header) ([\w-]+): (.*?)(?: -- .*)?$/.exec(line);
      if (param) {
        const spec = param[3] ?? "";
        op.params.push({
          name: param[2] ?? "",
          in: param[1] as WireParam["in"],
          required: /(^|\s)required(\s|$)/.test(spec),
          schema: paramSchema(spec.replace(/(^|\s)required(?=\s|$)/, "").trim()),
        });
      }
      const body = /^requestBody application\/json (\w+)/.exec(line);
      if (body?.[1]) op.requestBody = body[1];
      const response = /^resp (\d{3}) .*?\{(.*)\}/.exec(line);
      if (response) op.responses[response[1] ?? ""] = /'application\/json': '(\w+)'/.exec(response[2] ?? "")?.[1] ?? null;
      const errors = /^errors \(.*?\): (.*)$/.exec(line);
      if (errors)
        op.errors = (errors[1] ?? "")
          .split(/\s+/)
          .filter((code) => /^\d{3}$/.test(code))
          .map(Number);
    }
    operations.push(op);
  }
  return operations;
}

/** Areas the addendum names but leaves out of scope (its section 0: "/v2/sandboxes/*, /v2/organization*"). */
const OUT_OF_SCOPE = [/^\/sandboxes(\/|$)/, /^\/organization/];

/** `METHOD /path` (without /v2) of every operation the addendum names, wildcards and out-of-scope areas aside. */
export function readTodayOperations(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) \/v2(\/[^`\s]*)`/g)) {
    const [, method = "", path = ""] = match;
    if (path.includes("*") || OUT_OF_SCOPE.some((area) => area.test(path))) continue;
    found.add(`${method} ${path}`);
  }
  return found;
}

export function readReference(dir: string): WireDescription {
  return {
    operations: readOperations(readFileSync(join(dir, "management-api-v2-paths.txt"), "utf8")),
    schemas: readSchemas(readFileSync(join(dir, "management-api-v2-schemas.txt"), "utf8")),
  };
}

/** Every way `described` differs from `reference`, as `path: what`; `source` keys are not facts. */
function differences(described: unknown, reference: unknown, at: string, source: string, out: string[]): void {
  const label = (s: string) => (s === AUGUST ? "" : ` [described from ${s}]`);
  if (
    described !== null &&
    typeof described === "object" &&
    reference !== null &&
    typeof reference === "object" &&
    Array.isArray(described) === Array.isArray(reference)
  ) {
    const d = described as Record<string, unknown>;
    const r = reference as Record<string, unknown>;
    const own = typeof d["source"] === "string" ? (d["source"] as string) : source;
    for (const key of new Set([...Object.keys(d), ...Object.keys(r)])) {
      if (key === "source") continue;
      const where = Array.isArray(described) ? `${at}[${key}]` : `${at}.${key}`;
      if (!(key in r)) out.push(`${where}: in the description only${label(sourceOf(d[key], own))}`);
      else if (!(key in d)) out.push(`${where}: in the reference only (${JSON.stringify(r[key])})`);
      else differences(d[key], r[key], where, own, out);
    }
    return;
  }
  if (JSON.stringify(described) !== JSON.stringify(reference))
    out.push(`${at}: ${JSON.stringify(described)} in the description, ${JSON.stringify(reference)} in the reference${label(source)}`);
}

function sourceOf(value: unknown, inherited: string): string {
  return value !== null && typeof value === "object" && typeof (value as { source?: unknown }).source === "string"
    ? (value as { source: string }).source
    : inherited;
}

function main(argv: readonly string[]): number {
  const [dir, flag] = argv;
  if (!dir || (flag !== undefined && flag !== "--print")) {
    process.stderr.write("usage: node dist/scripts/check-v2-wire.js <reference-dir> [--print]\n");
    return 2;
  }
  const reference = readReference(dir);
  if (flag === "--print") {
    process.stdout.write(`${JSON.stringify(reference, null, 2)}\n`);
    return 0;
  }
  const described = JSON.parse(readFileSync(join(repoRoot(), "test", "support", "fixtures", "v2-wire.json"), "utf8")) as WireDescription;
  const found: string[] = [];
  const key = (op: WireOperation) => `${op.method} ${op.path}`;
  // The addendum's own operations (not in the August copy) are held by method and path.
  const inCopy = new Set(reference.operations.map(key));
  const addendum = [...readTodayOperations(readFileSync(join(dir, "management-api-v2-today.md"), "utf8"))].filter((op) => !inCopy.has(op));
  const describedKeys = new Set(described.operations.map(key));
  for (const op of addendum) if (!describedKeys.has(op)) found.push(`operations: ${op} is in the addendum only (not described)`);
  const fromCopy = described.operations.filter((op) => !addendum.includes(key(op)));
  // Operations compare by id, not by position.
  const byId = (ops: readonly WireOperation[]) => Object.fromEntries(ops.map((op) => [op.operationId, op]));
  differences(byId(fromCopy), byId(reference.operations), "operations", AUGUST, found);
  process.stdout.write(`${addendum.length} operation(s) of the addendum, held by method and path\n`);
  differences(described.schemas, reference.schemas, "schemas", AUGUST, found);
  for (const line of found) process.stdout.write(`${line}\n`);
  process.stdout.write(`${found.length} difference(s)\n`);
  return found.length === 0 ? 0 : 1;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
