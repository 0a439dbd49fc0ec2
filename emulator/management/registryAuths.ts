/**
 * /containerregistryauth. No update operation exists; reads return id and name only (the
 * password is never stored, the username never returned). Names are unique per account.
 */
import { conflict } from "../http/errors";
import { type Operation, defineOperation } from "../http/router";
import { newId } from "../ids";
import type { RegistryAuthRecord } from "../state/model";
import { ContainerRegistryAuthCreateInput } from "../vocabulary/schemas/registryAuth";
import type { ManagementContext } from "./context";
import { registryAuthOf } from "./lookup";
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
        const acct = account(accountId);
        for (const existing of acct.registryAuths.values()) {
          if (existing.name === body.name) {
            throw conflict(`container registry auth name ${JSON.stringify(body.name)} is already used by ${existing.id}; names must be unique`);
          }
        }
        const auth: RegistryAuthRecord = {
          id: newId("registryAuth", (candidate) => acct.registryAuths.has(candidate)),
          accountId,
          createdAtMs: ctx.clock.now(),
          name: body.name,
          username: body.username,
        };
        acct.registryAuths.set(auth.id, auth);
        return { status: 200, body: registryAuthView(auth) };
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
        return { status: 200, body: [...account(accountId).registryAuths.values()].map(registryAuthView) };
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
        const auth = registryAuthOf(acct, params.containerRegistryAuthId ?? "");
        const users = [
          ...[...acct.templates.values()].filter((t) => t.containerRegistryAuthId === auth.id).map((t) => `template ${t.id}`),
          ...[...acct.pods.values()].filter((p) => p.containerRegistryAuthId === auth.id).map((p) => `pod ${p.id}`),
        ];
        if (users.length > 0) {
          throw conflict(`container registry auth ${auth.id} is used by ${users.join(", ")}; remove it from them first`);
        }
        acct.registryAuths.delete(auth.id);
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
