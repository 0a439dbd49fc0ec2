// A network volume's arguments, checks and policy table: name and size change in place, size only
// grows (0..4000 GB), the data center is fixed for the volume's life.

import { z } from "zod";
import type { NetworkVolume } from "../../client/schemas";
import { DATA_CENTER_IDS } from "./catalog";
import { unknownIdWarnings } from "./catalogWarnings";
import { adoptIdArg, adoptIdPolicy } from "./commonArgs";
import { replace, update, type ResourcePolicy } from "./fieldPolicy";
import type { CrossCheckResult, ResourceDefinition } from "./resourceBase";
import { containsUnknown } from "./unknown";
import { failure, num, str } from "./validation";
import { deepEqual, isPresent, type Props } from "./values";

export const MAX_NETWORK_VOLUME_GB = 4000;

export const networkVolumeArgsSchema = z.object({
  name: str({ nonEmpty: true, example: '"models"' }),
  size: num({ min: 0, max: MAX_NETWORK_VOLUME_GB, unit: "GB", example: "100" }),
  dataCenterId: str({ nonEmpty: true, example: '"EU-RO-1"' }),
  adoptId: adoptIdArg,
});

export type NetworkVolumeArgs = z.output<typeof networkVolumeArgsSchema>;

export const networkVolumePolicy: ResourcePolicy<NetworkVolume> = {
  noun: "network volume",
  fields: {
    name: update({ observe: (v) => v.name }),
    size: update({ observe: (v) => v.size }),
    dataCenterId: replace({ observe: (v) => v.dataCenterId }),
    adoptId: adoptIdPolicy(),
  },
};

/** A shrink is refused at preview, unless the volume is being replaced anyway (new data center). */
function crossCheck(args: Props, olds: Props): CrossCheckResult {
  const failures = [];
  const size = args["size"];
  const before = olds["size"];
  const replaced =
    !isPresent(olds, "dataCenterId") ||
    containsUnknown(args["dataCenterId"]) ||
    !deepEqual(olds["dataCenterId"], args["dataCenterId"]) ||
    (isPresent(args, "adoptId") && !deepEqual(olds["adoptId"], args["adoptId"]));
  if (typeof size === "number" && typeof before === "number" && size < before && !replaced) {
    failures.push(
      failure(
        ["size"],
        `${size} GB is smaller than the current size ${before} GB; a network volume can only grow. ` +
          `Set size to ${before} or more (up to ${MAX_NETWORK_VOLUME_GB}), or create a new volume to start smaller.`,
      ),
    );
  }
  return { failures, warnings: unknownIdWarnings("network volume", "dataCenterId", args["dataCenterId"], DATA_CENTER_IDS) };
}

export const networkVolumeDefinition: ResourceDefinition<NetworkVolumeArgs, NetworkVolume> = {
  policy: networkVolumePolicy,
  schema: networkVolumeArgsSchema,
  crossCheck,
};
