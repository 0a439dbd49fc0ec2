/** The full /api/v2 operation table (the source of /api/v2/openapi.json): each resource file declares its entries with `route` (operation.ts). */
import type { Operation } from "../../http/router";
import { v2AccountOperations, v2SshKeyOperations } from "./account";
import { v2BillingOperations } from "./billing";
import { v2CatalogOperations } from "./catalog";
import { v2ClusterOperations } from "./clusters";
import { v2EndpointOperations } from "./endpoints";
import { v2GlobalVolumeOperations } from "./globalVolumes";
import { v2StorageOperations } from "./networkVolumes";
import { v2DocumentationOperation } from "./openapi";
import type { V2Context } from "./operation";
import { v2PodOperations } from "./pods";
import { v2RegistryDelegationOperations } from "./registryDelegations";
import { v2TemplateOperations } from "./templates";

/** Each resource file's entries, in the order /api/v2/openapi.json lists them (after the document itself). */
const RESOURCES: ReadonlyArray<(v: V2Context) => Operation[]> = [
  v2PodOperations,
  v2ClusterOperations,
  v2EndpointOperations,
  v2TemplateOperations,
  v2StorageOperations,
  v2RegistryDelegationOperations,
  v2GlobalVolumeOperations,
  v2SshKeyOperations,
  v2CatalogOperations,
  v2BillingOperations,
  v2AccountOperations,
];

export function v2Operations(v: V2Context): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    v2DocumentationOperation(() => operations),
    ...RESOURCES.flatMap((entries) => entries(v)),
  );
  return operations;
}
