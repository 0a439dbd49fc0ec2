/**
 * /api/v2/global-volumes (management-api-v2-today.md section 4): create, list (paginated, 1.3),
 * get, rename, delete over management/globalVolumes.ts. The list's order is "not stated": the
 * emulator answers newest first, as its other paginated lists (emulator README, "v2 operations
 * added: assumptions").
 */
import type { Operation } from "../../http/router";
import type { GlobalVolumeRecord } from "../../state/model";
import { CreateGlobalVolumeRequest, type GlobalVolume, UpdateGlobalVolumeRequest } from "../../vocabulary/schemas/v2/globalVolumes";
import { ListPageQuery } from "../../vocabulary/schemas/v2/requests";
import { isoTime } from "../context";
import { createGlobalVolume, deleteGlobalVolume, globalVolumeOf, renameGlobalVolume } from "../globalVolumes";
import { byCreation } from "../lists";
import { listPage, type V2Context } from "./operation";

function globalVolumeView(volume: GlobalVolumeRecord): GlobalVolume {
  return { id: volume.id, name: volume.name, createdAt: isoTime(volume.createdAtMs), createdByUserId: volume.createdByUserId };
}

export function v2GlobalVolumeOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /global-volumes", "listGlobalVolumes", "global-volumes:read", "List global volumes"],
      { query: ListPageQuery, paged: true, answer: [200, "ListGlobalVolumesResponse"], errors: [422] },
      (call) => {
        const page = listPage(v, "listGlobalVolumes", call, call.account.globalVolumes.values(), byCreation);
        return { status: 200, body: { globalVolumes: page.items.map(globalVolumeView), pagination: page.pagination } };
      },
    ),
    route(
      ["POST /global-volumes", "createGlobalVolume", "global-volumes:write", "Create a global volume"],
      { body: ["CreateGlobalVolumeRequest", CreateGlobalVolumeRequest], answer: [201, "GlobalVolume"], errors: [422] },
      ({ account, body }) => ({ status: 201, body: globalVolumeView(createGlobalVolume(ctx, account, body.name)) }),
    ),
    route(
      ["GET /global-volumes/{id}", "getGlobalVolume", "global-volumes:read", "Get a global volume"],
      { answer: [200, "GlobalVolume"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: globalVolumeView(globalVolumeOf(account, id)) }),
    ),
    route(
      ["PATCH /global-volumes/{id}", "updateGlobalVolume", "global-volumes:write", "Rename a global volume"],
      { body: ["UpdateGlobalVolumeRequest", UpdateGlobalVolumeRequest], answer: [200, "GlobalVolume"], errors: [404, 422] },
      ({ account, id, body }) => {
        const volume = globalVolumeOf(account, id);
        // The schema has made sure a name is there ("at least one field").
        return { status: 200, body: globalVolumeView(body.name === undefined ? volume : renameGlobalVolume(volume, body.name)) };
      },
    ),
    route(
      ["DELETE /global-volumes/{id}", "deleteGlobalVolume", "global-volumes:write", "Delete a global volume"],
      { answer: [204], errors: [404] },
      ({ account, id }) => {
        deleteGlobalVolume(account, globalVolumeOf(account, id));
        return { status: 204 };
      },
    ),
  ];
}
