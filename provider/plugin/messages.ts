// The protocol's messages as plain values: property bags from and to protobuf Structs, check
// failures, one property's detailed diff, and what a request says of its resource (type, name).

import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import type { Props } from "../../model/fields/values";
import type { PropertyDiffKind } from "./protocol";
import { providerPb, structPb } from "./rpcModules";

export function fromStruct(struct: StructPb.Struct | undefined): Props {
  return struct ? (struct.toJavaScript() as Props) : {};
}

export function toStruct(props: Props): StructPb.Struct {
  return structPb.Struct.fromJavaScript(props as Record<string, StructPb.JavaScriptValue>);
}

export function toFailure(failure: { property: string; reason: string }): ProviderPb.CheckFailure {
  return new providerPb.CheckFailure().setProperty(failure.property).setReason(failure.reason);
}

/** One property's change; the diff compares declared values, which the recorded inputs hold: shown against the old inputs. */
export function propertyDiff(kind: PropertyDiffKind): ProviderPb.PropertyDiff {
  return new providerPb.PropertyDiff().setKind(providerPb.PropertyDiff.Kind[kind]).setInputdiff(true);
}

/** The type token of a request: its own field, else the URN's type (the part after any parent type). */
export function typeOf(type: string, urn: string): string {
  if (type !== "") return type;
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The resource's name in the program: the URN's last part. */
export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}
