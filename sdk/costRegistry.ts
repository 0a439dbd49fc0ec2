/**
 * The priced resources a program declared, so that a CostReport sums them without being handed a
 * list. Pod, Endpoint and NetworkVolume add themselves when constructed, wherever they are declared
 * (inside components too: an EndpointRollout's serving endpoint counts). A report can only see what was
 * declared before it; a priced resource declared after a report that discovers its resources gets a
 * warning naming both, rather than being silently left out.
 *
 * One list per program run: the key is the run's root stack resource, so an inline program run
 * again in the same process (the automation API) starts empty.
 */
import * as pulumi from "@pulumi/pulumi";
import type { CostEstimate } from "../model/cost/estimate";

/**
 * A resource with a cost estimate: a Pod, Endpoint or NetworkVolume of either path, the package's
 * classes or the typed classes over the plugin (`pulumi-gpucloud/plugin`, whose generated types
 * give the estimate's status as a plain string).
 */
export interface PricedResource {
  readonly urn: pulumi.Output<string>;
  readonly costEstimate: pulumi.Output<PricedEstimate | undefined>;
}

/** A cost estimate as either path's classes type it. */
export type PricedEstimate = Omit<CostEstimate, "status"> & { status: string };

/** A priced resource as the program declared it. */
export interface DeclaredPricedResource {
  /** The resource's type as the report names it: "Pod", "Endpoint", "NetworkVolume". */
  type: string;
  /** The resource's Pulumi name. */
  name: string;
  resource: pulumi.Resource & PricedResource;
}

interface RunRecord {
  priced: DeclaredPricedResource[];
  /** Names of the reports that discovered their resources so far in this run. */
  reports: string[];
}

const runs = new WeakMap<object, RunRecord>();
/** The key outside a stack (the runtime's mocks in unit tests run without a root stack resource). */
const outsideStack = {};

function thisRun(): RunRecord {
  const key: object = pulumi.runtime.getStackResource() ?? outsideStack;
  let run = runs.get(key);
  if (!run) {
    run = { priced: [], reports: [] };
    runs.set(key, run);
  }
  return run;
}

/** Called by each priced resource's constructor. */
export function declarePriced(entry: DeclaredPricedResource): void {
  const run = thisRun();
  run.priced.push(entry);
  for (const report of run.reports) {
    void pulumi.log.warn(
      `${entry.type} "${entry.name}" is declared after CostReport "${report}", which sums only the priced resources declared before it, so ` +
        `its cost is not in that report: declare the CostReport last in the program (or pass it \`resources\`)`,
      entry.resource,
    );
  }
}

/** The priced resources declared so far in this run; the report is remembered, to warn of later ones. */
export function pricedSoFar(reportName: string): DeclaredPricedResource[] {
  const run = thisRun();
  run.reports.push(reportName);
  return [...run.priced];
}
