// The provider plugin's package schema, generated: resources from the field tables and the SDK's
// classes (resourceSpecs.ts), functions from the SDK's lookups, the provider's settings from the
// plugin's own list of them (provider/plugin/config.ts). `npm run generate` writes it to
// plugin/schema.json; a test holds the checked-in file equal to a fresh generation.

import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCE_KINDS, type ResourceKind } from "../../../model/kinds";
import { namesAreUnique, nounOf } from "../../../model/lookup/lookup";
import { lookupName } from "../../../model/lookup/lookupKey";
import { BILLING_READS, READ_NAMES, type ReadName } from "../../../model/lookup/readNames";
import { PROVIDER_SETTINGS, SECRET_SETTINGS, type ProviderSetting } from "../../../provider/plugin/config";
import {
  ACCOUNT_LIMITS_FUNCTION,
  CATALOG_FUNCTIONS,
  functionToken,
  lookupToken,
  PACKAGE,
  PLUGIN_RESOURCE_KINDS,
  resourceToken,
  typeNameOf,
} from "../../../provider/plugin/tokens";
import { FIELD_TABLES } from "../fieldTables";
import { resourceSpec, type ResourceSpec } from "./resourceSpecs";
import { SdkSource } from "./sdkSource";
import { specOf, type ObjectTypes, type ObjectTypeSpec, type PropertySpec } from "./typeSpecs";

/** The subpath of this package that exports the typed classes over the plugin (`pulumi-gpucloud/plugin`). */
export const PLUGIN_SUBPATH = "plugin";

interface FunctionSpec {
  description: string;
  inputs?: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

/** The schema of the package at `root` (a checkout: it reads sdk/*.ts and package.json). */
export function buildSchema(root: string): Record<string, unknown> {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description: string;
    license: string;
  };
  const source = new SdkSource(root);
  const types: ObjectTypes = new Map();

  const resources: Record<string, ResourceSpec> = {};
  for (const kind of PLUGIN_RESOURCE_KINDS) {
    const type = typeNameOf(kind);
    const sdk = { file: `sdk/${kind}.ts`, args: `${type}Args`, className: type };
    resources[resourceToken(kind)] = resourceSpec(sdk, kind === "accountSshKeys" ? undefined : FIELD_TABLES[kind], source, types);
  }

  const functions: Record<string, FunctionSpec> = {};
  for (const kind of RESOURCE_KINDS) functions[lookupToken(kind)] = lookupSpec(kind, resources[resourceToken(kind)], source);
  for (const name of CATALOG_FUNCTIONS) functions[functionToken(name)] = catalogSpec(name, source, types);
  for (const name of READ_NAMES) functions[functionToken(name)] = readSpec(name, source, types);
  functions[functionToken(ACCOUNT_LIMITS_FUNCTION)] = {
    description: source.doc("sdk/account.ts", ACCOUNT_LIMITS_FUNCTION),
    outputs: objectOf(source.members("model/lookup/accountLimits.ts", "AccountLimits"), source, types),
  };

  return {
    name: PACKAGE,
    displayName: "GPU cloud",
    version: manifest.version,
    description: manifest.description,
    keywords: ["pulumi", PACKAGE, "gpu", "category/cloud", "kind/native"],
    license: manifest.license,
    // supportPack: SDKs of the current layout; the Go SDK gets its own go.mod (module
    // example.com/pulumi-gpucloud/sdk/go), so that it builds and can be referenced where it lies.
    meta: { moduleFormat: "(.*)", supportPack: true },
    // Generated SDKs carry the package's version and register the plugin at that version. The
    // Node.js SDK ships inside this package as its `/plugin` subpath (sdks/nodejs, compiled into
    // dist/sdks/nodejs): its packageName is the module `pulumi import` prints in a TypeScript program.
    language: {
      nodejs: { respectSchemaVersion: true, packageName: `${manifest.name}/${PLUGIN_SUBPATH}` },
      python: { respectSchemaVersion: true, packageName: `pulumi_${PACKAGE}` },
      go: { respectSchemaVersion: true },
      csharp: { respectSchemaVersion: true },
    },
    config: { variables: settingsSpec() },
    provider: {
      description:
        "The provider type for the gpucloud package. By default the stack's `gpucloud:*` configuration configures " +
        "it; an explicit provider takes its own settings, each falling back to its GPUCLOUD_* environment variable " +
        "when unset, never to the stack's configuration.",
      inputProperties: settingsSpec(),
      properties: settingsSpec(),
    },
    resources,
    functions,
    types: Object.fromEntries([...types].sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The provider's settings, each with the environment variable that stands in for it. */
function settingsSpec(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const [name, setting] of Object.entries(PROVIDER_SETTINGS) as [ProviderSetting, (typeof PROVIDER_SETTINGS)[ProviderSetting]][]) {
    const fallback = setting.env ? ` Default: the environment variable ${setting.env}.` : "";
    out[name] = {
      type: "string",
      description: `${setting.description}${fallback}`,
      ...(SECRET_SETTINGS.includes(name) ? { secret: true } : {}),
    };
  }
  return out;
}

/** getPod, getTemplate, ...: by id (or unique name), with the resource's outputs as the SDK's lookup returns them. */
function lookupSpec(kind: ResourceKind, resource: ResourceSpec | undefined, source: SdkSource): FunctionSpec {
  if (!resource) throw new Error(`plugin schema: no resource for the lookup of ${kind}`);
  const byName = namesAreUnique(kind);
  const inputs: Record<string, PropertySpec> = {
    id: { type: "string", description: `The ${nounOf(kind)}'s id (a stack output, or the id the console shows).` },
  };
  if (byName)
    inputs["name"] = {
      type: "string",
      description: `The ${nounOf(kind)}'s name, unique per account (give \`id\` or \`name\`).`,
    };
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  const info = `${typeNameOf(kind)}Info`;
  for (const { name, optional } of source.propertiesOfType("sdk/lookups.ts", info)) {
    const spec =
      name === "id"
        ? { type: "string" as const, description: `The ${nounOf(kind)}'s id: what \`adoptId\` and \`pulumi import\` take.` }
        : resource.properties[name];
    if (!spec) throw new Error(`plugin schema: ${info} has ${name}, which ${typeNameOf(kind)} does not output`);
    // A function's result replaces nothing; secret stays (a pod's env is secret in the result too).
    const { replaceOnChanges: _replaces, ...result } = spec as PropertySpec;
    properties[name] = result;
    if (!optional) required.push(name);
  }
  return {
    description: source.doc("sdk/lookups.ts", lookupName(kind)),
    inputs: { properties: inputs, ...(byName ? {} : { required: ["id"] }) },
    outputs: { properties, required },
  };
}

/** getGpuTypes, ...: the list as one property named after its entries (a function returns an object). */
function catalogSpec(name: (typeof CATALOG_FUNCTIONS)[number], source: SdkSource, types: ObjectTypes): FunctionSpec {
  const property = `${name[3]?.toLowerCase() ?? ""}${name.slice(4)}`;
  const list = specOf(source.returnType("sdk/catalog.ts", name), source, types);
  const description = source.doc("sdk/catalog.ts", name);
  return {
    description,
    outputs: { properties: { [property]: { ...list, description } }, required: [property] },
  };
}

/**
 * getEndpointWorkers, getPodBilling, ...: the SDK function's first parameter's members as the
 * inputs, its result's members as the outputs, both documented where the SDK declares them.
 */
function readSpec(name: ReadName, source: SdkSource, types: ObjectTypes): FunctionSpec {
  const file = (BILLING_READS as readonly string[]).includes(name) ? "sdk/billingV2.ts" : "sdk/reads.ts";
  const inputs = objectOf(source.parameterMembers(file, name), source, types);
  const outputs = objectOf(source.returnMembers(file, name), source, types);
  return {
    description: source.doc(file, name),
    inputs: { properties: inputs.properties, ...(inputs.required?.length ? { required: inputs.required } : {}) },
    outputs: { properties: outputs.properties, ...(outputs.required?.length ? { required: outputs.required } : {}) },
  };
}

function objectOf(members: ReturnType<SdkSource["members"]>, source: SdkSource, types: ObjectTypes): Omit<ObjectTypeSpec, "type"> {
  const properties: Record<string, PropertySpec> = {};
  for (const member of members)
    properties[member.name] = { ...specOf(member.type, source, types), ...(member.doc ? { description: member.doc } : {}) };
  return { properties, required: members.filter((m) => !m.optional).map((m) => m.name) };
}
