// A serverless endpoint's field table and cross-field rules. The service's PATCH accepts every
// create field except computeType (a change of it replaces the endpoint); an update triggers a
// rolling release of the workers.

import { ENDPOINT_TYPES, nameMarkerOf } from "../../client/endpointType";
import { COMPUTE_TYPES, CUDA_VERSIONS, DATA_CENTER_IDS, ENDPOINT_CPU_FLAVOR_IDS, GPU_TYPE_IDS, SCALER_TYPES } from "../../client/enums";
import type { EndpointCreateInput } from "../../client/inputs";
import type { Endpoint } from "../../client/schemas";
import { adoptIdRow, defineTable, readyTimeoutSecondsRow, rowsFor, type ArgsOf, type CrossCheckResult } from "./fieldTable";
import { bool, failure, list, num, oneOf, str, unknownIdWarnings } from "./validation";
import { isUnknown, type Props } from "./values";

const { update, replace, output } = rowsFor<Endpoint>();

const rows = {
  templateId: update(str({ nonEmpty: true, example: "template.id" }), { observe: (e) => e.templateId }),
  name: update(str({ maxLength: 191, example: '"inference"' }).optional(), { observe: (e) => e.name }),
  // Compared in order: the order is the priority the service tries the types in.
  gpuTypeIds: update(list(str({ nonEmpty: true, example: '"NVIDIA L4"' }), { example: '["NVIDIA L4"]', unique: true }).optional(), { observe: (e) => e.gpuTypeIds }),
  gpuCount: update(num({ min: 1, unit: "GPUs", example: "1" }).optional(), { default: 1, observe: (e) => e.gpuCount }),
  // CUDA versions and CPU flavors grow in the service's own list: unknown ones warn (crossCheck).
  allowedCudaVersions: update(list(str({ nonEmpty: true, example: '"12.4"' }), { example: '["12.4"]', unique: true }).optional(), { unordered: true, observe: (e) => e.allowedCudaVersions }),
  minCudaVersion: update(str({ nonEmpty: true, example: '"12.4"' }).optional(), { observe: (e) => e.minCudaVersion }),
  cpuFlavorIds: update(list(str({ nonEmpty: true, example: '"cpu3c"' }), { example: '["cpu3c"]', unique: true }).optional(), { observe: (e) => e.cpuFlavorIds }),
  vcpuCount: update(num({ min: 1, unit: "vCPUs", example: "2" }).optional(), { default: 2, observe: (e) => e.vcpuCount }),
  // The service has been seen to return these sorted (and as a comma-separated string, which the
  // wire schema splits): the order carries no meaning, so it is compared as a set.
  dataCenterIds: update(list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(), { unordered: true, observe: (e) => e.dataCenterIds }),
  networkVolumeId: update(str({ nonEmpty: true, example: "volume.id" }).optional(), { observe: (e) => e.networkVolumeId }),
  networkVolumeIds: update(list(str({ nonEmpty: true, example: "volume.id" }), { example: "[volumeA.id, volumeB.id]", unique: true }).optional(), {
    unordered: true,
    observe: (e) => e.networkVolumeIds,
  }),
  workersMin: update(num({ min: 0, unit: "workers", example: "0" }).optional(), { default: 0, observe: (e) => e.workersMin }),
  workersMax: update(num({ min: 0, unit: "workers", example: "3" }).optional(), { observe: (e) => e.workersMax }),
  idleTimeout: update(num({ min: 1, max: 3600, unit: "seconds", example: "5" }).optional(), { default: 5, observe: (e) => e.idleTimeout }),
  executionTimeoutMs: update(num({ min: 1, unit: "ms", example: "600000" }).optional(), { observe: (e) => e.executionTimeoutMs }),
  scalerType: update(oneOf(SCALER_TYPES).optional(), { default: "QUEUE_DELAY", observe: (e) => e.scalerType }),
  scalerValue: update(num({ min: 1, example: "4" }).optional(), { default: 4, observe: (e) => e.scalerValue }),
  flashboot: update(bool({ example: "true" }).optional(), { observe: (e) => e.flashboot }),
  // The create-only fields. `type` has no v1 body field: the client carries it in the name.
  computeType: replace(oneOf(COMPUTE_TYPES).optional(), { default: "GPU", observe: (e) => e.computeType }),
  type: replace(oneOf(ENDPOINT_TYPES).optional(), { default: "QUEUE", observe: (e) => e.type }),
  // Provider arguments.
  readyTimeoutSeconds: readyTimeoutSecondsRow,
  adoptId: adoptIdRow,
  // What the service reports.
  endpointId: output((e) => e.id),
  version: output((e) => e.version),
  createdAt: output((e) => e.createdAt),
};

function crossCheck(args: Props): CrossCheckResult {
  const failures = [];
  const min = args["workersMin"];
  const max = args["workersMax"];
  if (typeof min === "number" && typeof max === "number" && !isUnknown(min) && min > max) {
    failures.push(failure(["workersMin"], `${min} is more than workersMax (${max}); set workersMin to at most ${max}, or raise workersMax to ${min} or more`));
  }
  const name = args["name"];
  const marker = typeof name === "string" && !isUnknown(name) ? nameMarkerOf(name) : undefined;
  if (marker !== undefined) {
    failures.push(
      failure(
        ["name"],
        `${JSON.stringify(name)} ends in ${JSON.stringify(marker)}, which the service uses to mark ${marker === " -lb" ? "load-balancing" : "FlashBoot"} endpoints and which is taken off names read back; ` +
          `choose a name that does not end in ${JSON.stringify(marker)} (${marker === " -lb" ? 'set type: "LOAD_BALANCER" for a load-balancing endpoint' : "set flashboot: true for FlashBoot"})`,
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
  const warnings = [
    ...unknownIdWarnings("endpoint", "gpuTypeIds", args["gpuTypeIds"], GPU_TYPE_IDS),
    ...unknownIdWarnings("endpoint", "dataCenterIds", args["dataCenterIds"], DATA_CENTER_IDS),
    ...unknownIdWarnings("endpoint", "allowedCudaVersions", args["allowedCudaVersions"], CUDA_VERSIONS),
    ...unknownIdWarnings("endpoint", "minCudaVersion", args["minCudaVersion"], CUDA_VERSIONS),
    ...unknownIdWarnings("endpoint", "cpuFlavorIds", args["cpuFlavorIds"], ENDPOINT_CPU_FLAVOR_IDS),
  ];
  return { failures, warnings };
}

export const endpointTable = defineTable<EndpointCreateInput, Endpoint>()({ noun: "endpoint", rows, crossCheck });
export type EndpointArgs = ArgsOf<typeof rows>;
