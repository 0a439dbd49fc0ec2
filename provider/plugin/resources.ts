// The resources the plugin serves, by type token: each kind's one lifecycle (the same providers the
// dynamic resources' shims dispatch to, provider/resources/registry.ts and provider/account), with
// what the SDK's resource classes add around them done here instead:
// - Pod and Endpoint default `name` to the Pulumi resource name;
// - a Secret reports `ref`, the placeholder env values take (Secret.ref in the SDK).
// Values cross in plain form: the server unwraps secrets before and wraps them after (protocol.ts).

import type * as pulumi from "@pulumi/pulumi";
import { secretPlaceholder } from "../../client/secrets";
import { sensitiveOf } from "../../model/lookup/lookup";
import { isPresent, type Props } from "../../model/fields/values";
import { OWNER_INPUT } from "../../model/kinds";
import { accountSshKeysProviderLogging } from "../account/registry";
import type { ProviderDeps } from "../resources/deps";
import type { LifecycleDiff } from "../resources/lifecycle";
import { buildResourceProviders } from "../resources/registry";
import { PLUGIN_RESOURCE_KINDS, resourceToken, type PluginResourceKind } from "./tokens";

export interface PluginResource {
  readonly kind: PluginResourceKind;
  /** Fields whose values are always kept secret (the table's sensitive rows). */
  readonly sensitive: readonly string[];
  /** `name`: the resource's name in the program, for a default; `urn`: the resource's, its owner (ownership.ts). */
  check(name: string, olds: Props, news: Props, urn: string): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult & Partial<Pick<LifecycleDiff, "detailedDiff">>>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  /** Without props: an import (what a program would declare, as inputs). */
  read(id: string, props: Props | undefined): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}

/** Kinds whose SDK class names the resource after the Pulumi resource when no `name` is given. */
const NAMED_AFTER_RESOURCE: ReadonlySet<PluginResourceKind> = new Set(["pod", "endpoint"]);

/** Every resource the plugin serves, by type token, on `deps` (the plugin's log and connection). */
export function pluginResources(deps: ProviderDeps): ReadonlyMap<string, PluginResource> {
  const lifecycles = buildResourceProviders(deps);
  const sshKeys = accountSshKeysProviderLogging(deps.log) as Required<pulumi.dynamic.ResourceProvider>;
  const out = new Map<string, PluginResource>();
  for (const kind of PLUGIN_RESOURCE_KINDS) {
    const lifecycle = kind === "accountSshKeys" ? undefined : lifecycles[kind];
    const provider = lifecycle ?? sshKeys;
    const withRef = kind === "secret" ? withSecretRef : <R>(result: R): R => result;
    out.set(resourceToken(kind), {
      kind,
      sensitive: kind === "accountSshKeys" ? [] : sensitiveOf(kind),
      check: (name, olds, news, urn) => {
        const named = NAMED_AFTER_RESOURCE.has(kind) && !isPresent(news, "name") ? { ...news, name } : news;
        // A create through the plugin is owned by its URN: what proves a resource on the service was made for it.
        return provider.check(olds, { ...named, [OWNER_INPUT]: urn });
      },
      diff: (id, olds, news) => (lifecycle ? lifecycle.diffInDetail(id, olds, news) : provider.diff(id, olds, news)),
      create: async (inputs) => withRef(await provider.create(inputs)),
      read: async (id, props) => withRef(await provider.read(id, props)),
      update: async (id, olds, news) => withRef(await provider.update(id, olds, news)),
      delete: (id, props) => provider.delete(id, props),
    });
  }
  return out;
}

/** A Secret's result with `ref` beside its outputs (never an input). */
function withSecretRef<R extends { outs?: Props; props?: Props }>(result: R): R {
  const add = (outs: Props | undefined): Props | undefined =>
    outs && typeof outs["name"] === "string" ? { ...outs, ref: secretPlaceholder(outs["name"]) } : outs;
  return {
    ...result,
    ...(result.outs ? { outs: add(result.outs) } : {}),
    ...(result.props ? { props: add(result.props) } : {}),
  };
}
