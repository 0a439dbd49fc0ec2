/** The full /api/v2 operation table (the source of /api/v2/openapi.json): each resource file declares its entries with v2Route. */
import type { Operation } from "../../http/router";
import { v2AccountOperations, v2SshKeyOperations } from "./account";
import { v2BillingOperations } from "./billing";
import { v2CatalogOperations } from "./catalog";
import { v2EndpointOperations } from "./endpoints";
import { v2StorageOperations } from "./networkVolumes";
import { v2DocumentationOperation } from "./openapi";
import type { V2Context } from "./operation";
import { v2PodOperations } from "./pods";
import { v2TemplateOperations } from "./templates";

export function v2Operations(v: V2Context): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    v2DocumentationOperation(() => operations),
    ...v2PodOperations(v),
    ...v2EndpointOperations(v),
    ...v2TemplateOperations(v),
    ...v2StorageOperations(v),
    ...v2SshKeyOperations(v),
    ...v2CatalogOperations(v),
    ...v2BillingOperations(v),
    ...v2AccountOperations(v),
  );
  return operations;
}
