/** /v1/containerregistryauth: the domain's registry credential commands (management/registryAuths.ts) under v1's rules. */
import { type Operation, defineOperation } from "../../http/router";
import { ContainerRegistryAuthCreateInput } from "../../vocabulary/schemas/registryAuth";
import type { ManagementContext } from "../context";
import { registryAuthOf } from "../lookup";
import { createRegistryAuth, deleteRegistryAuth } from "../registryAuths";
import { registryAuthView } from "./views";

export function registryAuthOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);
  return [
    defineOperation({
      method: "POST",
      path: "/containerregistryauth",
      operationId: "CreateContainerRegistryAuth",
      tag: "containerregistryauth",
      summary: "Create a new container registry auth",
      body: ContainerRegistryAuthCreateInput,
      bodyName: "ContainerRegistryAuthCreateInput",
      response: { status: 200, description: "The created auth (id and name only).", schemaName: "ContainerRegistryAuth" },
      errors: [400, 409],
      handle({ accountId, body }) {
        return { status: 200, body: registryAuthView(createRegistryAuth(ctx, account(accountId), body, "v1")) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/containerregistryauth",
      operationId: "ListContainerRegistryAuths",
      tag: "containerregistryauth",
      summary: "List container registry auths",
      response: { status: 200, description: "The account's registry auths.", schemaName: "ContainerRegistryAuth", array: true },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: [...ctx.visibility.listed(account(accountId).registryAuths.values())].map(registryAuthView) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/containerregistryauth/{containerRegistryAuthId}",
      operationId: "GetContainerRegistryAuth",
      tag: "containerregistryauth",
      summary: "Find a container registry auth by ID",
      response: { status: 200, description: "The auth (id and name only).", schemaName: "ContainerRegistryAuth" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: registryAuthView(registryAuthOf(account(accountId), params.containerRegistryAuthId ?? "")) };
      },
    }),
    defineOperation({
      method: "DELETE",
      path: "/containerregistryauth/{containerRegistryAuthId}",
      operationId: "DeleteContainerRegistryAuth",
      tag: "containerregistryauth",
      summary: "Delete a container registry auth (refused while a template or pod uses it)",
      response: { status: 204, description: "Deleted." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        deleteRegistryAuth(acct, registryAuthOf(acct, params.containerRegistryAuthId ?? ""), "v1");
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
