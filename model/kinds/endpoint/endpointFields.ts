// A serverless endpoint's field table and cross-field rules. The service's PATCH accepts every
// create field except computeType (a change of it replaces the endpoint); an update triggers a
// rolling release of the workers.

import { ENDPOINT_TYPES, nameMarkerOf } from "../../../client/endpointType";
import { COMPUTE_TYPES, CUDA_VERSIONS, DATA_CENTER_IDS, ENDPOINT_CPU_FLAVOR_IDS, GPU_TYPE_IDS, SCALER_TYPES } from "../../../client/enums";
import type { EndpointCreateInput } from "../../../client/inputs";
import type { Endpoint } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import {
  adoptIdRow,
  defineTable,
  readyTimeoutSecondsRow,
  rowsFor,
  triggerSame,
  type ArgsOf,
  type CrossCheckResult,
  type OutputArgumentKeys,
} from "../../fields/fieldTable";
import { boolOrLevel, failure, list, num, oneOf, str, unknownIdWarnings } from "../../fields/validation";
import { isPresent, isRecord, isUnknown, type Props } from "../../fields/values";
import type { Backend } from "../../fields/fieldTable";
import { COST_ESTIMATE } from "../../fields/estimateOutput";
import { vcpuCountRefusal } from "../../fields/wireV2";

/** Who applies a change of an endpoint's templateId (see the templateAppliedBy row). */
export const TEMPLATE_APPLIERS = ["endpoint", "rollout"] as const;

/** v2's FlashBoot levels; `flashboot: true` is FLASHBOOT, `false` is OFF. */
export const FLASHBOOT_LEVELS = ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"] as const;

const flashbootToWire = (v: unknown): unknown => (v === true ? "FLASHBOOT" : v === false ? "OFF" : v);
const flashbootFromWire = (v: unknown): unknown => (v === "OFF" ? false : v === "FLASHBOOT" ? true : v);
/** true and "FLASHBOOT", false and "OFF" are the same setting. */
const sameFlashboot = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : flashbootToWire(a) === flashbootToWire(b);

/** The v2 scaling value, whichever signal it scales on. */
const scalerValueOf = (w: Props): unknown =>
  isRecord(w["scaling"]) ? (w["scaling"]["queueDelay"] ?? w["scaling"]["requestCount"]) : undefined;
const cpuIdsOf = (w: Props): unknown =>
  Array.isArray(w["cpu"]) ? w["cpu"].map((c: unknown) => (isRecord(c) ? c["id"] : undefined)) : undefined;
const vcpuOf = (w: Props): unknown => (Array.isArray(w["cpu"]) && isRecord(w["cpu"][0]) ? w["cpu"][0]["vcpuCount"] : undefined);
const volumesOf = (w: Props): unknown => (Array.isArray(w["networkVolumes"]) ? w["networkVolumes"] : undefined);

/**
 * Paths of the table's own that are not the reference's: backend/v2Backend.ts (#endpointBody)
 * composes them into its shape before a body is sent (GPU types into `gpu.pools` minus `gpu.excludedTypes`, the
 * scaling value into `scaling.queueDelay` or `scaling.requestCount` by the scaling type).
 */
export type ComposedEndpointPathV2 = "gpu.types" | "scaling.value";

const { update, replace, local, output } = rowsFor<
  Endpoint,
  SentPathV2<"createEndpoint" | "updateEndpoint"> | ComposedEndpointPathV2,
  AnswerPathV2<"getEndpoint">
>();

/** The smallest v2 queue delay, in seconds (QueueDelayScaling.queueDelay "minimum=0.5"). */
export const MIN_QUEUE_DELAY_V2 = 0.5;

const rows = {
  // Required to create an endpoint (crossCheck), not to keep one: a v2 endpoint reports no template
  // (the settings are copied at create), so one imported from v2 is declared without it.
  templateId: update(str({ nonEmpty: true, example: "template.id" }).optional(), {
    observe: (e) => e.templateId,
    v2: { path: "templateId" },
  }),
  name: update(str({ maxLength: 191, example: '"inference"' }).optional(), { observe: (e) => e.name, v2: { path: "name" } }),
  // Compared in order: the order is the priority the service tries the types in (v1).
  gpuTypeIds: update(list(str({ nonEmpty: true, example: '"NVIDIA L4"' }), { example: '["NVIDIA L4"]', unique: true }).optional(), {
    observe: (e) => e.gpuTypeIds,
    // Sent as pools minus excluded types through the catalog (backend/v2Backend.ts); not read back,
    // since v2 keeps no order.
    v2: { path: "gpu.types" },
  }),
  gpuCount: update(num({ min: 1, unit: "GPUs", example: "1" }).optional(), {
    default: 1,
    observe: (e) => e.gpuCount,
    v2: { path: "gpu.count" },
  }),
  // CUDA versions and CPU flavors grow in the service's own list: unknown ones warn (crossCheck).
  allowedCudaVersions: update(list(str({ nonEmpty: true, example: '"12.4"' }), { example: '["12.4"]', unique: true }).optional(), {
    unordered: true,
    observe: (e) => e.allowedCudaVersions,
    // UpdateEndpointGpuConfig: "An explicit `[]` clears the constraint; omitting the field leaves it unchanged."
    v2: { path: "gpu.allowedCudaVersions", resetTo: [] },
  }),
  minCudaVersion: update(str({ nonEmpty: true, example: '"12.4"' }).optional(), {
    observe: (e) => e.minCudaVersion,
    // UpdateEndpointGpuConfig: "An explicit `""` clears the floor; omitting the field leaves it unchanged."
    v2: { path: "gpu.minCudaVersion", resetTo: "" },
  }),
  // Compared in order, like gpuTypeIds: the order is the preference among flavors.
  cpuFlavorIds: update(list(str({ nonEmpty: true, example: '"cpu3c"' }), { example: '["cpu3c"]', unique: true }).optional(), {
    observe: (e) => e.cpuFlavorIds,
    v2: { read: cpuIdsOf },
  }),
  vcpuCount: update(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), {
    default: 2,
    observe: (e) => e.vcpuCount,
    v2: { read: vcpuOf, refuse: vcpuCountRefusal },
  }),
  // The service has been seen to return these sorted (and as a comma-separated string, which the
  // wire schema splits): the order carries no meaning, so it is compared as a set.
  dataCenterIds: update(list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(), {
    unordered: true,
    observe: (e) => e.dataCenterIds,
    // UpdateEndpointRequest.dataCenterIds: "Omit or pass an empty array to let the scheduler choose."
    v2: { path: "dataCenterIds", resetTo: [] },
  }),
  networkVolumeId: update(str({ nonEmpty: true, example: "volume.id" }).optional(), {
    observe: (e) => e.networkVolumeId,
    // Both volume fields travel as `networkVolumes` (backend/v2Backend.ts); removing them sends `[]`
    // (an assumption where the reference is silent: emulator/README.md).
    v2: { read: (w) => (volumesOf(w) as string[] | undefined)?.[0], resetTo: null },
  }),
  networkVolumeIds: update(
    list(str({ nonEmpty: true, example: "volume.id" }), { example: "[volumeA.id, volumeB.id]", unique: true }).optional(),
    {
      unordered: true,
      observe: (e) => e.networkVolumeIds,
      v2: { read: volumesOf, resetTo: [] },
    },
  ),
  workersMin: update(num({ min: 0, unit: "workers", example: "0" }).optional(), {
    default: 0,
    observe: (e) => e.workersMin,
    v2: { path: "workers.min" },
  }),
  workersMax: update(num({ min: 0, unit: "workers", example: "3" }).optional(), {
    observe: (e) => e.workersMax,
    v2: { path: "workers.max" },
  }),
  idleTimeout: update(num({ min: 1, max: 3600, unit: "seconds", example: "5" }).optional(), {
    default: 5,
    observe: (e) => e.idleTimeout,
    v2: { path: "workers.idleTimeout", default: 10 },
  }),
  executionTimeoutMs: update(num({ min: 1, unit: "ms", example: "600000" }).optional(), {
    observe: (e) => e.executionTimeoutMs,
    v2: { path: "timeout", default: 300_000 },
  }),
  scalerType: update(oneOf(SCALER_TYPES).optional(), {
    default: "QUEUE_DELAY",
    observe: (e) => e.scalerType,
    v2: { path: "scaling.type" },
  }),
  // Each API's bounds, quoted by check on a stack of that API. v1: a whole number >= 1. v2
  // (QueueDelayScaling / RequestCountScaling): `queueDelay` a number >= 0.5 (seconds),
  // `requestCount` a whole number >= 1 (a rule across scalerType and scalerValue: crossCheck).
  scalerValue: update(
    num({
      min: 1,
      example: "4",
      boundsNote: `the v1 API's bound; with gpucloud:apiUrl set to the /v2 URL, QUEUE_DELAY takes seconds from ${MIN_QUEUE_DELAY_V2}`,
    }).optional(),
    {
      default: 4,
      observe: (e) => e.scalerValue,
      v2: {
        path: "scaling.value",
        read: scalerValueOf,
        arg: num({
          min: MIN_QUEUE_DELAY_V2,
          integer: false,
          example: "4",
          boundsNote: "the v2 API's bound: seconds in the queue for QUEUE_DELAY, whole requests from 1 for REQUEST_COUNT",
        }).optional(),
      },
    },
  ),
  flashboot: update(boolOrLevel(FLASHBOOT_LEVELS, { example: "true" }).optional(), {
    observe: (e) => e.flashboot,
    same: sameFlashboot,
    v1Refuse: (v) =>
      typeof v === "string"
        ? `FlashBoot levels need the v2 API; on v1 use true or false, or set gpucloud:apiUrl to the /v2 URL`
        : undefined,
    v2: { path: "flashboot", toWire: flashbootToWire, fromWire: flashbootFromWire },
  }),
  // The create-only fields. `type` has no v1 body field: the client carries it in the name.
  computeType: replace(oneOf(COMPUTE_TYPES).optional(), {
    default: "GPU",
    observe: (e) => e.computeType,
    v2: { read: (w) => (Array.isArray(w["cpu"]) && w["cpu"].length > 0 ? "CPU" : "GPU") },
  }),
  type: replace(oneOf(ENDPOINT_TYPES).optional(), {
    default: "QUEUE",
    observe: (e) => e.type,
    v1Refuse: (v) =>
      v === "LOAD_BALANCER"
        ? "load-balancing endpoints need the service's v2 API: set gpucloud:apiUrl to the management API's /v2 URL"
        : undefined,
    v2: { path: "type" },
  }),
  // Provider arguments.
  /**
   * The template's `revision` (v2): v2 copies a template's settings into the endpoint at create,
   * so a new revision re-applies templateId (a new release). Any new value asks for it.
   */
  templateRevision: local("update", str({ example: "template.revision" }).optional(), { same: triggerSame }),
  /**
   * Who applies a change of templateId to the service: the endpoint's own update ("endpoint"), or an
   * EndpointRollout's switch once the new version passed its smoke tests ("rollout"; the endpoint
   * then only records it). Changing it changes nothing by itself.
   */
  templateAppliedBy: local("ignore", oneOf(TEMPLATE_APPLIERS).optional()),
  readyTimeoutSeconds: readyTimeoutSecondsRow,
  adoptId: adoptIdRow,
  // What the service reports.
  // Computed by check from the catalog (model/cost), never read from the service.
  [COST_ESTIMATE]: output(() => undefined),
  endpointId: output((e) => e.id, { v2: { path: "id" } }),
  version: output((e) => e.version),
  createdAt: output((e) => e.createdAt, { v2: { path: "createdAt" } }),
  // v2: where requests go (queue: the job API's URLs; load balancer: `base` on a per-endpoint host).
  requestUrls: output(() => undefined, { v2: { path: "requestUrls" } }),
};

function crossCheck(args: Props, olds: Props, backend: Backend = "v1"): CrossCheckResult {
  const failures = [];
  const standalone = [];
  const creating = Object.keys(olds).length === 0 && !isPresent(args, "adoptId");
  if (creating && !isPresent(args, "templateId"))
    standalone.push(
      failure(
        ["templateId"],
        "is required to create an endpoint (the workers run its image, env and disk); set it, e.g. template.id " +
          "(an existing endpoint, adopted or imported, may leave it out: the v2 API does not report it)",
      ),
    );
  const min = args["workersMin"];
  const max = args["workersMax"];
  if (typeof min === "number" && typeof max === "number" && !isUnknown(min) && min > max) {
    failures.push(
      failure(
        ["workersMin"],
        `${min} is more than workersMax (${max}); set workersMin to at most ${max}, or raise workersMax to ${min} or more`,
      ),
    );
  }
  const name = args["name"];
  const marker = typeof name === "string" && !isUnknown(name) ? nameMarkerOf(name) : undefined;
  // " -fb" is taken off every name read back; " -lb" marks load-balancing endpoints on v1 only.
  if (marker === " -fb" || (marker === " -lb" && backend === "v1")) {
    failures.push(
      failure(
        ["name"],
        `${JSON.stringify(name)} ends in ${JSON.stringify(marker)}, which the service uses to mark ${marker === " -lb" ? "load-balancing endpoints on its v1 API" : "FlashBoot endpoints"} and which is taken off names read back; ` +
          `choose a name that does not end in ${JSON.stringify(marker)} (${marker === " -lb" ? 'load-balancing endpoints are made with type: "LOAD_BALANCER" on the /v2 API URL' : "set flashboot for FlashBoot"})`,
      ),
    );
  }
  const scalerType = args["scalerType"];
  if (args["type"] === "LOAD_BALANCER" && !isUnknown(scalerType) && scalerType !== "REQUEST_COUNT") {
    failures.push(
      failure(
        ["scalerType"],
        `a load-balancing endpoint scales on requests in flight, so it needs scalerType "REQUEST_COUNT" (got ${scalerType === undefined ? "the default QUEUE_DELAY" : JSON.stringify(scalerType)}); ` +
          'set scalerType: "REQUEST_COUNT" and scalerValue to the requests one worker should serve at once',
      ),
    );
  }
  const scalerValue = args["scalerValue"];
  if (
    backend === "v2" &&
    scalerType === "REQUEST_COUNT" &&
    typeof scalerValue === "number" &&
    !isUnknown(scalerValue) &&
    (!Number.isInteger(scalerValue) || scalerValue < 1)
  ) {
    failures.push(
      failure(
        ["scalerValue"],
        `${scalerValue} requests per worker is not a whole number of 1 or more, which REQUEST_COUNT scaling takes on the v2 API; set scalerValue to a whole number such as 4 ` +
          `(fractions from ${MIN_QUEUE_DELAY_V2} are for scalerType "QUEUE_DELAY", seconds in the queue)`,
      ),
    );
  }
  // createEndpoint: exactly one of gpu or cpu, and `cpu` has minItems 1: a CPU endpoint needs flavors.
  const flavors = args["cpuFlavorIds"];
  if (backend === "v2" && args["computeType"] === "CPU" && !isUnknown(flavors) && (!Array.isArray(flavors) || flavors.length === 0)) {
    failures.push(
      failure(
        ["cpuFlavorIds"],
        `a CPU endpoint needs at least one CPU flavor, got ${flavors === undefined ? "none" : JSON.stringify(flavors)}; set cpuFlavorIds, e.g. ["cpu3c"] (see getCpuTypes), or remove computeType: "CPU" for GPU workers`,
      ),
    );
  }
  // Both travel as one `networkVolumes` list and both read back from it: declared together, the
  // list never reads back as either one, and every preview would show a change.
  const volumeIds = args["networkVolumeIds"];
  if (backend === "v2" && typeof args["networkVolumeId"] === "string" && Array.isArray(volumeIds)) {
    const all = [...new Set([args["networkVolumeId"], ...volumeIds])];
    failures.push(
      failure(
        ["networkVolumeId"],
        `${JSON.stringify(args["networkVolumeId"])} is declared beside networkVolumeIds, which the v2 API keeps as one list; ` +
          `declare networkVolumeIds alone with every volume (here ${isUnknown(volumeIds) ? "networkVolumeIds plus this one" : JSON.stringify(all)}) and remove networkVolumeId`,
      ),
    );
  }
  const allowed = args["allowedCudaVersions"];
  const floor = args["minCudaVersion"];
  if (
    backend === "v2" &&
    Array.isArray(allowed) &&
    allowed.length > 0 &&
    typeof floor === "string" &&
    !isUnknown(allowed) &&
    !isUnknown(floor)
  ) {
    failures.push(
      failure(
        ["minCudaVersion"],
        `minCudaVersion ${JSON.stringify(floor)} and allowedCudaVersions ${JSON.stringify(allowed)} exclude each other (the service refuses both); keep the exact set or the floor, not both`,
      ),
    );
  }
  const gpuTypes = args["gpuTypeIds"];
  const warnings = [
    ...(backend === "v2" && Array.isArray(gpuTypes) && gpuTypes.length > 1 && !isUnknown(gpuTypes)
      ? [
          "endpoint gpuTypeIds: the v2 API chooses GPUs by pool and cannot keep an order of preference; workers may run on any of the listed types",
        ]
      : []),
    ...unknownIdWarnings("endpoint", "gpuTypeIds", args["gpuTypeIds"], GPU_TYPE_IDS),
    ...unknownIdWarnings("endpoint", "dataCenterIds", args["dataCenterIds"], DATA_CENTER_IDS),
    ...unknownIdWarnings("endpoint", "allowedCudaVersions", args["allowedCudaVersions"], CUDA_VERSIONS),
    ...unknownIdWarnings("endpoint", "minCudaVersion", args["minCudaVersion"], CUDA_VERSIONS),
    ...unknownIdWarnings("endpoint", "cpuFlavorIds", args["cpuFlavorIds"], ENDPOINT_CPU_FLAVOR_IDS),
  ];
  return { failures, warnings, standalone };
}

export const endpointTable = defineTable<EndpointCreateInput, Endpoint>()({ noun: "endpoint", rows, crossCheck });
export type EndpointArgs = ArgsOf<typeof rows>;
export type { EndpointOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type EndpointRowOutputArguments = OutputArgumentKeys<typeof rows>;
