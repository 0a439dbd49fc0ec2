import * as pulumi from "@pulumi/pulumi";
import type { CostEstimate } from "../provider/cost/estimate";
import { budgetExcess, budgetFromConfig, summarize, summaryLine, type CostBudget, type CostSummary } from "../provider/cost/summary";

/** A resource with a cost estimate: a Pod, Endpoint or NetworkVolume. */
export interface PricedResource {
  readonly urn: pulumi.Output<string>;
  readonly costEstimate: pulumi.Output<CostEstimate | undefined>;
}

export interface CostReportArgs {
  /** The resources to sum (a component cannot list the stack by itself: pass each priced resource). */
  resources: PricedResource[];
  /**
   * Budget in USD per hour. Default: stack config `gpucloud:budgetPerHour` (always-on rate) and
   * `gpucloud:budgetCeilingPerHour` (every endpoint at workersMax); no limit when neither is set.
   */
  budget?: CostBudget;
}

/**
 * The stack's cost at list prices, summed from its resources' estimates and printed in the preview's
 * output. With a budget, a preview whose estimate exceeds it fails naming the resources that cost
 * most; as `pulumi up` previews first, nothing is created (not so with `--skip-preview`). Export
 * `perHour` / `ceilingPerHour` as stack outputs to see the change against the last up in the preview.
 */
export class CostReport extends pulumi.ComponentResource {
  /** USD per hour always on: running pods plus endpoints' workersMin workers. */
  declare readonly perHour: pulumi.Output<number>;
  /** USD per hour with every endpoint at workersMax workers. */
  declare readonly ceilingPerHour: pulumi.Output<number>;
  /** USD per month of storage (network volumes have no catalog price: 0 today). */
  declare readonly perMonth: pulumi.Output<number>;
  /** The resources left out, with the reason ("unavailable" or "pending" estimates). */
  declare readonly unpriced: pulumi.Output<string[]>;

  constructor(name: string, args: CostReportArgs, opts?: pulumi.ComponentResourceOptions) {
    super("gpucloud:index:CostReport", name, {}, opts);
    const budget = args.budget ?? budgetFromConfig((key) => new pulumi.Config("gpucloud").get(key));
    const entries = args.resources.map((r) => pulumi.all([r.urn, r.costEstimate]).apply(([urn, estimate]) => ({ name: urn.split("::").pop() ?? urn, estimate })));
    const summary: pulumi.Output<CostSummary> = pulumi.all(entries).apply((all) => {
      const s = summarize(all);
      void pulumi.log.info(summaryLine(s), this);
      const excess = budgetExcess(s, budget);
      if (excess) throw new pulumi.RunError(excess);
      return s;
    });
    Object.assign(this, {
      perHour: summary.apply((s) => s.perHour),
      ceilingPerHour: summary.apply((s) => s.ceilingPerHour),
      perMonth: summary.apply((s) => s.perMonth),
      unpriced: summary.apply((s) => s.unpriced),
    });
    this.registerOutputs({ perHour: this.perHour, ceilingPerHour: this.ceilingPerHour, perMonth: this.perMonth, unpriced: this.unpriced });
  }
}
