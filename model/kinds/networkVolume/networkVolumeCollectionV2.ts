// The network volume collection on v2: the table's fields, nothing composed.

import { NetworkVolumeSchema, type NetworkVolume } from "../../../client/schemas";
import type { NetworkVolumes } from "../../backend/port";
import { tableCollectionV2 } from "../../backend/tableCollectionV2";
import type { V2Context } from "../../backend/v2Context";
import type { Props } from "../../fields/values";
import { fromWireV2, wireRequest } from "../../fields/wireV2";
import { networkVolumeTable } from "./networkVolumeFields";

export function networkVolumeCollectionV2({ client, reads }: V2Context): NetworkVolumes {
  return tableCollectionV2({
    table: networkVolumeTable,
    wire: {
      create: (body) => client.networkVolumes.create(wireRequest<"createNetworkVolume">(body)),
      delete: (id) => client.networkVolumes.delete(id),
    },
    reads: reads.networkVolumes,
    itemOf: (wire: Props): NetworkVolume => NetworkVolumeSchema.parse(fromWireV2(networkVolumeTable, wire)),
    update: { patch: (id, body) => client.networkVolumes.update(id, wireRequest<"updateNetworkVolume">(body)) },
  });
}
