/**
 * /networkvolumes. Size only grows (0..4000 GB); the data center is fixed; a volume attached to
 * a pod or an endpoint cannot be deleted (409 naming the attachment). Storage accrues billing
 * per GB held, from create to delete.
 */
import { closeUsage, openVolumeUsage } from "../billing/ledger";
import { badRequest, conflict } from "../http/errors";
import { type Operation, defineOperation } from "../http/router";
import { newId } from "../ids";
import type { AccountData, NetworkVolumeRecord } from "../state/model";
import { NETWORK_VOLUME_UPDATE_HINTS, NetworkVolumeCreateInput, NetworkVolumeUpdateInput } from "../vocabulary/schemas/networkVolume";
import type { ManagementContext } from "./context";
import { networkVolumeOf } from "./lookup";
import { networkVolumeView } from "./views";

export function attachments(account: AccountData, volumeId: string): string[] {
  const found: string[] = [];
  for (const pod of account.pods.values()) if (pod.networkVolumeId === volumeId) found.push(`pod ${pod.id}`);
  for (const endpoint of account.endpoints.values()) {
    if (endpoint.networkVolumeId === volumeId || endpoint.networkVolumeIds?.includes(volumeId)) found.push(`endpoint ${endpoint.id}`);
  }
  return found;
}

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
        const volume = networkVolumeOf(acct, params.networkVolumeId ?? "");
        if (body.size !== undefined && body.size < volume.size) {
          throw badRequest(`invalid size: a network volume can only grow; ${volume.id} has ${volume.size} GB, requested ${body.size}`);
        }
        if (body.name !== undefined) volume.name = body.name;
        if (body.size !== undefined && body.size !== volume.size) {
          volume.size = body.size;
          openVolumeUsage(acct, volume, ctx.clock.now()); // closes the interval at the old size
        }
        return { status: 200, body: networkVolumeView(volume) };
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
        const acct = account(accountId);
        const now = ctx.clock.now();
        const volume: NetworkVolumeRecord = {
          id: newId("networkVolume", (candidate) => acct.networkVolumes.has(candidate)),
          accountId,
          createdAtMs: now,
          name: body.name,
          size: body.size,
          dataCenterId: body.dataCenterId,
        };
        acct.networkVolumes.set(volume.id, volume);
        openVolumeUsage(acct, volume, now);
        return { status: 200, body: networkVolumeView(volume) };
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
        return { status: 200, body: [...account(accountId).networkVolumes.values()].map(networkVolumeView) };
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
        const volume = networkVolumeOf(acct, params.networkVolumeId ?? "");
        const users = attachments(acct, volume.id);
        if (users.length > 0) {
          throw conflict(`network volume ${volume.id} is attached to ${users.join(", ")}; delete or detach them first`);
        }
        acct.networkVolumes.delete(volume.id);
        closeUsage(acct, volume.id, ctx.clock.now());
        return { status: ctx.options.quirks.deleteStatus };
      },
    }),
  ];
}
