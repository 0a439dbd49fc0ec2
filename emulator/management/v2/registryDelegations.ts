/**
 * /api/v2/registries/delegations: create, list, revoke (management/registryDelegations.ts). The
 * list is bare, as the reference has it (management-api-v2-today.md 1.3: "no"), in creation order.
 * The routes share the first segment with /registries/{id}; the router matches the static
 * `delegations` first (http/routeTable.ts).
 */
import type { Operation } from "../../http/router";
import type { RegistryDelegationRecord } from "../../state/model";
import { CreateDelegationRequest, type EcrDelegation } from "../../vocabulary/schemas/v2/registryDelegations";
import { isoTime } from "../context";
import { createRegistryDelegation, registryDelegationOf, revokeRegistryDelegation } from "../registryDelegations";
import type { V2Context } from "./operation";

/** Without `dockerRegistryUri`: the emulator hosts no registry to log in to. */
function delegationView(delegation: RegistryDelegationRecord): EcrDelegation {
  return {
    id: delegation.id,
    name: delegation.name,
    delegatorUserId: delegation.accountId,
    awsUser: delegation.principal,
    repository: delegation.repository,
    tag: delegation.tag,
    awsRegion: delegation.region,
    createdAt: isoTime(delegation.createdAtMs),
  };
}

export function v2RegistryDelegationOperations({ ctx, route }: V2Context): Operation[] {
  return [
    route(
      ["GET /registries/delegations", "listDelegations", "registries:read", "List all registry delegations"],
      { answer: [200, "ListDelegationsResponse"], errors: [] },
      ({ account }) => ({
        status: 200,
        body: { delegations: [...ctx.visibility.listed(account.registryDelegations.values())].map(delegationView) },
      }),
    ),
    route(
      ["POST /registries/delegations", "createDelegation", "registries:write", "Register a registry delegation"],
      {
        body: ["CreateDelegationRequest", CreateDelegationRequest],
        answer: [201, "EcrDelegation", "Delegation created"],
        errors: [400, 422],
      },
      ({ account, body }) => ({ status: 201, body: delegationView(createRegistryDelegation(ctx, account, body)) }),
    ),
    route(
      ["DELETE /registries/delegations/{id}", "revokeDelegation", "registries:write", "Revoke a registry delegation"],
      { answer: [204, undefined, "Delegation revoked"], errors: [404] },
      ({ account, id }) => {
        revokeRegistryDelegation(account, registryDelegationOf(account, id));
        return { status: 204 };
      },
    ),
  ];
}
