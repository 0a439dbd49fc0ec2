// How a policy sees this package's resources: by the type token the engine reports, the same for
// a TypeScript program (dynamic resources, `pulumi-nodejs:dynamic/gpucloud:Pod`) and for any other
// language through the provider plugin (`gpucloud:index:Pod`), with the arguments under the same
// names (the service's own, from the field tables).

import { isUnknown, quote, type Props } from "../../model/fields/values";
import {
  RESOURCE_KINDS,
  RESOURCE_MODULE,
  RESOURCE_TYPES,
  ROLLOUT_CANDIDATE_TYPE,
  ROLLOUT_SWITCH_TYPE,
  SMOKE_TEST_TYPE,
  type ResourceKind,
} from "../../model/kinds";

/** The prefix of a dynamic resource's type token; the engine names it `pulumi-nodejs:dynamic/<module>:<type>`. */
const DYNAMIC_PREFIX = `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:`;
/** The provider plugin's prefix (`gpucloud:index:<Type>`; held equal to the plugin's own tokens by the tests). */
export const PLUGIN_PREFIX = "gpucloud:index:";

/** The two type tokens of a resource kind: as a TypeScript program's dynamic resource, and through the plugin. */
export function typeTokensOf(kind: ResourceKind): { dynamic: string; plugin: string } {
  return { dynamic: `${DYNAMIC_PREFIX}${RESOURCE_TYPES[kind]}`, plugin: `${PLUGIN_PREFIX}${RESOURCE_TYPES[kind]}` };
}

/** The kind of a resource of this package from its type token, either way it was declared; undefined for any other. */
export function kindOfType(type: string): ResourceKind | undefined {
  const typeName = type.startsWith(DYNAMIC_PREFIX)
    ? type.slice(DYNAMIC_PREFIX.length)
    : type.startsWith(PLUGIN_PREFIX)
      ? type.slice(PLUGIN_PREFIX.length)
      : undefined;
  return typeName === undefined ? undefined : RESOURCE_KINDS.find((kind) => RESOURCE_TYPES[kind] === typeName);
}

/** The components' own resources a stack policy looks for (JobRunner's smoke test, EndpointRollout's steps). */
export const SMOKE_TEST_TOKEN = `${DYNAMIC_PREFIX}${SMOKE_TEST_TYPE}`;
export const ROLLOUT_STEP_TOKENS: readonly string[] = [
  `${DYNAMIC_PREFIX}${ROLLOUT_CANDIDATE_TYPE}`,
  `${DYNAMIC_PREFIX}${ROLLOUT_SWITCH_TYPE}`,
];

/** How a violation counts: `mandatory` fails the preview or update, `advisory` warns, `disabled` skips the policy. */
export type PolicyEnforcementLevel = "advisory" | "mandatory" | "disabled";

/** What a policy receives about a resource (a subset of `@pulumi/policy`'s arguments). */
export interface PolicyResourceView {
  type: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
}

/** One of this package's resources as the policies read it. */
export interface GpuResource {
  kind: ResourceKind;
  /** The resource's name in the program (the last part of its URN). */
  name: string;
  urn: string;
  /** Its arguments as given (checked inputs; a stack policy gets outputs), values not known at preview as {@link UNKNOWN_VALUE}. */
  props: Props;
}

/**
 * The policy framework hands arguments wrapped in a proxy that throws on a value not known at
 * preview, which would turn the whole policy into a "can't run during preview" note. The policies
 * read the plain values instead and skip what is not known (the engine runs them again at `up`,
 * when it is).
 */
const PROXY_TARGET = "__getSpecialProxyTarget";

function plain(props: Record<string, unknown>): Props {
  const target = props[PROXY_TARGET];
  return typeof target === "object" && target !== null ? (target as Props) : props;
}

/** The resource as a policy reads it, or undefined when it is not one of this package's. */
export function gpuResourceOf(view: PolicyResourceView): GpuResource | undefined {
  const kind = kindOfType(view.type);
  return kind === undefined ? undefined : { kind, name: view.name, urn: view.urn, props: plain(view.props) };
}

/** Arguments of any resource, unwrapped as for {@link gpuResourceOf}. */
export function plainProps(view: PolicyResourceView): Props {
  return plain(view.props);
}

/** True when the value is known at this point (not a preview's placeholder for an apply-time value). */
export function known(value: unknown): boolean {
  return value !== undefined && !isUnknown(value);
}

/** A known string, or undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && !isUnknown(value) ? value : undefined;
}

/** A known number, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** The known strings of a list (a list not known at preview gives none). */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && !isUnknown(v)) : [];
}

/** A known string map (e.g. `env`), entries not known at preview left out. */
export function stringMapOf(value: unknown): Array<[string, string]> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string" && !isUnknown(e[1]));
}

/** The label a message names a resource by: `Pod "trainer"`. */
export function labelOf(resource: Pick<GpuResource, "kind" | "name">): string {
  return `${RESOURCE_TYPES[resource.kind]} ${JSON.stringify(resource.name)}`;
}

/** What a violation says: the resource, the argument and its value, the rule, and the fix. */
export interface ViolationText {
  resource: Pick<GpuResource, "kind" | "name">;
  /** The argument at fault, e.g. `imageName` or `env.HF_TOKEN`. */
  field: string;
  /** The value given (shown as JSON). */
  value?: unknown;
  /** How to show the value instead, e.g. redacted where it may be a credential. */
  shown?: string;
  /** The rule broken, in a few words, e.g. `is not an allowed GPU type (allowed: "NVIDIA L4")`. */
  rule: string;
  /** What to do instead. */
  fix: string;
}

/** `Pod "trainer": imageName "acme/trainer:latest" uses the tag latest; use a version tag ...`, in the package's error style. */
export function violationText(v: ViolationText): string {
  return `${labelOf(v.resource)}: ${v.field} ${v.shown ?? quote(v.value)} ${v.rule}; ${v.fix}`;
}
