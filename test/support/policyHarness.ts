/**
 * Runs a policy of pulumi-gpucloud/policy as the policy framework would, without an engine: a
 * resource policy on one resource declared either way (a TypeScript program's dynamic resource or
 * the provider plugin's `gpucloud:index:*`), a stack policy on a list of resources; returns the
 * violations' messages.
 */
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import type { ResourceKind } from "../../model/kinds";
import { typeTokensOf } from "../../sdk/policy/resources";

/** How the resource was declared: a TypeScript program's dynamic resource, or through the provider plugin. */
export type Declaration = "dynamic" | "plugin";
export const DECLARATIONS: readonly Declaration[] = ["dynamic", "plugin"];

/** The engine's placeholder for a value not known until apply. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function typeOf(kind: ResourceKind, via: Declaration): string {
  return typeTokensOf(kind)[via];
}

export function runResourcePolicy(
  policy: ResourceValidationPolicy,
  resource: { kind: ResourceKind; via: Declaration; name?: string; props: Record<string, unknown>; type?: string },
  config: object = {},
): string[] {
  const messages: string[] = [];
  const name = resource.name ?? "subject";
  const type = resource.type ?? typeOf(resource.kind, resource.via);
  const validate = policy.validateResource;
  if (validate === undefined) throw new Error(`policy ${policy.name} validates no resource`);
  const validations = Array.isArray(validate) ? validate : [validate];
  for (const v of validations) {
    void v(
      {
        type,
        name,
        urn: `urn:pulumi:test::project::${type}::${name}`,
        props: resource.props,
        opts: {} as never,
        stackTags: new Map(),
        isType: () => false,
        asType: () => undefined,
        getConfig: <T extends object>() => config as T,
        notApplicable: () => {
          throw new Error("not applicable");
        },
      },
      (message) => messages.push(message),
    );
  }
  return messages;
}

/** A resource of a stack: its type token, name, values and what it depends on. */
export interface StackEntry {
  type: string;
  name: string;
  props: Record<string, unknown>;
  /** Names of resources each argument depends on. */
  propertyDependencies?: Record<string, string[]>;
  /** Name of its parent. */
  parent?: string;
}

export const urnOf = (entry: Pick<StackEntry, "type" | "name">): string => `urn:pulumi:test::project::${entry.type}::${entry.name}`;

export function runStackPolicy(policy: StackValidationPolicy, entries: StackEntry[], config: object = {}): string[] {
  const byName = new Map<string, PolicyResource>();
  const resources: PolicyResource[] = entries.map((e) => {
    const r = {
      type: e.type,
      name: e.name,
      urn: urnOf(e),
      props: e.props,
      opts: {} as never,
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    } as PolicyResource;
    byName.set(e.name, r);
    return r;
  });
  entries.forEach((e, i) => {
    const r = resources[i] as PolicyResource;
    for (const [key, names] of Object.entries(e.propertyDependencies ?? {})) {
      const deps = names.map((n) => byName.get(n)).filter((d): d is PolicyResource => d !== undefined);
      r.propertyDependencies[key] = deps;
      r.dependencies.push(...deps);
    }
    if (e.parent !== undefined) {
      const parent = byName.get(e.parent);
      if (parent) r.parent = parent;
    }
  });
  const messages: string[] = [];
  void policy.validateStack(
    {
      resources,
      stackTags: new Map(),
      getConfig: <T extends object>() => config as T,
      notApplicable: () => {
        throw new Error("not applicable");
      },
    },
    (message) => messages.push(message),
  );
  return messages;
}
