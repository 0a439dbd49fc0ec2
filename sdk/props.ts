// The property bag a resource class registers: every output the service computes (undefined until
// the provider fills it, so that each is an Output of the class) with the user's arguments on top.
// An argument the user did not give is never an output (the provider records only what was
// declared), so it is not registered either: the engine's work per registered output is most of
// what a preview of many resources spends. Its class property is a known `undefined` instead.
// The names come from plain lists (model/fields/outputArguments.ts), not the field tables, so that
// a program's load does not load the tables' validators.
import * as pulumi from "@pulumi/pulumi";
import type { ResourceOutputs } from "../model/fields/outputArguments";
import { preloadSqliteQuietly } from "./quietSerializer";

preloadSqliteQuietly();

export function registeredProps(outputs: ResourceOutputs, args: object, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of outputs.computed) props[key] = undefined;
  return Object.assign(props, args, overrides);
}

/** Gives each argument output that was not registered (see above) its value: a known undefined. */
export function withUndeclaredOutputs(resource: pulumi.Resource, outputs: ResourceOutputs, registered: Record<string, unknown>): void {
  const target = resource as unknown as Record<string, unknown>;
  for (const key of outputs.all) if (!(key in registered)) target[key] = pulumi.output(undefined);
}

/** The organization the engine names, or "" where it names none (test mocks without one). */
function organization(): string {
  try {
    return pulumi.getOrganization();
  } catch {
    return "";
  }
}

/** What the SDK reads of a parent: Pulumi's own record of its name and type (set by every Resource constructor). */
interface ParentRecord {
  __name?: unknown;
  __pulumiType?: unknown;
  __parentResource?: ParentRecord;
}

/**
 * The stack resource a create is for, as the `__owner` input (model/kinds/index.ts OWNER_INPUT): the
 * organization, project and stack, the chain of parents' types and names, the type and the name.
 * Two resources of one stack never share it (their URNs differ), and no other stack or project has
 * it, so the provider can prove that a resource it finds on the service was made for this one
 * (provider/resources/ownership.ts). Read synchronously from the parents' own records: depending on
 * a parent's URN output would make the resource wait on the component that contains it.
 */
export function ownerIdentity(type: string, name: string, opts: pulumi.ResourceOptions | undefined): string {
  const parents: string[] = [];
  for (let parent = opts?.parent as ParentRecord | undefined; parent; parent = parent.__parentResource) {
    if (parent.__pulumiType === "pulumi:pulumi:Stack") break;
    parents.unshift(`${String(parent.__pulumiType)}::${String(parent.__name)}`);
  }
  const stack = `${organization()}/${pulumi.getProject()}/${pulumi.getStack()}`;
  return [stack, ...parents, `${type}::${name}`].join("|");
}
