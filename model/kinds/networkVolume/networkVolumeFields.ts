// A network volume's field table: name and size change in place, size only grows (v1: 0..4000 GB;
// v2: 10..4096 GB), the data center is fixed for the volume's life.

import { DATA_CENTER_IDS } from "../../../client/enums";
import type { NetworkVolumeCreateInput } from "../../../client/inputs";
import type { NetworkVolume } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import {
  adoptIdRow,
  defineTable,
  rowsFor,
  type ArgsOf,
  type Backend,
  type CrossCheckResult,
  type OutputArgumentKeys,
} from "../../fields/fieldTable";
import { failure, num, oneOf, str, unknownIdWarnings } from "../../fields/validation";
import { containsUnknown, deepEqual, isPresent, type Props } from "../../fields/values";
import { COST_ESTIMATE } from "../../fields/estimateOutput";

/**
 * A volume's size bounds per API version, in GB: v1 0..4000 (the v1 reference's size "minimum=0
 * maximum=4000"), v2 10..4096 (CreateNetworkVolumeRequest.size "minimum=10 maximum=4096").
 */
export const VOLUME_SIZE_GB = { v1: { min: 0, max: 4000 }, v2: { min: 10, max: 4096 } } as const;

const { update, replace, output } = rowsFor<
  NetworkVolume,
  SentPathV2<"createNetworkVolume" | "updateNetworkVolume">,
  AnswerPathV2<"getNetworkVolume">
>();

/** v2's storage tiers (the volume's `type`, fixed at create). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;

const rows = {
  name: update(str({ nonEmpty: true, example: '"models"' }), { observe: (v) => v.name, v2: { path: "name" } }),
  // Each API's bounds, quoted by check on a stack of that API.
  size: update(
    num({
      ...VOLUME_SIZE_GB.v1,
      unit: "GB",
      example: "100",
      boundsNote: `the v1 API's bounds; with gpucloud:apiUrl set to the /v2 URL, ${VOLUME_SIZE_GB.v2.min} to ${VOLUME_SIZE_GB.v2.max} GB`,
    }),
    {
      observe: (v) => v.size,
      v2: { path: "size", arg: num({ ...VOLUME_SIZE_GB.v2, unit: "GB", example: "100", boundsNote: "the v2 API's bounds" }) },
    },
  ),
  dataCenterId: replace(str({ nonEmpty: true, example: '"EU-RO-1"' }), { observe: (v) => v.dataCenterId, v2: { path: "dataCenter" } }),
  // v2 only: the storage tier. No default: a volume created without one gets its data center's
  // primary tier (CreateNetworkVolumeRequest.type), which is not always STANDARD. The tier is read
  // back into the output whether declared or not; left undeclared it is whatever the service chose
  // (no diff), declared it is compared with the tier read back.
  type: replace(oneOf(VOLUME_TYPES).optional(), {
    observe: (v) => v.type,
    alwaysObserved: true,
    same: (live, declared) => declared === undefined || live === declared,
    v2Only: true,
    v1Refuse: (v) =>
      v !== "STANDARD" ? "storage tiers need the service's v2 API: set gpucloud:apiUrl to the /v2 URL, or remove type" : undefined,
    v2: { path: "type" },
  }),
  adoptId: adoptIdRow,
  // Computed by check from the catalog (model/cost), never read from the service.
  [COST_ESTIMATE]: output(() => undefined),
};

/** A shrink is refused at preview, unless the volume is being replaced anyway (new data center). */
function crossCheck(args: Props, olds: Props, backend: Backend = "v1"): CrossCheckResult {
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
          `Set size to ${before} or more (up to ${VOLUME_SIZE_GB[backend].max} on the ${backend} API), or create a new volume to start smaller.`,
      ),
    );
  }
  return { failures, warnings: unknownIdWarnings("network volume", "dataCenterId", args["dataCenterId"], DATA_CENTER_IDS) };
}

export const networkVolumeTable = defineTable<NetworkVolumeCreateInput, NetworkVolume>()({ noun: "network volume", rows, crossCheck });
export type NetworkVolumeArgs = ArgsOf<typeof rows>;
export type { NetworkVolumeOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type NetworkVolumeRowOutputArguments = OutputArgumentKeys<typeof rows>;
