// Every kind's reader (and through it its field table), by kind: what code that serves any kind
// (the lookups, the generators) looks a kind up in. A new kind is a folder beside this file and one
// entry here (its name and type token in ./index.ts). A program's load never reaches this file: it
// loads every table (the SDK's classes name their kind's output list only, model/fields/outputLists.ts).

import type { ResourceKind } from "./index";
import { endpointReader } from "./endpoint/endpointReader";
import type { KindReader } from "./kindReader";
import { networkVolumeReader } from "./networkVolume/networkVolumeReader";
import { podReader } from "./pod/podReader";
import { registryAuthReader } from "./registryAuth/registryAuthReader";
import { secretReader } from "./secret/secretReader";
import { templateReader } from "./template/templateReader";

/** A reader of any kind, as generic code uses it: by id and name, its table's rows untyped. */
export type AnyKindReader = KindReader<{ id: string; name?: string | undefined }>;

const anyKind = <L extends { id: string; name?: string | undefined }, A>(reader: KindReader<L, A>): AnyKindReader =>
  reader as unknown as AnyKindReader;

export const KIND_READERS: Readonly<Record<ResourceKind, AnyKindReader>> = {
  pod: anyKind(podReader),
  endpoint: anyKind(endpointReader),
  networkVolume: anyKind(networkVolumeReader),
  template: anyKind(templateReader),
  registryAuth: anyKind(registryAuthReader),
  secret: anyKind(secretReader),
};
