/**
 * Lookups of existing resources: a pod, endpoint, network volume, template or registry auth made
 * by another stack or in the console, read by id (templates and registry auths also by name: in
 * any case, since v2 compares names without regard to case; v2 does not keep them unique, so a
 * name several share fails with a LookupArgsError listing their ids). Each result holds the values its resource class reports as outputs
 * (same names and units), read from the service; fields the service does not report are absent.
 * The result's `id` is what a resource's `adoptId` takes to manage that resource from this stack.
 *
 * Each has a Promise form (inside or outside a program) and an `...Output` form taking Inputs, for
 * use with other stacks' outputs. The Output form is secret when the result holds a sensitive
 * value (a pod's or template's `env`). Both backends (apiUrl ending in
 * /v1 or /v2) give the same fields. A missing id or name fails with a LookupNotFoundError (a
 * NotFoundError) naming the kind and the id.
 *
 * Connection: see LookupOptions (the options, else stack config, else GPUCLOUD_* env).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../model/kinds";
import type { LookupOptions } from "./connection";
import type { Endpoint } from "./endpoint";
import type { NetworkVolume } from "./networkVolume";
import type { Pod } from "./pod";
import type { RegistryAuth } from "./registryAuth";
import type { Secret } from "./secret";
import type { Template } from "./template";

export { LookupNotFoundError, type LookupKey } from "../model/lookup/lookupNotFoundError";
export { LookupArgsError } from "../model/lookup/lookupArgsError";
export { LookupError } from "./programError";

/** A resource class's outputs as plain values: what a lookup of that kind returns. */
export type Resolved<R> = {
  [K in keyof R as K extends "urn" ? never : R[K] extends pulumi.Output<unknown> ? K : never]: R[K] extends pulumi.Output<infer T>
    ? T
    : never;
};

export type PodInfo = Resolved<Pod>;
export type EndpointInfo = Resolved<Endpoint>;
export type NetworkVolumeInfo = Resolved<NetworkVolume>;
export type TemplateInfo = Resolved<Template>;
/** The service never returns a registry auth's credentials: a lookup gives its id and name. */
export type RegistryAuthInfo = Pick<Resolved<RegistryAuth>, "id" | "name">;
/**
 * An account secret: never its value, which the service never returns. `ref` is the placeholder
 * for env values, as `Secret.ref` gives it (without a dependency: the secret is not in this stack).
 */
export type SecretInfo = Pick<Resolved<Secret>, "id" | "name" | "createdAt" | "valueLastUpdatedAt" | "ref"> & { description?: string };

/** By id: the resource's `id` (a stack output, or the id the console shows). */
export interface ByIdArgs {
  id: string;
}
/** By id, or by name (any case) for kinds whose names v1 kept unique; a name several resources share is refused. */
export type ByIdOrNameArgs = ByIdArgs | { name: string };

/** A lookup's arguments with each field an Input, e.g. `{ id: otherStack.getOutput("podId") }`. */
export type LookupInputs<A> = A extends unknown ? { [K in keyof A]: pulumi.Input<A[K]> } : never;

// The call itself (lookupCall.ts) loads on the first lookup, with the clients and the field tables.
function promiseForm<A, R>(kind: ResourceKind): (args: A, options?: LookupOptions) => Promise<R> {
  return async (args, options = {}) => (await import("./lookupCall")).lookUp(kind, args, options) as Promise<R>;
}

function outputForm<A, R>(kind: ResourceKind): (args: LookupInputs<A> | pulumi.Input<A>, options?: LookupOptions) => pulumi.Output<R> {
  return (args, options = {}) => {
    // One apply: a failed lookup rejects one chain, not one per derived Output.
    return pulumi.output(args as pulumi.Input<A>).apply(async (resolved) => {
      const { lookUp, sensitiveOf } = await import("./lookupCall");
      const r = await lookUp(kind, resolved, options);
      return sensitiveOf(kind).some((f) => r[f] !== undefined) ? pulumi.secret(r) : r;
    }) as unknown as pulumi.Output<R>;
  };
}

/** A pod by id: status, `publicIp`, `portMappings`, GPU, prices (USD per hour), sizes (GB) and the rest of Pod's outputs. */
export const getPod = promiseForm<ByIdArgs, PodInfo>("pod");
/** {@link getPod} taking Inputs; secret when the pod reports env. */
export const getPodOutput = outputForm<ByIdArgs, PodInfo>("pod");

/** An endpoint by id: workers (counts), `idleTimeout` (seconds), GPU types, template and the rest of Endpoint's outputs. */
export const getEndpoint = promiseForm<ByIdArgs, EndpointInfo>("endpoint");
/** {@link getEndpoint} taking Inputs. */
export const getEndpointOutput = outputForm<ByIdArgs, EndpointInfo>("endpoint");

/** A network volume by id: `name`, `size` (GB), `dataCenterId` and the rest of NetworkVolume's outputs. */
export const getNetworkVolume = promiseForm<ByIdArgs, NetworkVolumeInfo>("networkVolume");
/** {@link getNetworkVolume} taking Inputs. */
export const getNetworkVolumeOutput = outputForm<ByIdArgs, NetworkVolumeInfo>("networkVolume");

/** A template by id or by name (any case; refused when several share it): image, disk sizes (GB), ports, env and the rest of Template's outputs. */
export const getTemplate = promiseForm<ByIdOrNameArgs, TemplateInfo>("template");
/** {@link getTemplate} taking Inputs; secret when the template reports env. */
export const getTemplateOutput = outputForm<ByIdOrNameArgs, TemplateInfo>("template");

/** Registry credentials by id or by name (any case; refused when several share it): `id` and `name` (the service never returns the password). */
export const getRegistryAuth = promiseForm<ByIdOrNameArgs, RegistryAuthInfo>("registryAuth");
/** {@link getRegistryAuth} taking Inputs. */
export const getRegistryAuthOutput = outputForm<ByIdOrNameArgs, RegistryAuthInfo>("registryAuth");

/**
 * An account secret by id or by name (unique per account; v2 API only): `id` (what a Secret's
 * `adoptId` takes), `name`, `description`, `createdAt`, `valueLastUpdatedAt` and `ref` (the env
 * placeholder). Never the value: the service does not return it.
 */
export function getSecret(args: ByIdOrNameArgs, options: LookupOptions = {}): Promise<SecretInfo> {
  return secretLookup(args, options).then(withRef);
}
/** {@link getSecret} taking Inputs. */
export function getSecretOutput(
  args: LookupInputs<ByIdOrNameArgs> | pulumi.Input<ByIdOrNameArgs>,
  options: LookupOptions = {},
): pulumi.Output<SecretInfo> {
  return secretLookupOutput(args, options).apply(withRef);
}
const secretLookup = promiseForm<ByIdOrNameArgs, Omit<SecretInfo, "ref">>("secret");
const secretLookupOutput = outputForm<ByIdOrNameArgs, Omit<SecretInfo, "ref">>("secret");
/** The secret with its `ref`; the call's module is loaded by then (the lookup itself loaded it). */
async function withRef(info: Omit<SecretInfo, "ref">): Promise<SecretInfo> {
  return (await import("./lookupCall")).secretInfoOf(info) as SecretInfo;
}
