// A network volume's field table: name and size change in place, size only grows (0..4000 GB),
// the data center is fixed for the volume's life.

import { DATA_CENTER_IDS } from "../../client/enums";
import type { NetworkVolumeCreateInput } from "../../client/inputs";
import type { NetworkVolume } from "../../client/schemas";
import { adoptIdRow, defineTable, rowsFor, type ArgsOf, type CrossCheckResult } from "./fieldTable";
import { failure, num, str, unknownIdWarnings } from "./validation";
import { containsUnknown, deepEqual, isPresent, type Props } from "./values";

export const MAX_NETWORK_VOLUME_GB = 4000;

const { update, replace } = rowsFor<NetworkVolume>();

const rows = {
  name: update(str({ nonEmpty: true, example: '"models"' }), { observe: (v) => v.name }),
  size: update(num({ min: 0, max: MAX_NETWORK_VOLUME_GB, unit: "GB", example: "100" }), { observe: (v) => v.size }),
  dataCenterId: replace(str({ nonEmpty: true, example: '"EU-RO-1"' }), { observe: (v) => v.dataCenterId }),
  adoptId: adoptIdRow,
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

export const networkVolumeTable = defineTable<NetworkVolumeCreateInput, NetworkVolume>()({ noun: "network volume", rows, crossCheck });
export type NetworkVolumeArgs = ArgsOf<typeof rows>;
