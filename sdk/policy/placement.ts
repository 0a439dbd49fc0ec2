// Placement: where pods, endpoints and network volumes may run. The ids a config may name are the
// package's own lists (client/enums.ts), so a typo in the config fails with the closest id.

import { z } from "zod";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { CLOUD_TYPES, DATA_CENTER_IDS, ENDPOINT_CPU_FLAVOR_IDS, GPU_TYPE_IDS, POD_CPU_FLAVOR_IDS } from "../../client/enums";
import { podTable } from "../../model/kinds/pod/podFields";
import { gpuResourcePolicy, idList } from "./define";
import { known, stringOf, stringsOf, violationText, type GpuResource } from "./resources";

/** Config of {@link placementPolicy} (`gpucloud-placement`). Each list left out allows anything. */
export interface PlacementPolicyConfig {
  /** GPU type ids pods and endpoints may ask for (`gpuTypeIds`), e.g. `["NVIDIA L4", "NVIDIA A40"]`. Any when absent. */
  allowedGpuTypeIds?: string[] | undefined;
  /** CPU flavor ids CPU pods and endpoints may ask for (`cpuFlavorIds`), e.g. `["cpu3c"]`. Any when absent. */
  allowedCpuFlavorIds?: string[] | undefined;
  /** Clouds pods may run in (`cloudType`, default SECURE), e.g. `["SECURE"]` for secure cloud only. Any when absent. */
  allowedCloudTypes?: Array<"SECURE" | "COMMUNITY"> | undefined;
  /**
   * Data centers pods, endpoints and network volumes may be in (`dataCenterIds`, `dataCenterId`),
   * e.g. those with GDPR compliance: the ids `getDataCenters()` lists with that compliance. A pod
   * or endpoint that names none may be placed anywhere, so it is reported too. Any when absent.
   */
  allowedDataCenterIds?: string[] | undefined;
}

const placementConfig: z.ZodType<PlacementPolicyConfig> & z.ZodObject = z.object({
  allowedGpuTypeIds: idList(GPU_TYPE_IDS, "GPU type id").describe("GPU type ids pods and endpoints may use. Any when absent."),
  allowedCpuFlavorIds: idList([...new Set([...POD_CPU_FLAVOR_IDS, ...ENDPOINT_CPU_FLAVOR_IDS])], "CPU flavor id").describe(
    "CPU flavor ids CPU pods and endpoints may use. Any when absent.",
  ),
  allowedCloudTypes: z.array(z.enum(CLOUD_TYPES)).optional().describe('Clouds pods may run in, e.g. ["SECURE"]. Any when absent.'),
  allowedDataCenterIds: idList(DATA_CENTER_IDS, "data center id").describe(
    "Data centers pods, endpoints and network volumes may be in (e.g. those with GDPR compliance). Any when absent.",
  ),
});

const listed = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(", ");

/** The ids of a list argument outside the allowed ones, as a violation (one per argument). */
function outside(resource: GpuResource, field: string, allowed: readonly string[] | undefined, what: string): string[] {
  if (allowed === undefined) return [];
  const value = resource.props[field];
  if (!known(value) || (Array.isArray(value) && value.some((v) => !known(v)))) return [];
  const given = field === "dataCenterId" ? [stringOf(value) ?? ""] : stringsOf(value);
  const bad = given.filter((id) => !allowed.includes(id));
  if (bad.length === 0) return [];
  return [
    violationText({
      resource,
      field,
      value,
      rule: `${bad.length > 1 ? "name" : "names"} ${listed(bad)}, not an allowed ${what} (allowed: ${listed(allowed)})`,
      fix: `use only ${listed(allowed)}, or ask the platform team to allow ${listed(bad)}`,
    }),
  ];
}

/** A list argument left out where an allow-list applies: the service may then pick anything. */
function unlisted(resource: GpuResource, field: string, allowed: readonly string[] | undefined, what: string): string[] {
  if (allowed === undefined) return [];
  const value = resource.props[field];
  if (!(value === undefined || (Array.isArray(value) && value.length === 0))) return [];
  return [
    violationText({
      resource,
      field,
      shown: "(not declared)",
      rule: `leaves the ${what} to the service, which may pick one that is not allowed (allowed: ${listed(allowed)})`,
      fix: `set ${field} to some of ${listed(allowed)}`,
    }),
  ];
}

/** GPU types, CPU flavors, clouds and data centers within the configured lists. */
export const placementPolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-placement",
  description: "Pods, endpoints and network volumes use only the allowed GPU types, CPU flavors, clouds and data centers.",
  enforcementLevel: "mandatory",
  config: placementConfig,
  check: (resource, config) => {
    const props = resource.props;
    if (resource.kind === "networkVolume") return outside(resource, "dataCenterId", config.allowedDataCenterIds, "data center");
    if (resource.kind !== "pod" && resource.kind !== "endpoint") return [];
    const cpu = stringOf(props["computeType"]) === "CPU";
    const out = cpu
      ? outside(resource, "cpuFlavorIds", config.allowedCpuFlavorIds, "CPU flavor")
      : [
          ...outside(resource, "gpuTypeIds", config.allowedGpuTypeIds, "GPU type"),
          ...(resource.kind === "endpoint" || props["templateId"] === undefined
            ? unlisted(resource, "gpuTypeIds", config.allowedGpuTypeIds, "GPU type")
            : []),
        ];
    out.push(...outside(resource, "dataCenterIds", config.allowedDataCenterIds, "data center"));
    out.push(...unlisted(resource, "dataCenterIds", config.allowedDataCenterIds, "data center"));
    if (resource.kind === "pod" && config.allowedCloudTypes !== undefined) {
      const declared = props["cloudType"];
      // The service's default when none is declared (the field table's).
      const cloud = declared === undefined ? stringOf(podTable.fields["cloudType"]?.default) : stringOf(declared);
      if (cloud !== undefined && !(config.allowedCloudTypes as readonly string[]).includes(cloud)) {
        out.push(
          violationText({
            resource,
            field: "cloudType",
            value: cloud,
            rule: `is not an allowed cloud (allowed: ${listed(config.allowedCloudTypes)})`,
            fix: `set cloudType to ${listed(config.allowedCloudTypes)}`,
          }),
        );
      }
    }
    return out;
  },
});
