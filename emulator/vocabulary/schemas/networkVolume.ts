/** Network volume request bodies (NetworkVolumeCreateInput, NetworkVolumeUpdateInput). */
import { z } from "zod";
import { DATA_CENTER_IDS } from "../catalog";
import { requiredName } from "./common";

const size = z.int().min(0).max(4000);

export const NetworkVolumeCreateInput = z.strictObject({
  dataCenterId: z.enum(DATA_CENTER_IDS),
  name: requiredName,
  size,
});
export type NetworkVolumeCreateInput = z.infer<typeof NetworkVolumeCreateInput>;

export const NetworkVolumeUpdateInput = z.strictObject({
  name: requiredName.optional(),
  size: size.optional(),
});
export type NetworkVolumeUpdateInput = z.infer<typeof NetworkVolumeUpdateInput>;

export const NETWORK_VOLUME_UPDATE_HINTS: Readonly<Record<string, string>> = {
  dataCenterId: "dataCenterId is fixed when the network volume is created; create a new volume in the other data center",
};
