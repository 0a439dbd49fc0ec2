// Cost estimates from declared arguments and the catalog's list prices. Pure: the same arguments
// and sheet always give the same estimate. An estimate never guesses: a price the catalog does not
// quote, or an argument not known until apply, makes it "unavailable" or "pending" with the reason.

import { isUnknown, type Props } from "../resources/values";
import type { PriceLookup, PriceSheet } from "./priceSheet";

/** One price an estimate used: `unitPrice` USD per `unit`, times `quantity`. */
export interface PriceUsed {
  item: string;
  unitPrice: number;
  unit: string;
  quantity: number;
}

/**
 * A resource's cost estimate, in USD at list prices (negotiated discounts are not reflected).
 * - `perHour`: a pod's rate while it runs; an endpoint's always-on rate (`workersMin` workers).
 * - `ceilingPerHour`: an endpoint's rate with `workersMax` workers busy.
 * - `perMonth`: a network volume's storage (a month being 30 days).
 */
export interface CostEstimate {
  status: "estimated" | "pending" | "unavailable";
  /** Why there is no figure (pending: the arguments not known before apply). */
  reason?: string;
  currency: "USD";
  perHour?: number;
  ceilingPerHour?: number;
  perMonth?: number;
  /** The catalog prices the figures were computed from. */
  prices?: PriceUsed[];
  /** When those prices were read from the catalog (ISO 8601). */
  pricesReadAt?: string;
  /** What the figures leave out. */
  notes?: string[];
}

export type Estimator = (args: Props, prices: PriceLookup) => CostEstimate;

/** Money to 1e-6 USD, as the service quotes it (0.69, not 0.6900000001). */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

const unavailable = (reason: string): CostEstimate => ({ status: "unavailable", reason, currency: "USD" });

/** The arguments the estimate needs that are still unknown at preview, or undefined. */
function pending(args: Props, fields: readonly string[]): CostEstimate | undefined {
  const unknown = fields.filter((f) => isUnknown(args[f]) || (Array.isArray(args[f]) && (args[f] as unknown[]).some(isUnknown)));
  return unknown.length > 0 ? { status: "pending", reason: `${unknown.join(", ")} not known until apply`, currency: "USD" } : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

function sheetOf(prices: PriceLookup): PriceSheet | CostEstimate {
  return "sheet" in prices ? prices.sheet : unavailable(prices.unavailable);
}

const DISK_NOTE = "disks (containerDiskInGb, volumeInGb) are not included: the catalog quotes no disk price";

/** A pod's rate while it runs: GPU price x gpuCount on its cloud, or vCPU price x vcpuCount. */
export const estimatePod: Estimator = (args, prices) => {
  const wait = pending(args, ["computeType", "cloudType", "gpuTypeIds", "gpuCount", "cpuFlavorIds", "vcpuCount"]);
  if (wait) return wait;
  const sheet = sheetOf(prices);
  if (!("readAt" in sheet)) return sheet;
  const cloud = args["cloudType"] === "COMMUNITY" ? "community" : "secure";
  if (args["interruptible"] === true) return unavailable("the catalog quotes no spot (interruptible) price");
  let used: PriceUsed;
  if (args["computeType"] === "CPU") {
    const [flavor] = strings(args["cpuFlavorIds"]);
    if (flavor === undefined) return unavailable("no cpuFlavorIds given: the flavor decides the price");
    const p = sheet.cpus.get(flavor);
    if (!p) return unavailable(`CPU flavor ${JSON.stringify(flavor)} is not in the catalog`);
    if (cloud === "community") return unavailable("the catalog quotes CPU flavors for secure cloud only");
    used = { item: `${flavor} (secure cloud)`, unitPrice: p.securePerVcpu, unit: "vCPU-hour", quantity: numberOr(args["vcpuCount"], 2) };
  } else {
    const types = strings(args["gpuTypeIds"]);
    if (types.length !== 1) return unavailable(types.length === 0 ? "no gpuTypeIds given: the GPU type decides the price" : "several gpuTypeIds: the price depends on which one the service places the pod on");
    const [type] = types as [string];
    const p = sheet.gpus.get(type);
    if (!p) return unavailable(`GPU type ${JSON.stringify(type)} is not in the catalog`);
    used = { item: `${type} (${cloud} cloud)`, unitPrice: p[cloud], unit: "GPU-hour", quantity: numberOr(args["gpuCount"], 1) };
  }
  return {
    status: "estimated",
    currency: "USD",
    perHour: roundUsd(used.unitPrice * used.quantity),
    prices: [used],
    pricesReadAt: sheet.readAt,
    notes: [DISK_NOTE],
  };
};

/**
 * An endpoint's always-on rate (workersMin workers) and its ceiling (workersMax workers), each
 * worker priced at the serverless rate of the dearest GPU type (or CPU flavor) it may run on.
 */
export const estimateEndpoint: Estimator = (args, prices) => {
  const wait = pending(args, ["computeType", "gpuTypeIds", "gpuCount", "cpuFlavorIds", "vcpuCount", "workersMin", "workersMax"]);
  if (wait) return wait;
  const sheet = sheetOf(prices);
  if (!("readAt" in sheet)) return sheet;
  const cpu = args["computeType"] === "CPU";
  const ids = strings(args[cpu ? "cpuFlavorIds" : "gpuTypeIds"]);
  if (ids.length === 0) return unavailable(`no ${cpu ? "cpuFlavorIds" : "gpuTypeIds"} given: the worker type decides the price`);
  const rates: Array<{ id: string; rate: number | undefined }> = ids.map((id) => ({ id, rate: cpu ? sheet.cpus.get(id)?.serverlessPerVcpu : sheet.gpus.get(id)?.serverless }));
  const missing = rates.filter((r) => r.rate === undefined).map((r) => JSON.stringify(r.id));
  if (missing.length > 0) return unavailable(`the catalog quotes no serverless price for ${missing.join(", ")}`);
  const dearest = rates.reduce((a, b) => ((b.rate ?? 0) > (a.rate ?? 0) ? b : a));
  const perWorkerUnits = cpu ? numberOr(args["vcpuCount"], 2) : numberOr(args["gpuCount"], 1);
  const perWorker = (dearest.rate ?? 0) * perWorkerUnits;
  // The service's default workersMax (3 on v2) applies when none is declared.
  const workersMax = numberOr(args["workersMax"], 3);
  const workersMin = numberOr(args["workersMin"], 0);
  return {
    status: "estimated",
    currency: "USD",
    perHour: roundUsd(perWorker * workersMin),
    ceilingPerHour: roundUsd(perWorker * workersMax),
    prices: [{ item: `${dearest.id} (serverless)`, unitPrice: dearest.rate ?? 0, unit: cpu ? "vCPU-hour" : "GPU-hour", quantity: perWorkerUnits }],
    pricesReadAt: sheet.readAt,
    notes: [
      `per worker: ${roundUsd(perWorker)} USD/hour; ${workersMin} always-on, up to ${workersMax} when busy`,
      ...(rates.length > 1 ? ["several worker types: priced at the dearest"] : []),
      "disks and network volumes are not included",
    ],
  };
};

/** A network volume's storage per month: unavailable, as the catalog quotes no storage price. */
export const estimateNetworkVolume: Estimator = (args, prices) => {
  const wait = pending(args, ["size", "type"]);
  if (wait) return wait;
  if (!("sheet" in prices)) return unavailable(prices.unavailable);
  return unavailable("the catalog quotes no network volume storage price");
};
