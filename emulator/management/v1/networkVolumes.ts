/** /v1/networkvolumes (size 0..4000 GB): the domain's network volume commands (management/networkVolumes.ts). */
import { type Operation, defineOperation } from "../../http/router";
import { NETWORK_VOLUME_UPDATE_HINTS, NetworkVolumeCreateInput, NetworkVolumeUpdateInput } from "../../vocabulary/schemas/networkVolume";
import type { ManagementContext } from "../context";
import { networkVolumeOf } from "../lookup";
import { createNetworkVolume, deleteNetworkVolume, updateNetworkVolume } from "../networkVolumes";
import { networkVolumeView } from "./views";

export function networkVolumeOperations(ctx: ManagementContext): Operation[] {
  const account = (id: string) => ctx.store.account(id);

  const update = (path: string, method: "PATCH" | "POST", operationId: string) =>
    defineOperation({
      method,
      path,
      operationId,
      tag: "networkvolumes",
      summary: method === "PATCH" ? "Update a network volume (rename, grow)" : "Update a network volume (synonym of PATCH)",
      body: NetworkVolumeUpdateInput,
      bodyName: "NetworkVolumeUpdateInput",
      unknownFieldHints: NETWORK_VOLUME_UPDATE_HINTS,
      response: { status: 200, description: "The updated network volume.", schemaName: "NetworkVolume" },
      errors: [400, 404],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        return {
          status: 200,
          body: networkVolumeView(updateNetworkVolume(ctx, acct, networkVolumeOf(acct, params.networkVolumeId ?? ""), body)),
        };
      },
    });

  return [
    defineOperation({
      method: "POST",
      path: "/networkvolumes",
      operationId: "CreateNetworkVolume",
      tag: "networkvolumes",
      summary: "Create a new network volume",
      body: NetworkVolumeCreateInput,
      bodyName: "NetworkVolumeCreateInput",
      response: { status: 200, description: "The created network volume.", schemaName: "NetworkVolume" },
      errors: [400],
      handle({ accountId, body }) {
        return { status: 200, body: networkVolumeView(createNetworkVolume(ctx, account(accountId), body)) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/networkvolumes",
      operationId: "ListNetworkVolumes",
      tag: "networkvolumes",
      summary: "List network volumes",
      response: { status: 200, description: "The account's network volumes.", schemaName: "NetworkVolume", array: true },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: [...ctx.visibility.listed(account(accountId).networkVolumes.values())].map(networkVolumeView) };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/networkvolumes/{networkVolumeId}",
      operationId: "GetNetworkVolume",
      tag: "networkvolumes",
      summary: "Find a network volume by ID",
      response: { status: 200, description: "The network volume.", schemaName: "NetworkVolume" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: networkVolumeView(networkVolumeOf(account(accountId), params.networkVolumeId ?? "")) };
      },
    }),
    update("/networkvolumes/{networkVolumeId}", "PATCH", "UpdateNetworkVolume"),
    update("/networkvolumes/{networkVolumeId}/update", "POST", "UpdateNetworkVolumePost"),
    defineOperation({
      method: "DELETE",
      path: "/networkvolumes/{networkVolumeId}",
      operationId: "DeleteNetworkVolume",
      tag: "networkvolumes",
      summary: "Delete a network volume (refused while attached)",
      response: { status: 204, description: "Deleted." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        deleteNetworkVolume(ctx, acct, networkVolumeOf(acct, params.networkVolumeId ?? ""));
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
