// A resource's schema from its field table and its SDK class: each argument and output with the
// SDK's documentation and declared type, `integer` where the table takes whole numbers only (on
// both APIs), `secret` for the table's sensitive fields, `replaceOnChanges` for the fields whose
// change replaces the resource on both APIs, and the required arguments and outputs as declared.

import type { z } from "zod";
import type { ResourceTable } from "../../../model/fields/fieldTable";
import { inputFields, outputNames, tableForBackend } from "../../../model/fields/fieldTable";
import type { DeclaredProperty, SdkSource } from "./sdkSource";
import { specOf, type ObjectTypes, type PropertySpec } from "./typeSpecs";

export interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  required: string[];
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
}

/** Where a resource's SDK declarations are: its file, Args interface and class. */
export interface SdkResource {
  file: string;
  args: string;
  className: string;
}

export function resourceSpec(
  sdk: SdkResource,
  table: ResourceTable<never> | undefined,
  source: SdkSource,
  types: ObjectTypes,
): ResourceSpec {
  const args = source.members(sdk.file, sdk.args);
  const outputs = source.members(sdk.file, sdk.className);
  if (table)
    sameNames(
      `${sdk.args} (sdk/${sdk.file})`,
      args.map((a) => a.name),
      inputFields(table),
    );

  const inputProperties: Record<string, PropertySpec> = {};
  for (const arg of args) inputProperties[arg.name] = propertyOf(arg, table, source, types);

  // The outputs: what the class declares, and the arguments the table records as outputs.
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  const recorded = table ? outputNames(table) : [];
  for (const output of outputs) {
    const asArgument = inputProperties[output.name];
    const own = propertyOf(output, table, source, types);
    properties[output.name] = asArgument ? { ...asArgument, ...(own.description ? { description: own.description } : {}) } : own;
    if (!mayBeUndefined(output)) required.push(output.name);
  }
  for (const name of recorded) {
    if (properties[name]) continue;
    const arg = args.find((a) => a.name === name);
    const spec = inputProperties[name];
    if (!arg || !spec) throw new Error(`plugin schema: ${sdk.args} does not declare ${name}, which the field table records as an output`);
    properties[name] = spec;
    if (!arg.optional) required.push(name);
  }
  return {
    description: source.doc(sdk.file, sdk.className),
    properties,
    required,
    inputProperties,
    requiredInputs: args.filter((a) => !a.optional).map((a) => a.name),
  };
}

function propertyOf(
  property: DeclaredProperty,
  table: ResourceTable<never> | undefined,
  source: SdkSource,
  types: ObjectTypes,
): PropertySpec {
  const spec: PropertySpec = specOf(property.type, source, types);
  const row = table?.fields[property.name];
  const onBoth = table ? (["v1", "v2"] as const).map((backend) => tableForBackend(table, backend).fields[property.name]) : [];
  if (spec.type === "number" && onBoth.length > 0 && onBoth.every((r) => r?.arg !== undefined && wholeNumbersOnly(r.arg)))
    spec.type = "integer";
  return {
    ...spec,
    ...(property.doc ? { description: property.doc } : {}),
    ...(row?.sensitive ? { secret: true } : {}),
    ...(onBoth.length > 0 && onBoth.every((r) => r?.kind === "replace") ? { replaceOnChanges: true } : {}),
  };
}

/**
 * Whether a row's validator takes whole numbers only. Its validators are functions (validation.ts
 * num()), so it is asked: a whole-number validator refuses 0.5 as "not a whole number" before any
 * bound, a validator of numbers passes it or names a bound.
 */
function wholeNumbersOnly(arg: z.ZodType): boolean {
  const parsed = arg.safeParse(0.5);
  return !parsed.success && parsed.error.issues.some((issue) => issue.message.includes("is not a whole number"));
}

/** Whether an output's declared type admits undefined (`pulumi.Output<string | undefined>`). */
function mayBeUndefined(property: DeclaredProperty): boolean {
  return property.optional || /\bundefined\b/.test(property.type?.getText() ?? "");
}

function sameNames(where: string, declared: readonly string[], table: readonly string[]): void {
  const missing = table.filter((name) => !declared.includes(name));
  const extra = declared.filter((name) => !table.includes(name));
  if (missing.length > 0 || extra.length > 0)
    throw new Error(
      `plugin schema: ${where} and the field table disagree: ${[
        missing.length > 0 ? `not declared: ${missing.join(", ")}` : "",
        extra.length > 0 ? `not in the table: ${extra.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ")}`,
    );
}
