// How a network volume is read.
import type { NetworkVolume } from "../../../client/schemas";
import type { KindReader } from "../kindReader";
import { networkVolumeTable, type NetworkVolumeArgs } from "./networkVolumeFields";

export const networkVolumeReader: KindReader<NetworkVolume, NetworkVolumeArgs> = {
  table: networkVolumeTable,
  get: (api, id) => api.networkVolumes.get(id),
  list: (api) => api.networkVolumes.list(),
};
