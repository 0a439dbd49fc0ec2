/** The full /api/v2 operation table (the source of /api/v2/openapi.json). */
import type { Operation } from "../../http/router";
import { v2AccountOperations } from "./account";
import { v2BillingOperations } from "./billing";
import { v2CatalogOperations } from "./catalogRoutes";
import { v2EndpointOperations } from "./endpoints";
import { v2NetworkVolumeOperations } from "./networkVolumes";
import { v2DocumentationOperation } from "./openapi";
import type { V2Context } from "./operation";
import { v2PodOperations } from "./pods";
import { v2RegistryOperations } from "./registries";
import { v2SshKeyOperations } from "./sshKeys";
import { v2TemplateOperations } from "./templates";

export function v2Operations(v: V2Context): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    v2DocumentationOperation(() => operations),
    ...v2PodOperations(v),
    ...v2EndpointOperations(v),
    ...v2TemplateOperations(v),
    ...v2NetworkVolumeOperations(v),
    ...v2RegistryOperations(v),
    ...v2SshKeyOperations(v),
    ...v2CatalogOperations(v),
    ...v2BillingOperations(v),
    ...v2AccountOperations(v),
  );
  return operations;
}
