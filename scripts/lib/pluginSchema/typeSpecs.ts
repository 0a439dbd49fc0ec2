// A declared TypeScript type as a package schema type: Input/Output/Promise unwrapped, string,
// number, boolean (literal unions as their base type: the documentation names the values), Integer
// (client/integer.ts) as integer, lists, string-keyed records as maps, and the SDK's object types
// (CostEstimate, GpuType, ...) as named object types of the package (`#/types/gpucloud:index:<Name>`).

import * as ts from "typescript";
import { typeToken } from "../../../provider/plugin/tokens";
import type { SdkSource } from "./sdkSource";

export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The package's object types, collected as properties name them. */
export type ObjectTypes = Map<string, ObjectTypeSpec>;

const WRAPPERS = new Set(["pulumi.Input", "pulumi.Output", "Promise", "Input", "Output"]);

/** The schema type of a declared type; named object types are added to `types`. */
export function specOf(node: ts.TypeNode | undefined, source: SdkSource, types: ObjectTypes): TypeSpec {
  if (node === undefined) return { $ref: "pulumi.json#/Any" };
  if (ts.isParenthesizedTypeNode(node)) return specOf(node.type, source, types);
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return { $ref: "pulumi.json#/Any" };
  }
  if (ts.isLiteralTypeNode(node)) return literalSpec(node);
  if (ts.isArrayTypeNode(node)) return { type: "array", items: specOf(node.elementType, source, types) };
  if (ts.isUnionTypeNode(node)) return unionSpec(node, source, types);
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText();
    const [first, second] = node.typeArguments ?? [];
    if (WRAPPERS.has(name)) return specOf(first, source, types);
    if (name === "Array") return { type: "array", items: specOf(first, source, types) };
    // A Date argument crosses the wire as its RFC 3339 string.
    if (name === "Date") return { type: "string" };
    if (name === "Record") return { type: "object", additionalProperties: specOf(second, source, types) };
    // A whole number (client/integer.ts): `int` in the Python and Go SDKs, where `number` is a float.
    if (source.isInteger(node)) return { type: "integer" };
    const referenced = source.referenced(node);
    if (referenced) return { $ref: `#/types/${objectType(referenced.name, referenced.declaration, source, types)}` };
    const aliased = source.aliasedType(node);
    if (aliased) return specOf(aliased, source, types);
  }
  throw new Error(`plugin schema: no schema type for the declared type \`${node.getText()}\``);
}

function literalSpec(node: ts.LiteralTypeNode): TypeSpec {
  if (ts.isStringLiteral(node.literal)) return { type: "string" };
  if (ts.isNumericLiteral(node.literal)) return { type: "number" };
  if (node.literal.kind === ts.SyntaxKind.TrueKeyword || node.literal.kind === ts.SyntaxKind.FalseKeyword) return { type: "boolean" };
  throw new Error(`plugin schema: no schema type for the literal \`${node.getText()}\``);
}

/** A union without undefined and null; literals of one kind collapse to their kind; more kinds become oneOf. */
function unionSpec(node: ts.UnionTypeNode, source: SdkSource, types: ObjectTypes): TypeSpec {
  const members = node.types.filter(
    (t) =>
      t.kind !== ts.SyntaxKind.UndefinedKeyword &&
      !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) &&
      t.kind !== ts.SyntaxKind.NullKeyword,
  );
  const specs: TypeSpec[] = [];
  for (const member of members) {
    const spec = specOf(member, source, types);
    if (!specs.some((known) => JSON.stringify(known) === JSON.stringify(spec))) specs.push(spec);
  }
  const [only] = specs;
  if (specs.length === 1 && only) return only;
  return { oneOf: specs };
}

/** Registers an SDK interface as a named object type; its token (GpuTypeV2 is the SDK's GpuType). */
function objectType(name: string, declaration: ts.InterfaceDeclaration, source: SdkSource, types: ObjectTypes): string {
  const token = typeToken(name.replace(/V2$/, ""));
  if (types.has(token)) return token;
  const spec: ObjectTypeSpec = { type: "object", properties: {} };
  types.set(token, spec);
  const required: string[] = [];
  for (const property of source.interfaceMembers(declaration)) {
    spec.properties[property.name] = {
      ...specOf(property.type, source, types),
      ...(property.doc ? { description: property.doc } : {}),
    };
    if (!property.optional) required.push(property.name);
  }
  const doc = source.declarationDoc(declaration);
  if (doc) spec.description = doc;
  if (required.length > 0) spec.required = required;
  return token;
}
