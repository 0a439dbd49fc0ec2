/**
 * The demo's cost check: the CostReport's figures as `pulumi preview` planned them (before the up),
 * and after the up, each priced resource's estimate beside what the emulator bills for it over a
 * stretch of service time, as rates that can be read side by side.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { z } from "zod";
import { COST_SUMMARY_TYPE, RESOURCE_MODULE } from "../../model/kinds";
import { getBilling, type BillingOptions } from "../../sdk/billing";

const HOUR_MS = 3_600_000;
const HOURS_PER_MONTH = 720;

const figuresSchema = z.object({
  status: z.string(),
  reason: z.string().optional(),
  perHour: z.number().optional(),
  ceilingPerHour: z.number().optional(),
  perMonth: z.number().optional(),
});
const plannedSchema = z.object({
  perHour: z.number(),
  ceilingPerHour: z.number(),
  perMonth: z.number(),
  resources: z.array(z.object({ name: z.string(), estimate: figuresSchema })),
});
export type PlannedCost = z.infer<typeof plannedSchema>;
type Figures = z.infer<typeof figuresSchema>;

const SUMMARY_TYPE = `pulumi-nodejs:dynamic/${RESOURCE_MODULE}:${COST_SUMMARY_TYPE}`;

/** Keeps the CostReport record's planned figures from a preview's engine events. */
export function plannedCostCollector(): { onEvent(event: EngineEvent): void; planned(): PlannedCost | undefined } {
  let planned: PlannedCost | undefined;
  return {
    onEvent(event) {
      const step = event.resOutputsEvent?.metadata;
      if (step?.type !== SUMMARY_TYPE) return;
      const parsed = plannedSchema.safeParse(step.new?.inputs);
      if (parsed.success) planned = parsed.data;
    },
    planned: () => planned,
  };
}

/** A priced resource of the demo, by its Pulumi name, with the billing history that bills it. */
export interface BilledResource {
  name: string;
  kind: "pods" | "endpoints" | "networkvolumes";
  id: string;
}

/** USD billed so far for each resource (network volumes: all of the account's, as the lookup has no id filter). */
async function billedSoFar(resources: readonly BilledResource[], options: BillingOptions, at: number): Promise<Map<string, number>> {
  const window = { startTime: new Date(at - 24 * HOUR_MS), endTime: new Date(at + HOUR_MS), bucketSize: "hour" as const };
  const totals = await Promise.all(
    resources.map(async (r) => {
      const args =
        r.kind === "pods"
          ? { kind: r.kind, podId: r.id, ...window }
          : r.kind === "endpoints"
            ? { kind: r.kind, endpointId: r.id, ...window }
            : { kind: r.kind, ...window };
      return [r.name, (await getBilling(args, options)).totalAmount] as const;
    }),
  );
  return new Map(totals);
}

function estimateText(figures: Figures | undefined): string {
  if (figures === undefined) return "not in the report";
  if (figures.status !== "estimated") return `${figures.status}: ${figures.reason ?? "no reason given"}`;
  if (figures.perMonth !== undefined) return `${figures.perMonth} USD/month`;
  const ceiling =
    figures.ceilingPerHour !== undefined && figures.ceilingPerHour !== figures.perHour
      ? ` (up to ${figures.ceilingPerHour} when busy)`
      : "";
  return `${figures.perHour ?? 0} USD/hour${ceiling}`;
}

/** The billed rate in the estimate's unit, and how far it is from the estimate. */
function billedText(figures: Figures | undefined, billedUsd: number, hours: number): string {
  const monthly = figures?.perMonth !== undefined;
  const rate = (billedUsd / hours) * (monthly ? HOURS_PER_MONTH : 1);
  const estimate = monthly ? figures?.perMonth : figures?.perHour;
  const percent = estimate !== undefined && estimate > 0 ? ((rate - estimate) / estimate) * 100 : undefined;
  const off = percent === undefined ? "" : ` (${percent >= 0 ? "+" : "-"}${Math.abs(percent).toFixed(1)}% against the estimate)`;
  return `${rate.toFixed(4)} ${monthly ? "USD/month" : "USD/hour"}${off}`;
}

/**
 * Waits `windowMs` of service time and prints, per resource, the estimate the preview planned and
 * the rate the emulator billed over that time (the difference of two billing totals).
 */
export async function printEstimateAgainstBilling(
  planned: PlannedCost | undefined,
  resources: readonly BilledResource[],
  options: BillingOptions,
  clock: { now(): number; sleep(serviceMs: number): Promise<void> },
  windowMs: number,
): Promise<void> {
  if (planned) {
    console.log(
      `\nEstimated before the up: ${planned.perHour} USD/hour always-on, ${planned.ceilingPerHour} USD/hour ceiling, ${planned.perMonth} USD/month storage`,
    );
  } else {
    console.log("\nThe preview planned no cost figures (no CostReport record in its events).");
  }
  const startedAt = clock.now();
  const before = await billedSoFar(resources, options, startedAt);
  await clock.sleep(windowMs);
  const endedAt = clock.now();
  const after = await billedSoFar(resources, options, endedAt);
  const hours = (endedAt - startedAt) / HOUR_MS;
  console.log(
    `Estimate (preview) beside the emulator's billing over the ${Math.round((endedAt - startedAt) / 60_000)} minutes of service time after the up:`,
  );
  const rows = resources.map((r) => {
    const figures = planned?.resources.find((p) => p.name === r.name)?.estimate;
    const billed = (after.get(r.name) ?? 0) - (before.get(r.name) ?? 0);
    return [r.name, estimateText(figures), `${billed.toFixed(6)} USD`, billedText(figures, billed, hours)];
  });
  const header = ["resource", "estimate", "billed", "billed rate"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  for (const row of [header, ...rows])
    console.log(
      `  ${row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd()}`,
    );
}
