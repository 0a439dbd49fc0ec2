import * as pulumi from "@pulumi/pulumi";
import { COST_SUMMARY_TYPE, RESOURCE_MODULE } from "../model/kinds";
import costSummaryShim from "../provider/shims/costSummary";
import { budgetFromConfig, estimateKeys, figuresOf, resolveBudget, type CostBudget } from "../model/cost/summary";
import { pricedSoFar, type PricedResource } from "./costRegistry";
import { Endpoint } from "./endpoint";
import { NetworkVolume } from "./networkVolume";

export type { PricedResource } from "./costRegistry";

export interface CostReportArgs {
  /**
   * The resources to sum. Default: every Pod, Endpoint and NetworkVolume the program declared
   * before this report, inside components too (an EndpointRollout's serving endpoint counts). Declare the
   * report last: a priced resource declared after it is left out, with a warning naming both.
   */
  resources?: PricedResource[];
  /**
   * The budget: `perHour` (USD per hour, always-on rate), `ceilingPerHour` (USD per hour, every
   * endpoint at workersMax), `perMonth` (USD per month of storage). Each limit this leaves unset
   * comes from stack config: `gpucloud:budgetPerHour`, `gpucloud:budgetCeilingPerHour`,
   * `gpucloud:budgetPerMonth`. Where both set a limit, this argument wins, and the preview warns
   * that the two differ. A figure without a limit is shown, not limited (storage too). Default: no
   * limit. Checked at every preview and up; a change is in place (nothing on the service changes).
   */
  budget?: CostBudget;
}

/** The record of the stack's figures behind the report; its check prints them (provider/cost/summaryProvider.ts). */
class CostSummaryRecord extends pulumi.dynamic.Resource {
  declare readonly perHour: pulumi.Output<number>;
  declare readonly ceilingPerHour: pulumi.Output<number>;
  declare readonly perMonth: pulumi.Output<number>;
  declare readonly unpriced: pulumi.Output<string[]>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts: pulumi.CustomResourceOptions) {
    super(
      costSummaryShim,
      name,
      { ...props, perHour: undefined, ceilingPerHour: undefined, perMonth: undefined, unpriced: undefined },
      opts,
      RESOURCE_MODULE,
      COST_SUMMARY_TYPE,
    );
  }
}

/**
 * The stack's cost at list prices (and the user's own prices, `gpucloud:prices`), summed from its
 * resources' estimates. Every preview and up prints one line with the sums and the change against
 * the last up: `estimated cost: 1.29 USD/hour always-on, ... (+0.43 USD/hour always-on vs the last
 * up: 0.86)`. With a budget, a preview whose sum exceeds it fails naming the resources that cost
 * most; as `pulumi up` previews first, nothing is created (not so with `--skip-preview`, where the
 * check runs once the priced resources exist).
 *
 * On the v2 API the same check holds the stack against the account's limits (`getAccountLimits`):
 * the sum of `workersMax` over the stack's endpoints plus the account's other endpoints against the
 * serverless worker quota, and the always-on rate against the hourly spend cap. Over a cap fails the
 * preview naming the cap, the figure and what uses most; within 10% of it warns. An API key without
 * the scope `account:read` turns this into one warning. The check runs only with a CostReport.
 */
export class CostReport extends pulumi.ComponentResource {
  /** USD per hour always on: running pods plus endpoints' workersMin workers. */
  declare readonly perHour: pulumi.Output<number>;
  /** USD per hour with every endpoint at workersMax workers. */
  declare readonly ceilingPerHour: pulumi.Output<number>;
  /** USD per month of network volume storage (at the prices in `gpucloud:prices`). */
  declare readonly perMonth: pulumi.Output<number>;
  /** The resources left out, with the reason ("unavailable" or "pending" estimates). */
  declare readonly unpriced: pulumi.Output<string[]>;

  constructor(name: string, args: CostReportArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    super("gpucloud:index:CostReport", name, {}, opts);
    const resolved = resolveBudget(
      args.budget,
      budgetFromConfig((key) => new pulumi.Config("gpucloud").get(key)),
    );
    for (const conflict of resolved.conflicts) void pulumi.log.warn(`CostReport ${JSON.stringify(name)}: ${conflict}`, this);
    const priced = args.resources
      ? args.resources.map((resource) => ({ name: resource.urn.apply(nameOfUrn), resource }))
      : pricedSoFar(name);
    // Keyed by name, each value its own Output: one estimate unknown at preview leaves the others
    // summed, and `--diff` names the resource whose figures changed.
    const estimates = byName(priced, (resource) => resource.costEstimate.apply(figuresOf));
    // The endpoints, for the account's serverless worker quota: its own are told from the account's
    // other endpoints by id (a new one has none yet). Of either path: this package's class, or the
    // plugin's `gpucloud:index:Endpoint` (the typed classes of `pulumi-gpucloud/plugin`).
    const endpoints = byName(
      priced.filter((p): p is typeof p & { resource: QuotaEndpoint } => isEndpoint(p.resource)),
      (resource) => ({ id: resource.id, workersMax: resource.workersMax }),
    );
    const record = new CostSummaryRecord(
      `${name}-summary`,
      {
        report: name,
        estimates,
        budget: definedOnly(resolved.budget),
        budgetSources: resolved.sources,
        // Priced per month only: an hourly budget does not wait for their price.
        storage: pulumi
          .all(priced.map((p) => p.name))
          .apply((names) => estimateKeys(names).filter((_, i) => priced[i] !== undefined && isKind(priced[i].resource, "NetworkVolume"))),
        endpoints,
      },
      { parent: this },
    );
    Object.assign(this, {
      perHour: record.perHour,
      ceilingPerHour: record.ceilingPerHour,
      perMonth: record.perMonth,
      unpriced: record.unpriced,
    });
    this.registerOutputs({ perHour: this.perHour, ceilingPerHour: this.ceilingPerHour, perMonth: this.perMonth, unpriced: this.unpriced });
  }
}

/**
 * A map from each resource's name (estimateKeys: a repeated name gets `#2`) to what `entryOf`
 * makes of it. The names are Outputs (known at preview: a resource's URN is); the values stay
 * Outputs of their own, so one unknown value leaves the others known.
 */
function byName<R extends PricedResource, V>(
  entries: readonly { name: pulumi.Input<string>; resource: R }[],
  entryOf: (resource: R) => V,
): pulumi.Output<Record<string, unknown>> {
  return pulumi.all(entries.map((e) => e.name)).apply((names): Record<string, unknown> => {
    const keys = estimateKeys(names);
    return Object.fromEntries(entries.map((e, i) => [keys[i], entryOf(e.resource)]));
  });
}

/** What the worker quota check reads of an endpoint, on either path. */
type QuotaEndpoint = pulumi.CustomResource & { workersMax: pulumi.Output<number | undefined> };

/** This package's class of each kind a report tells apart; the plugin's typed classes register `gpucloud:index:<kind>`. */
const DYNAMIC_CLASSES = { Endpoint, NetworkVolume } as const;

/** Whether a priced resource is of `kind` on either path: this package's class, or the plugin's type token. */
function isKind(resource: PricedResource, kind: keyof typeof DYNAMIC_CLASSES): boolean {
  if (resource instanceof DYNAMIC_CLASSES[kind]) return true;
  return (resource as { __pulumiType?: unknown }).__pulumiType === `gpucloud:index:${kind}` && resource instanceof pulumi.CustomResource;
}

function isEndpoint(resource: PricedResource): resource is PricedResource & QuotaEndpoint {
  return isKind(resource, "Endpoint");
}

/** The resource's name: the last part of `urn:pulumi:stack::project::type::name`. */
function nameOfUrn(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/** The budget without absent limits (undefined is not a value a resource input can carry). */
function definedOnly(budget: CostBudget): CostBudget {
  return Object.fromEntries(Object.entries(budget).filter(([, v]) => v !== undefined));
}
