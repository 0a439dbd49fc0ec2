// The shape every policy of the pack shares: a name, a description, a default enforcement level, a
// config schema the engine validates (`--policy-pack-config`), and a check over this package's
// resources that returns the violations' messages. Config is parsed again here, so a policy never
// runs on a value its schema would refuse, and the JSON schema is derived from the same zod schema.

import type { PolicyConfigSchema, PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { z } from "zod";
import { closest } from "../../model/fields/validation";
import { quote, type Props } from "../../model/fields/values";
import { gpuResourceOf, plainProps, type GpuResource, type PolicyEnforcementLevel } from "./resources";

/** The JSON schema of a policy's config, derived from its zod schema (fields with a default are optional). */
function configSchemaOf(schema: z.ZodObject): PolicyConfigSchema {
  const json = z.toJSONSchema(schema, { io: "input" }) as { properties?: Record<string, PolicyConfigJSONSchema>; required?: string[] };
  return { properties: json.properties ?? {}, ...(json.required && json.required.length > 0 ? { required: json.required } : {}) };
}

/** The policy's config, its defaults applied; a value the schema refuses fails with the key, the value and the fix. */
function configOf<C>(policyName: string, schema: z.ZodType<C>, raw: object): C {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = issue?.path.join(".") ?? "";
  let given: unknown = raw;
  for (const part of issue?.path ?? []) given = (given as Record<PropertyKey, unknown> | undefined)?.[part as PropertyKey];
  throw new Error(
    `policy ${policyName}: config ${key ? `${key} ` : ""}${quote(given)}: ${issue?.message ?? "invalid"}; fix the "${policyName}" entry of the --policy-pack-config file`,
  );
}

interface PolicyDefinition<C> {
  name: string;
  description: string;
  enforcementLevel: PolicyEnforcementLevel;
  config: z.ZodType<C> & z.ZodObject;
}

/** A policy on each of this package's resources (either type token); other resources are left alone. */
export function gpuResourcePolicy<C>(
  def: PolicyDefinition<C> & { check: (resource: GpuResource, config: C) => string[] },
): ResourceValidationPolicy {
  return {
    name: def.name,
    description: def.description,
    enforcementLevel: def.enforcementLevel,
    configSchema: configSchemaOf(def.config),
    validateResource: (args, reportViolation) => {
      const resource = gpuResourceOf(args);
      if (resource === undefined) return;
      const config = configOf(def.name, def.config, args.getConfig());
      for (const message of def.check(resource, config)) reportViolation(message, args.urn);
    },
  };
}

/** A resource of the stack as a stack policy reads it: its values, and what it depends on by URN. */
export interface StackResource {
  type: string;
  name: string;
  urn: string;
  props: Props;
  /** The type token of its parent (a component such as EndpointRollout), if any. */
  parentType?: string;
  /** URNs of the resources each argument depends on (e.g. a smoke test's `endpointId` on its endpoint). */
  propertyDependencies: Record<string, string[]>;
  /** URNs of every resource it depends on. */
  dependencies: string[];
}

/** A violation of a stack policy: the message, and the resource it is about (none: the stack). */
export interface StackViolation {
  message: string;
  urn?: string;
}

function stackResourceOf(r: PolicyResource): StackResource {
  const propertyDependencies: Record<string, string[]> = {};
  for (const [key, deps] of Object.entries(r.propertyDependencies ?? {})) propertyDependencies[key] = deps.map((d) => d.urn);
  return {
    type: r.type,
    name: r.name,
    urn: r.urn,
    props: plainProps(r),
    ...(r.parent ? { parentType: r.parent.type } : {}),
    propertyDependencies,
    dependencies: (r.dependencies ?? []).map((d) => d.urn),
  };
}

/** A policy on the whole stack (e.g. what tests each endpoint), run once the program has declared everything. */
export function gpuStackPolicy<C>(
  def: PolicyDefinition<C> & { check: (resources: StackResource[], config: C) => StackViolation[] },
): StackValidationPolicy {
  return {
    name: def.name,
    description: def.description,
    enforcementLevel: def.enforcementLevel,
    configSchema: configSchemaOf(def.config),
    validateStack: (args, reportViolation) => {
      const config = configOf(def.name, def.config, args.getConfig());
      for (const v of def.check(args.resources.map(stackResourceOf), config)) reportViolation(v.message, v.urn);
    },
  };
}

/** A list of ids the config may name, checked against the package's own list (a typo names the closest id). */
export function idList(ids: readonly string[], what: string): z.ZodOptional<z.ZodArray<z.ZodString>> {
  return z
    .array(
      z.string().refine((id) => ids.includes(id), {
        error: (issue) => {
          const near = typeof issue.input === "string" ? closest(issue.input, ids) : undefined;
          return `${quote(issue.input)} is not a known ${what}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`;
        },
      }),
    )
    .optional();
}
