/**
 * /api/v2/network-volumes and /api/v2/registries: the domain's network volume and registry
 * credential commands (management/networkVolumes.ts, registryAuths.ts) over the same records as
 * /v1, with v2's names (`dataCenter`, size 10..4096 GB, a tier) and rules. Registry name, username
 * and password lengths are bounded as management-api-v2-today.md 5.5 says (the request schema).
 */
import type { Operation } from "../../http/router";
import type { NetworkVolumeRecord, RegistryAuthRecord } from "../../state/model";
import { CreateNetworkVolumeRequest, CreateRegistryRequest, UpdateNetworkVolumeRequest } from "../../vocabulary/schemas/v2/requests";
import type { NetworkVolume } from "../../vocabulary/schemas/v2/wire";
import { networkVolumeOf, registryAuthOf } from "../lookup";
import { createNetworkVolume, deleteNetworkVolume, updateNetworkVolume, volumeTierOf } from "../networkVolumes";
import { createRegistryAuth, deleteRegistryAuth } from "../registryAuths";
import type { V2Context } from "./operation";

function volumeView(volume: NetworkVolumeRecord): NetworkVolume {
  return { id: volume.id, name: volume.name, size: volume.size, dataCenter: volume.dataCenterId, type: volumeTierOf(volume) };
}

/** Never the username or password (getRegistry: "credentials are write-only"). */
const registryView = (auth: RegistryAuthRecord) => ({ id: auth.id, name: auth.name });

export function v2StorageOperations(v: V2Context): Operation[] {
  const { ctx, route } = v;
  return [
    route(
      ["GET /network-volumes", "listNetworkVolumes", "network-volumes:read", "List network volumes"],
      { answer: [200, "ListNetworkVolumesResponse"], errors: [] },
      ({ account }) => ({
        status: 200,
        body: { networkVolumes: [...ctx.visibility.listed(account.networkVolumes.values())].map(volumeView) },
      }),
    ),
    route(
      ["POST /network-volumes", "createNetworkVolume", "network-volumes:write", "Create a network volume"],
      { body: ["CreateNetworkVolumeRequest", CreateNetworkVolumeRequest], answer: [201, "NetworkVolume"], errors: [400, 422] },
      ({ account, body }) => {
        const volume = createNetworkVolume(ctx, account, {
          name: body.name,
          size: body.size,
          dataCenterId: body.dataCenter,
          type: body.type ?? "primary",
        });
        return { status: 201, body: volumeView(volume) };
      },
    ),
    route(
      ["GET /network-volumes/{id}", "getNetworkVolume", "network-volumes:read", "Get a network volume"],
      { answer: [200, "NetworkVolume"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: volumeView(networkVolumeOf(account, id)) }),
    ),
    route(
      ["PATCH /network-volumes/{id}", "updateNetworkVolume", "network-volumes:write", "Update a network volume"],
      { body: ["UpdateNetworkVolumeRequest", UpdateNetworkVolumeRequest], answer: [200, "NetworkVolume"], errors: [400, 404, 422] },
      ({ account, id, body }) => ({ status: 200, body: volumeView(updateNetworkVolume(ctx, account, networkVolumeOf(account, id), body)) }),
    ),
    route(
      ["DELETE /network-volumes/{id}", "deleteNetworkVolume", "network-volumes:write", "Delete a network volume"],
      { answer: [204], errors: [404, 409] },
      ({ account, id }) => {
        deleteNetworkVolume(ctx, account, networkVolumeOf(account, id));
        return { status: 204 };
      },
    ),
    route(
      ["GET /registries", "listRegistries", "registries:read", "List container registries"],
      { answer: [200, "ListRegistriesResponse"], errors: [] },
      ({ account }) => ({
        status: 200,
        body: { registries: [...ctx.visibility.listed(account.registryAuths.values())].map(registryView) },
      }),
    ),
    route(
      ["POST /registries", "createRegistry", "registries:write", "Create a container registry credential"],
      { body: ["CreateRegistryRequest", CreateRegistryRequest], answer: [201, "Registry"], errors: [400, 422] },
      ({ account, body }) => ({ status: 201, body: registryView(createRegistryAuth(ctx, account, body, "v2")) }),
    ),
    route(
      ["GET /registries/{id}", "getRegistry", "registries:read", "Get a container registry credential"],
      { answer: [200, "Registry"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: registryView(registryAuthOf(account, id)) }),
    ),
    route(
      ["DELETE /registries/{id}", "deleteRegistry", "registries:write", "Delete a container registry credential"],
      { answer: [204], errors: [400, 404] },
      ({ account, id }) => {
        deleteRegistryAuth(account, registryAuthOf(account, id), "v2");
        return { status: 204 };
      },
    ),
  ];
}
