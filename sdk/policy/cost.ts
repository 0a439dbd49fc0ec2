// Cost: each pod's and endpoint's estimated hourly cost, and the stack's, held to configured
// figures. The figures are the package's own estimates (model/cost), which check records on each
// resource under `costEstimate`: the same ones CostReport sums and shows. A resource whose cost
// cannot be known is reported, never counted as 0.

import { z } from "zod";
import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import type { CostEstimate } from "../../model/cost/estimate";
import { figuresOf, summarize, type EstimateFigures } from "../../model/cost/summary";
import { COST_ESTIMATE } from "../../model/fields/estimateOutput";
import { isRecord, isUnknown } from "../../model/fields/values";
import type { ResourceKind } from "../../model/kinds";
import { gpuResourcePolicy, gpuStackPolicy, type StackViolation } from "./define";
import { gpuResourceOf, labelOf, type GpuResource } from "./resources";

/** The kinds with an hourly figure (a network volume's storage is priced per month, not held here). */
const HOURLY_KINDS: readonly ResourceKind[] = ["pod", "endpoint"];

/** Config of {@link resourceCostPolicy} (`gpucloud-cost-resource`). */
export interface ResourceCostPolicyConfig {
  /**
   * Most USD per hour one resource may cost always on: a pod while it runs, an endpoint's
   * `workersMin` workers (the estimate's `perHour`). No limit when absent.
   */
  maxHourlyUsd?: number | undefined;
  /**
   * Most USD per hour one resource may cost at its ceiling: an endpoint with `workersMax` workers
   * busy, a pod at its rate (the estimate's `ceilingPerHour`). No limit when absent.
   */
  maxCeilingHourlyUsd?: number | undefined;
  /**
   * Let a pod or endpoint whose cost cannot be estimated (e.g. several `gpuTypeIds`, a spot pod,
   * the v1 API without a price catalog) pass. Default false: with a limit set, it is reported with
   * the reason, never counted as 0.
   */
  allowUnpriced?: boolean | undefined;
}

/** Config of {@link stackCostPolicy} (`gpucloud-cost-stack`). */
export interface StackCostPolicyConfig {
  /** Most USD per hour the stack's pods and endpoints may cost always on (the sum CostReport shows as `perHour`). No limit when absent. */
  maxHourlyUsd?: number | undefined;
  /** Most USD per hour with every endpoint at `workersMax` workers (CostReport's `ceilingPerHour`). No limit when absent. */
  maxCeilingHourlyUsd?: number | undefined;
  /** Let the stack pass while some resources' cost cannot be estimated. Default false: they are named, not counted as 0. */
  allowUnpriced?: boolean | undefined;
}

const usd = z.number().nonnegative();
const costConfig = z.object({
  maxHourlyUsd: usd.optional().describe("Most USD per hour always on (pods running, endpoints' workersMin workers). No limit when absent."),
  maxCeilingHourlyUsd: usd.optional().describe("Most USD per hour with endpoints at workersMax workers. No limit when absent."),
  allowUnpriced: z.boolean().default(false).describe("Let resources whose cost cannot be estimated pass (default false: reported)."),
});
const resourceCostConfig: z.ZodType<Required<Pick<ResourceCostPolicyConfig, "allowUnpriced">> & ResourceCostPolicyConfig> & z.ZodObject =
  costConfig;
const stackCostConfig: z.ZodType<Required<Pick<StackCostPolicyConfig, "allowUnpriced">> & StackCostPolicyConfig> & z.ZodObject = costConfig;

/** The estimate check recorded on the resource (a value not known yet counts as pending). */
function estimateOf(resource: GpuResource): EstimateFigures {
  const recorded = resource.props[COST_ESTIMATE];
  if (isUnknown(recorded)) return { status: "pending", reason: "the estimate is made at apply" };
  return figuresOf(isRecord(recorded) && typeof recorded["status"] === "string" ? (recorded as unknown as CostEstimate) : undefined);
}

const usdText = (value: number): string => `${value} USD/hour`;
const UNPRICED_FIX =
  "declare a single GPU type (gpuTypeIds) or CPU flavor on the v2 API so that the package can estimate it, or set allowUnpriced in the policy config";

/** Pods and endpoints: always-on and ceiling rates at most the configured figures; an unknown cost reported. */
export const resourceCostPolicy: ResourceValidationPolicy = gpuResourcePolicy({
  name: "gpucloud-cost-resource",
  description:
    "Each pod's and endpoint's estimated hourly cost (always on, and at workersMax) is at most the configured figure; a cost that cannot be estimated is reported, not counted as 0.",
  enforcementLevel: "advisory",
  config: resourceCostConfig,
  check: (resource, config) => {
    if (!HOURLY_KINDS.includes(resource.kind)) return [];
    if (config.maxHourlyUsd === undefined && config.maxCeilingHourlyUsd === undefined) return [];
    const estimate = estimateOf(resource);
    // Pending: an argument is not known until apply, when the engine runs the policy again.
    if (estimate.status === "pending") return [];
    if (estimate.status !== "estimated" || estimate.perHour === undefined) {
      if (config.allowUnpriced) return [];
      return [
        `${labelOf(resource)}: cost unknown (${estimate.reason ?? "no estimate"}): it cannot be held to the cost limit and is not counted as 0; ${UNPRICED_FIX}`,
      ];
    }
    const out: string[] = [];
    const ceiling = estimate.ceilingPerHour ?? estimate.perHour;
    if (config.maxHourlyUsd !== undefined && estimate.perHour > config.maxHourlyUsd) {
      out.push(
        `${labelOf(resource)}: estimated always-on cost ${usdText(estimate.perHour)} is more than maxHourlyUsd (${usdText(config.maxHourlyUsd)}); ` +
          `${resource.kind === "endpoint" ? "lower workersMin" : "choose a cheaper GPU type or fewer GPUs"}, or raise maxHourlyUsd in the policy config`,
      );
    }
    if (config.maxCeilingHourlyUsd !== undefined && ceiling > config.maxCeilingHourlyUsd) {
      out.push(
        `${labelOf(resource)}: estimated ceiling cost ${usdText(ceiling)} is more than maxCeilingHourlyUsd (${usdText(config.maxCeilingHourlyUsd)}); ` +
          `${resource.kind === "endpoint" ? "lower workersMax" : "choose a cheaper GPU type or fewer GPUs"}, or raise maxCeilingHourlyUsd in the policy config`,
      );
    }
    return out;
  },
});

/** The stack's sums (as CostReport makes them) at most the configured figures; unpriced resources named. */
export const stackCostPolicy: StackValidationPolicy = gpuStackPolicy({
  name: "gpucloud-cost-stack",
  description:
    "The stack's estimated hourly cost (always on, and with every endpoint at workersMax) is at most the configured figure, summed as CostReport sums it; resources whose cost cannot be estimated are named, never counted as 0.",
  enforcementLevel: "advisory",
  config: stackCostConfig,
  check: (resources, config) => {
    if (config.maxHourlyUsd === undefined && config.maxCeilingHourlyUsd === undefined) return [];
    const priced = resources.map(gpuResourceOf).filter((r): r is GpuResource => r !== undefined && HOURLY_KINDS.includes(r.kind));
    const summary = summarize(priced.map((r) => ({ name: labelOf(r), estimate: estimateOf(r) })));
    const unpriced = summary.unpriced.filter((u) => !summary.pendingUntilApply.includes(u));
    const notCounted = unpriced.length > 0 ? ` (not counted, cost unknown: ${unpriced.join("; ")})` : "";
    const dearest = summary.ranked
      .slice()
      .sort((a, b) => b.perHour - a.perHour)
      .slice(0, 3)
      .map((r) => `${r.name} ${r.perHour}`)
      .join(", ");
    const out: StackViolation[] = [];
    if (config.maxHourlyUsd !== undefined && summary.perHour > config.maxHourlyUsd) {
      out.push({
        message: `stack: estimated always-on cost ${usdText(summary.perHour)} (dearest: ${dearest}) is more than maxHourlyUsd (${usdText(config.maxHourlyUsd)})${notCounted}; lower workersMin or stop pods, or raise maxHourlyUsd in the policy config`,
      });
    }
    if (config.maxCeilingHourlyUsd !== undefined && summary.ceilingPerHour > config.maxCeilingHourlyUsd) {
      out.push({
        message: `stack: estimated ceiling cost ${usdText(summary.ceilingPerHour)} with every endpoint at workersMax is more than maxCeilingHourlyUsd (${usdText(config.maxCeilingHourlyUsd)})${notCounted}; lower workersMax, or raise maxCeilingHourlyUsd in the policy config`,
      });
    }
    if (out.length === 0 && unpriced.length > 0 && !config.allowUnpriced) {
      out.push({
        message: `stack: the cost of ${unpriced.length} resource(s) cannot be estimated, so the stack cannot be held to its cost limit (they are not counted as 0): ${unpriced.join("; ")}; ${UNPRICED_FIX}`,
      });
    }
    return out;
  },
});
