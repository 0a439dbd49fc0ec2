// A serverless endpoint's arguments, checks and policy table. The service's PATCH accepts every
// create field except computeType (a change of it replaces the endpoint); an update triggers a
// rolling release of the workers.

import { z } from "zod";
import { ENDPOINT_TYPES, nameEndsWithTypeMarker } from "../../client/endpointType";
import type { Endpoint } from "../../client/schemas";
import { COMPUTE_TYPES, CPU_FLAVOR_IDS_FOR_ENDPOINTS, CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPE_IDS, SCALER_TYPES } from "./catalog";
import { unknownIdWarnings } from "./catalogWarnings";
import { adoptIdArg, adoptIdPolicy, readyTimeoutSecondsArg, readyTimeoutSecondsPolicy } from "./commonArgs";
import { replace, serverManaged, update, type ResourcePolicy } from "./fieldPolicy";
import type { CrossCheckResult, ResourceDefinition } from "./resourceBase";
import { isUnknown } from "./unknown";
import { bool, failure, list, num, oneOf, str } from "./validation";
import type { Props } from "./values";

export const endpointArgsSchema = z.object({
  templateId: str({ nonEmpty: true, example: "template.id" }),
  name: str({ maxLength: 191, example: '"inference"' }).optional(),
  computeType: oneOf(COMPUTE_TYPES).optional(),
  type: oneOf(ENDPOINT_TYPES).optional(),
  gpuTypeIds: list(str({ nonEmpty: true, example: '"NVIDIA L4"' }), { example: '["NVIDIA L4"]', unique: true }).optional(),
  gpuCount: num({ min: 1, unit: "GPUs", example: "1" }).optional(),
  allowedCudaVersions: list(oneOf(CUDA_VERSIONS), { example: '["12.4"]', unique: true }).optional(),
  minCudaVersion: oneOf(CUDA_VERSIONS).optional(),
  cpuFlavorIds: list(oneOf(CPU_FLAVOR_IDS_FOR_ENDPOINTS), { example: '["cpu3c"]', unique: true }).optional(),
  vcpuCount: num({ min: 1, unit: "vCPUs", example: "2" }).optional(),
  dataCenterIds: list(str({ nonEmpty: true, example: '"EU-RO-1"' }), { example: '["EU-RO-1"]', unique: true }).optional(),
  networkVolumeId: str({ nonEmpty: true, example: "volume.id" }).optional(),
  networkVolumeIds: list(str({ nonEmpty: true, example: "volume.id" }), { example: "[volumeA.id, volumeB.id]", unique: true }).optional(),
  workersMin: num({ min: 0, unit: "workers", example: "0" }).optional(),
  workersMax: num({ min: 0, unit: "workers", example: "3" }).optional(),
  idleTimeout: num({ min: 1, max: 3600, unit: "seconds", example: "5" }).optional(),
  executionTimeoutMs: num({ min: 1, unit: "ms", example: "600000" }).optional(),
  scalerType: oneOf(SCALER_TYPES).optional(),
  scalerValue: num({ min: 1, example: "4" }).optional(),
  flashboot: bool({ example: "true" }).optional(),
  // Provider arguments.
  readyTimeoutSeconds: readyTimeoutSecondsArg,
  adoptId: adoptIdArg,
});

export type EndpointArgs = z.output<typeof endpointArgsSchema>;

export const endpointPolicy: ResourcePolicy<Endpoint> = {
  noun: "endpoint",
  fields: {
    templateId: update({ observe: (e) => e.templateId }),
    name: update({ observe: (e) => e.name }),
    gpuTypeIds: update({ observe: (e) => e.gpuTypeIds }),
    gpuCount: update({ default: 1, observe: (e) => e.gpuCount }),
    allowedCudaVersions: update({ unordered: true, observe: (e) => e.allowedCudaVersions }),
    minCudaVersion: update({ observe: (e) => e.minCudaVersion }),
    cpuFlavorIds: update({ observe: (e) => e.cpuFlavorIds }),
    vcpuCount: update({ default: 2, observe: (e) => e.vcpuCount }),
    dataCenterIds: update({ observe: (e) => e.dataCenterIds }),
    networkVolumeId: update({ observe: (e) => e.networkVolumeId }),
    networkVolumeIds: update({ unordered: true, observe: (e) => e.networkVolumeIds }),
    workersMin: update({ default: 0, observe: (e) => e.workersMin }),
    workersMax: update({ observe: (e) => e.workersMax }),
    idleTimeout: update({ default: 5, observe: (e) => e.idleTimeout }),
    executionTimeoutMs: update({ observe: (e) => e.executionTimeoutMs }),
    scalerType: update({ default: "QUEUE_DELAY", observe: (e) => e.scalerType }),
    scalerValue: update({ default: 4, observe: (e) => e.scalerValue }),
    flashboot: update({ observe: (e) => e.flashboot }),
    // The create-only fields.
    computeType: replace({ default: "GPU", observe: (e) => e.computeType }),
    type: replace({ default: "QUEUE", observe: (e) => e.type }),
    // Provider arguments.
    readyTimeoutSeconds: readyTimeoutSecondsPolicy(),
    adoptId: adoptIdPolicy(),
    // What the service reports.
    endpointId: serverManaged((e) => e.id),
    version: serverManaged((e) => e.version),
    createdAt: serverManaged((e) => e.createdAt),
  },
};

function crossCheck(args: Props): CrossCheckResult {
  const failures = [];
  const min = args["workersMin"];
  const max = args["workersMax"];
  if (typeof min === "number" && typeof max === "number" && !isUnknown(min) && min > max) {
    failures.push(failure(["workersMin"], `${min} is more than workersMax (${max}); set workersMin to at most ${max}, or raise workersMax to ${min} or more`));
  }
  const name = args["name"];
  if (typeof name === "string" && !isUnknown(name) && nameEndsWithTypeMarker(name)) {
    failures.push(
      failure(
        ["name"],
        `"${name}" ends in " -lb", which the service's v1 API uses to mark load-balancing endpoints; ` +
          'choose a name that does not end in " -lb" (set type: "LOAD_BALANCER" to make a load-balancing endpoint)',
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
  ];
  return { failures, warnings };
}

export const endpointDefinition: ResourceDefinition<EndpointArgs, Endpoint> = { policy: endpointPolicy, schema: endpointArgsSchema, crossCheck };
