// Scale: caps on what one declaration may grow to. Always-on workers (workersMin) cost money while
// idle; workersMax bounds a burst; gpuCount is GPUs per pod or per endpoint worker.

import { z } from "zod";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { gpuResourcePolicy } from "./define";
import { numberOf, violationText, type GpuResource } from "./resources";

/** Config of {@link scalePolicy} (`gpucloud-scale`). */
export interface ScalePolicyConfig {
  /** Most always-on workers (`workersMin`) per endpoint; they are billed while idle. Default 2. */
  maxWorkersMin?: number;
  /** Most workers (`workersMax`) per endpoint. Default 20. */
  maxWorkersMax?: number;
  /** Most GPUs (`gpuCount`) per pod, and per endpoint worker. Default 8. */
  maxGpuCount?: number;
}

const count = z.number().int().nonnegative();
const scaleConfig: z.ZodType<Required<ScalePolicyConfig>> & z.ZodObject = z.object({
  maxWorkersMin: count.default(2).describe("Most always-on workers (workersMin) per endpoint. Default 2."),
  maxWorkersMax: count.default(20).describe("Most workers (workersMax) per endpoint. Default 20."),
  maxGpuCount: count.default(8).describe("Most GPUs (gpuCount) per pod and per endpoint worker. Default 8."),
});

function over(resource: GpuResource, field: string, cap: number, capName: string, why: string): string[] {
  const value = numberOf(resource.props[field]);
  if (value === undefined || value <= cap) return [];
  return [
    violationText({
      resource,
      field,
      value,
      rule: `is more than ${capName} (${cap})${why}`,
      fix: `set ${field} to ${cap} or less, or ask the platform team to raise ${capName}`,
    }),
  ];
}

/** workersMin and workersMax per endpoint, GPUs per pod and per worker, within the caps. */
export const scalePolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-scale",
  description:
    "Endpoints keep workersMin and workersMax within the caps (always-on workers cost money while idle); pods and workers use at most maxGpuCount GPUs.",
  enforcementLevel: "mandatory",
  config: scaleConfig,
  check: (resource, config) => {
    if (resource.kind === "pod") return over(resource, "gpuCount", config.maxGpuCount, "maxGpuCount", "");
    if (resource.kind !== "endpoint") return [];
    return [
      ...over(resource, "workersMin", config.maxWorkersMin, "maxWorkersMin", ": always-on workers are billed while idle"),
      ...over(resource, "workersMax", config.maxWorkersMax, "maxWorkersMax", ""),
      ...over(resource, "gpuCount", config.maxGpuCount, "maxGpuCount", " GPUs per worker"),
    ];
  },
});
