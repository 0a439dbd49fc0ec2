// A network volume's field table: name and size change in place, size only grows (v1: 0..4000 GB;
// v2: 10..4096 GB), the data center is fixed for the volume's life.

import { DATA_CENTER_IDS } from "../../client/enums";
import type { NetworkVolumeCreateInput } from "../../client/inputs";
import type { NetworkVolume } from "../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../client/wirePathsV2";
import { adoptIdRow, defineTable, rowsFor, type ArgsOf, type CrossCheckResult, type OutputArgumentKeys } from "./fieldTable";
import { failure, num, oneOf, str, unknownIdWarnings } from "./validation";
import { containsUnknown, deepEqual, isPresent, type Props } from "./values";
import { COST_ESTIMATE } from "../cost/attach";

/** The largest volume v1 takes, in GB (v1 reference: 0..4000). */
export const MAX_NETWORK_VOLUME_GB = 4000;
/** The largest volume v2 takes, in GB (v2 reference: CreateNetworkVolumeRequest.size "maximum=4096"). */
export const MAX_NETWORK_VOLUME_GB_V2 = 4096;

const { update, replace, output } = rowsFor<NetworkVolume, SentPathV2<"createNetworkVolume" | "updateNetworkVolume">, AnswerPathV2<"getNetworkVolume">>();

/** v2's storage tiers (the volume's `type`, fixed at create). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;
/** The smallest volume v2 creates, in GB. */
export const MIN_NETWORK_VOLUME_GB_V2 = 10;

const rows = {
  name: update(str({ nonEmpty: true, example: '"models"' }), { observe: (v) => v.name, v2: { path: "name" } }),
  size: update(num({ min: 0, max: MAX_NETWORK_VOLUME_GB_V2, unit: "GB", example: "100" }), {
    observe: (v) => v.size,
    v1Refuse: (v) =>
      typeof v === "number" && v > MAX_NETWORK_VOLUME_GB
        ? `the v1 API takes volumes of at most ${MAX_NETWORK_VOLUME_GB} GB; set size to ${MAX_NETWORK_VOLUME_GB} or less, or set gpucloud:apiUrl to the /v2 URL (up to ${MAX_NETWORK_VOLUME_GB_V2} GB)`
        : undefined,
    v2: {
      path: "size",
      refuse: (v) => (typeof v === "number" && v < MIN_NETWORK_VOLUME_GB_V2 ? `v2 volumes are ${MIN_NETWORK_VOLUME_GB_V2} GB or more; set size to ${MIN_NETWORK_VOLUME_GB_V2} or more` : undefined),
    },
  }),
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
    v1Refuse: (v) => (v !== "STANDARD" ? "storage tiers need the service's v2 API: set gpucloud:apiUrl to the /v2 URL, or remove type" : undefined),
    v2: { path: "type" },
  }),
  adoptId: adoptIdRow,
  // Computed by check from the catalog (provider/cost), never read from the service.
  [COST_ESTIMATE]: output(() => undefined),
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
          `Set size to ${before} or more (up to ${MAX_NETWORK_VOLUME_GB_V2} on v2, ${MAX_NETWORK_VOLUME_GB} on v1), or create a new volume to start smaller.`,
      ),
    );
  }
  return { failures, warnings: unknownIdWarnings("network volume", "dataCenterId", args["dataCenterId"], DATA_CENTER_IDS) };
}

export const networkVolumeTable = defineTable<NetworkVolumeCreateInput, NetworkVolume>()({ noun: "network volume", rows, crossCheck });
export type NetworkVolumeArgs = ArgsOf<typeof rows>;
/** The arguments also registered as outputs (see sdk/props.ts ArgumentOutputs). */
export type NetworkVolumeOutputArguments = OutputArgumentKeys<typeof rows>;
