/** The full /v1 operation table. */
import type { Operation } from "../../http/router";
import { documentationOperations } from "./openapi";
import type { ManagementContext } from "../context";
import { billingOperations } from "./billing";
import { endpointOperations } from "./endpoints";
import { networkVolumeOperations } from "./networkVolumes";
import { podOperations } from "./pods";
import { registryAuthOperations } from "./registryAuths";
import { templateOperations } from "./templates";

export function managementOperations(ctx: ManagementContext): Operation[] {
  const operations: Operation[] = [];
  operations.push(
    ...documentationOperations(() => operations),
    ...podOperations(ctx),
    ...endpointOperations(ctx),
    ...templateOperations(ctx),
    ...networkVolumeOperations(ctx),
    ...registryAuthOperations(ctx),
    ...billingOperations(ctx),
  );
  return operations;
}
