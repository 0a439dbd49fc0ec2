// Placeholder until the resource providers land: every kind refuses with a clear message.
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kinds";

function notImplemented(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  return {
    async create() {
      throw new Error(`pulumi-gpucloud: the ${kind} provider is not implemented yet`);
    },
  };
}

export const resourceProviders: Record<ResourceKind, pulumi.dynamic.ResourceProvider> = {
  pod: notImplemented("pod"),
  endpoint: notImplemented("endpoint"),
  networkVolume: notImplemented("networkVolume"),
  template: notImplemented("template"),
  registryAuth: notImplemented("registryAuth"),
};
