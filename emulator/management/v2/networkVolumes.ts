/**
 * /api/v2/network-volumes over the same records as /v1 /networkvolumes: `dataCenter` (v1's
 * dataCenterId), size 10..4096 GB and grow-only, `type` (STANDARD or HIGH_PERFORMANCE, fixed at
 * create, only where the data center offers it). An attached volume cannot be deleted (409).
 */
import { closeUsage, openVolumeUsage } from "../../billing/ledger";
import { conflict } from "../../http/errors";
import type { Operation } from "../../http/router";
import { newId } from "../../ids";
import type { NetworkVolumeRecord } from "../../state/model";
import { networkVolumeOf } from "../lookup";
import { attachments } from "../networkVolumes";
import { isDataCenter, primaryVolumeTypeOf, volumeTypesOf } from "./catalog";
import { type V2Context, defineV2Operation } from "./operation";
import { fieldProblem } from "./problem";
import { CreateNetworkVolumeRequest, UpdateNetworkVolumeRequest } from "./schemas";
import type { NetworkVolume } from "./wire";

const TAG = "network-volumes";

export function v2NetworkVolumeView(volume: NetworkVolumeRecord): NetworkVolume {
  // A volume made through /v1 has no tier of its own: its data center's primary one.
  return { id: volume.id, name: volume.name, size: volume.size, dataCenter: volume.dataCenterId, type: volume.type ?? primaryVolumeTypeOf(volume.dataCenterId) ?? "STANDARD" };
}

export function v2NetworkVolumeOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    defineV2Operation({
      method: "GET",
      path: "/network-volumes",
      operationId: "listNetworkVolumes",
      tag: TAG,
      scope: "network-volumes:read",
      summary: "List network volumes",
      response: { status: 200, description: "OK", schemaName: "ListNetworkVolumesResponse" },
      errors: [],
      handle({ accountId }) {
        return { status: 200, body: { networkVolumes: [...account(accountId).networkVolumes.values()].map(v2NetworkVolumeView) } };
      },
    }),
    defineV2Operation({
      method: "POST",
      path: "/network-volumes",
      operationId: "createNetworkVolume",
      tag: TAG,
      scope: "network-volumes:write",
      summary: "Create a network volume",
      body: CreateNetworkVolumeRequest,
      bodyName: "CreateNetworkVolumeRequest",
      response: { status: 201, description: "Created", schemaName: "NetworkVolume" },
      errors: [400, 422],
      handle({ accountId, body }) {
        const acct = account(accountId);
        if (!isDataCenter(body.dataCenter)) throw fieldProblem("dataCenter", `unknown data center ${JSON.stringify(body.dataCenter)}; list them with GET /api/v2/catalog/datacenters`);
        const offered = volumeTypesOf(body.dataCenter);
        // CreateNetworkVolumeRequest.type: "When omitted, the volume is provisioned using the
        // requested data center's default (primary) storage tier."
        const type = body.type ?? primaryVolumeTypeOf(body.dataCenter);
        if (type === undefined) throw fieldProblem("dataCenter", `${body.dataCenter} offers no network volumes; pick a data center whose networkVolumeTypes is not empty`);
        if (!offered.includes(type)) throw fieldProblem("type", `${body.dataCenter} offers ${offered.join(", ")} volumes, not ${type}; pick another data center or type`);
        const now = ctx.clock.now();
        const volume: NetworkVolumeRecord = {
          id: newId("networkVolume", (candidate) => acct.networkVolumes.has(candidate)),
          accountId,
          createdAtMs: now,
          name: body.name,
          size: body.size,
          dataCenterId: body.dataCenter,
          type,
        };
        acct.networkVolumes.set(volume.id, volume);
        openVolumeUsage(acct, volume, now);
        return { status: 201, body: v2NetworkVolumeView(volume) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/network-volumes/{id}",
      operationId: "getNetworkVolume",
      tag: TAG,
      scope: "network-volumes:read",
      summary: "Get a network volume",
      response: { status: 200, description: "OK", schemaName: "NetworkVolume" },
      errors: [404],
      handle({ accountId, params }) {
        return { status: 200, body: v2NetworkVolumeView(networkVolumeOf(account(accountId), params.id ?? "")) };
      },
    }),
    defineV2Operation({
      method: "PATCH",
      path: "/network-volumes/{id}",
      operationId: "updateNetworkVolume",
      tag: TAG,
      scope: "network-volumes:write",
      summary: "Update a network volume",
      body: UpdateNetworkVolumeRequest,
      bodyName: "UpdateNetworkVolumeRequest",
      response: { status: 200, description: "OK", schemaName: "NetworkVolume" },
      errors: [400, 404, 422],
      handle({ accountId, params, body }) {
        const acct = account(accountId);
        const volume = networkVolumeOf(acct, params.id ?? "");
        if (body.size !== undefined && body.size < volume.size) {
          throw fieldProblem("size", `a network volume can only grow; ${volume.id} has ${volume.size} GB, requested ${body.size}`);
        }
        if (body.name !== undefined) volume.name = body.name;
        if (body.size !== undefined && body.size !== volume.size) {
          volume.size = body.size;
          openVolumeUsage(acct, volume, ctx.clock.now()); // closes the interval at the old size
        }
        return { status: 200, body: v2NetworkVolumeView(volume) };
      },
    }),
    defineV2Operation({
      method: "DELETE",
      path: "/network-volumes/{id}",
      operationId: "deleteNetworkVolume",
      tag: TAG,
      scope: "network-volumes:write",
      summary: "Delete a network volume",
      response: { status: 204, description: "Deleted. Response has no body." },
      errors: [404, 409],
      handle({ accountId, params }) {
        const acct = account(accountId);
        const volume = networkVolumeOf(acct, params.id ?? "");
        const users = attachments(acct, volume.id);
        if (users.length > 0) throw conflict(`network volume ${volume.id} is attached to ${users.join(", ")}; delete or detach them first`);
        acct.networkVolumes.delete(volume.id);
        closeUsage(acct, volume.id, ctx.clock.now());
        return { status: 204 };
      },
    }),
  ];
}
