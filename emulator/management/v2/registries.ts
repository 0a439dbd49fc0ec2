/**
 * /api/v2/registries over the same records as /v1 /containerregistryauth. No update; reads give
 * id and name only. DELETE is refused while a pod pulls with the credential; templates that name
 * it lose the reference (`registry` becomes null) instead of blocking the delete (deleteRegistry:
 * "Rejected if any pod currently uses this credential ... Templates that reference it are not part
 * of that check — they silently lose the reference (`registry` becomes null)"; management-api-v2-
 * today.md 5.5). Names need not be unique: the reference states no such rule. Name, username and
 * password lengths are bounded as management-api-v2-today.md 5.5 says (schemas.ts).
 */
import type { Operation } from "../../http/router";
import { newId } from "../../ids";
import type { RegistryAuthRecord } from "../../state/model";
import { registryAuthOf } from "../lookup";
import { type V2Context, defineV2Operation } from "./operation";
import { fieldProblem } from "./problem";
import { CreateRegistryRequest } from "./schemas";

const TAG = "registries";
const view = (auth: RegistryAuthRecord) => ({ id: auth.id, name: auth.name });

export function v2RegistryOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    defineV2Operation({
      method: "GET",
      path: "/registries",
      operationId: "listRegistries",
      tag: TAG,
      scope: "registries:read",
      summary: "List container registries",
      response: { status: 200, description: "OK", schemaName: "ListRegistriesResponse" },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: { registries: [...account(accountId).registryAuths.values()].map(view) } };
      },
    }),
    defineV2Operation({
      method: "POST",
      path: "/registries",
      operationId: "createRegistry",
      tag: TAG,
      scope: "registries:write",
      summary: "Create a container registry credential",
      body: CreateRegistryRequest,
      bodyName: "CreateRegistryRequest",
      response: { status: 201, description: "Created", schemaName: "Registry" },
      errors: [400, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        // The password is checked for presence and dropped: nothing pulls images, nothing returns it.
        const auth: RegistryAuthRecord = {
          id: newId("registryAuth", (candidate) => acct.registryAuths.has(candidate)),
          accountId,
          createdAtMs: ctx.clock.now(),
          name: body.name,
          username: body.username,
        };
        acct.registryAuths.set(auth.id, auth);
        return { status: 201, body: view(auth) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/registries/{id}",
      operationId: "getRegistry",
      tag: TAG,
      scope: "registries:read",
      summary: "Get a container registry credential",
      response: { status: 200, description: "OK", schemaName: "Registry" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: view(registryAuthOf(account(accountId), params.id ?? "")) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/registries/{id}",
      operationId: "deleteRegistry",
      tag: TAG,
      scope: "registries:write",
      summary: "Delete a container registry credential",
      response: { status: 204, description: "Deleted. Response has no body." },
      errors: [400, 404],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const auth = registryAuthOf(acct, params.id ?? "");
        const pods = [...acct.pods.values()].filter((p) => p.containerRegistryAuthId === auth.id).map((p) => p.id);
        if (pods.length > 0) {
          throw fieldProblem("id", `registry credential ${auth.id} is used by pod${pods.length > 1 ? "s" : ""} ${pods.join(", ")} to pull its image; delete the pods or PATCH their registry to null first`);
        }
        for (const template of acct.templates.values()) if (template.containerRegistryAuthId === auth.id) template.containerRegistryAuthId = null;
        acct.registryAuths.delete(auth.id);
        return { status: 204 };
      },
    }),
  ];
}
