/**
 * The provider object that Pulumi serializes into every dynamic resource's state (`__provider`).
 *
 * It must capture nothing but the resource kind: each method `require`s this package's installed
 * provider code by name at call time, so credentials never land in state and `update`/`delete`
 * always run the code installed now, not the code that created the resource.
 *
 * Each kind has its own module whose whole `module.exports` is the shim object (see pod.ts etc.).
 * When the package is installed under node_modules, Pulumi's closure serializer recognises a module
 * export and stores just `require("pulumi-gpucloud/provider/shims/<kind>")`, a few hundred bytes.
 * When it is loaded from a checkout (the repo's own demo and tests), the methods below are
 * serialized by value instead; they are written to stay small and self-contained for that case
 * (no captured variables: the kind travels as `this.k`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ProviderKind } from "../../model/kinds";

export interface ProviderShim extends pulumi.dynamic.ResourceProvider {
  /** The resource kind this shim dispatches to. */
  readonly k: ProviderKind;
}

export function shimFor(kind: ProviderKind): ProviderShim {
  // biome-ignore format: a checkout serializes these methods' compiled text into state; a new layout would be a new provider text
  return {
    k: kind,
    check(...a) { return require("pulumi-gpucloud/provider").d(this, "check", a); },
    diff(...a) { return require("pulumi-gpucloud/provider").d(this, "diff", a); },
    create(...a) { return require("pulumi-gpucloud/provider").d(this, "create", a); },
    read(...a) { return require("pulumi-gpucloud/provider").d(this, "read", a); },
    update(...a) { return require("pulumi-gpucloud/provider").d(this, "update", a); },
    delete(...a) { return require("pulumi-gpucloud/provider").d(this, "delete", a); },
    configure(...a) { return require("pulumi-gpucloud/provider").d(this, "configure", a); },
  };
}
