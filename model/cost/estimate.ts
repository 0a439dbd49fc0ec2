// Cost estimates from declared arguments, the catalog's list prices and the user's own prices for
// what the catalog does not quote (ownPrices.ts). Pure: the same arguments and prices always give
// the same estimate. An estimate never guesses: a price nobody quoted, or an argument not known
// until apply, makes it "unavailable" or "pending" with the reason, or is named in its basis.

import { tableForBackend } from "../fields/fieldTable";
import { podTable } from "../kinds/pod/podFields";
import { isUnknown, type Props } from "../fields/values";
import { HOURS_PER_MONTH, OWN_PRICES_KEY, STORAGE_TIERS, type OwnPrices, type StorageTier } from "./ownPrices";
import type { PriceLookup, PriceSheet } from "./priceSheet";
import { roundUsd } from "./usd";

/** Where a price came from: the service's catalog, or the user's own sheet in stack config. */
type PriceSource = "catalog" | typeof OWN_PRICES_KEY;

/** One price an estimate used: `unitPrice` USD per `unit`, times `quantity` (named in its basis). */
interface PriceUsed {
  item: string;
  unitPrice: number;
  /** "GPU-hour", "vCPU-hour" or "GB-month" (a month being 30 days). */
  unit: string;
  quantity: number;
  source: PriceSource;
}

/**
 * A resource's cost estimate, in USD: the catalog's list prices (negotiated discounts are not
 * reflected) and, for what the catalog does not quote (storage, pod disks), the user's own prices
 * from stack config `gpucloud:prices`. Compact: the figures and one line saying what they rest on.
 * Where the prices came from is kept once per stack, not per resource: the catalog's prices are
 * `getGpuTypes`/`getCpuTypes`, the user's are stack config.
 * - `perHour`: a pod's rate while it runs (its disks included when priced; its disks alone when
 *   it is declared stopped); an endpoint's always-on rate (`workersMin` workers).
 * - `ceilingPerHour`: an endpoint's rate with `workersMax` workers busy.
 * - `perMonth`: a network volume's storage (a month being 30 days).
 * `status` is "unavailable" with a `reason` when a price it needs is quoted nowhere (the v1 API has
 * no catalog), and "pending" while an argument it needs is unknown at preview.
 */
export interface CostEstimate {
  status: "estimated" | "pending" | "unavailable";
  /** Why there is no figure (pending: the arguments not known before apply). */
  reason?: string;
  perHour?: number;
  ceilingPerHour?: number;
  perMonth?: number;
  /**
   * What the figures rest on, and what they leave out, in one line:
   * `NVIDIA L4 (serverless) 0.43 USD/GPU-hour x 1 per worker; 0 always-on, up to 3 when busy`.
   */
  basis?: string;
  /**
   * Which of your own prices (`gpucloud:prices`) were in force: a digest of the figures, absent
   * when none are set. An unchanged resource keeps its estimate, read no catalog, until its
   * arguments or these change.
   */
  ownPrices?: string;
}

/** The prices an estimate may use: the catalog's (or why there are none) and the user's own. */
export interface Prices {
  catalog: PriceLookup;
  own?: OwnPrices | undefined;
}

export type Estimator = (args: Props, prices: Prices) => CostEstimate;

const unavailable = (reason: string): CostEstimate => ({ status: "unavailable", reason });

/** The arguments the estimate needs that are still unknown at preview, or undefined. */
function pending(args: Props, fields: readonly string[]): CostEstimate | undefined {
  const unknown = fields.filter((f) => isUnknown(args[f]) || (Array.isArray(args[f]) && (args[f] as unknown[]).some(isUnknown)));
  return unknown.length > 0 ? { status: "pending", reason: `${unknown.join(", ")} not known until apply` } : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

function sheetOf(prices: Prices): PriceSheet | CostEstimate {
  return "sheet" in prices.catalog ? prices.catalog.sheet : unavailable(prices.catalog.unavailable);
}

/** One price as its basis names it: `NVIDIA L4 (serverless) 0.43 USD/GPU-hour x 2`. */
function priceText(used: PriceUsed): string {
  return `${used.item} ${used.unitPrice} USD/${used.unit} x ${used.quantity}${used.source === OWN_PRICES_KEY ? " (your price)" : ""}`;
}

/** USD per hour of one price used (GB-month prices spread over a 30-day month). */
function hourlyOf(used: PriceUsed): number {
  return (used.unitPrice * used.quantity) / (used.unit === "GB-month" ? HOURS_PER_MONTH : 1);
}

const COMPUTE_FIELDS = ["computeType", "cloudType", "gpuTypeIds", "gpuCount", "cpuFlavorIds", "vcpuCount"] as const;

/** Why a pod's arguments alone leave it unpriced (no catalog needed to know), or undefined. */
function podUnpriceable(args: Props): CostEstimate | undefined {
  if (args["interruptible"] === true) return unavailable("the catalog quotes no spot (interruptible) price");
  if (args["computeType"] === "CPU") {
    if (strings(args["cpuFlavorIds"]).length === 0) return unavailable("no cpuFlavorIds given: the flavor decides the price");
    if (args["cloudType"] === "COMMUNITY") return unavailable("the catalog quotes CPU flavors for secure cloud only");
    return undefined;
  }
  const types = strings(args["gpuTypeIds"]);
  if (types.length !== 1)
    return unavailable(
      types.length === 0
        ? "no gpuTypeIds given: the GPU type decides the price"
        : "several gpuTypeIds: the price depends on which one the service places the pod on",
    );
  return undefined;
}

/** The price of a pod's GPUs or vCPUs (podUnpriceable said it has one), or why the catalog has none. */
function podCompute(args: Props, sheet: PriceSheet): PriceUsed | CostEstimate {
  const cloud = args["cloudType"] === "COMMUNITY" ? "community" : "secure";
  if (args["computeType"] === "CPU") {
    const [flavor] = strings(args["cpuFlavorIds"]) as [string];
    const p = sheet.cpus.get(flavor);
    if (!p) return unavailable(`CPU flavor ${JSON.stringify(flavor)} is not in the catalog`);
    return {
      item: `${flavor} (secure cloud)`,
      unitPrice: p.securePerVcpu,
      unit: "vCPU-hour",
      quantity: numberOr(args["vcpuCount"], 2),
      source: "catalog",
    };
  }
  const [type] = strings(args["gpuTypeIds"]) as [string];
  const p = sheet.gpus.get(type);
  if (!p) return unavailable(`GPU type ${JSON.stringify(type)} is not in the catalog`);
  return {
    item: `${type} (${cloud} cloud)`,
    unitPrice: p[cloud],
    unit: "GPU-hour",
    quantity: numberOr(args["gpuCount"], 1),
    source: "catalog",
  };
}

/** A pod's two disks: the argument giving the size, and the key of gpucloud:prices that prices it. */
const POD_DISKS = [
  { field: "containerDiskInGb", label: "container disk", priceKey: "containerDiskPerGbMonth" },
  { field: "volumeInGb", label: "pod volume", priceKey: "podVolumePerGbMonth" },
] as const;

/** The size of a pod disk in GB; undefined when it comes from the template (not known here). */
function diskSize(args: Props, field: (typeof POD_DISKS)[number]["field"]): number | undefined {
  // A network volume takes the pod volume's place; it is estimated as a resource of its own.
  if (field === "volumeInGb" && typeof args["networkVolumeId"] === "string") return 0;
  if (typeof args[field] === "number") return args[field];
  if (typeof args["templateId"] === "string") return undefined;
  // The service's size when none is declared, as the v2 API has it (the field table's, which update
  // also resets to): a pod is priced only where the catalog quotes prices, the v2 API, where a pod
  // gets no persistent storage unless it asks for it (today 6.1 #8), not v1's 20 GB.
  const size = tableForBackend(podTable, "v2").fields[field]?.resetTo;
  return typeof size === "number" ? size : undefined;
}

/** The prices of a pod's disks from the user's sheet, and notes naming each disk left out. */
function podDisks(args: Props, own: OwnPrices | undefined): { used: PriceUsed[]; notes: string[] } {
  const used: PriceUsed[] = [];
  const notes: string[] = [];
  const missing: Array<(typeof POD_DISKS)[number]> = [];
  for (const disk of POD_DISKS) {
    const size = diskSize(args, disk.field);
    if (size === 0) continue;
    if (size === undefined) {
      notes.push(`${disk.label} from the template not included`);
      continue;
    }
    const price = own?.[disk.priceKey];
    if (price === undefined) missing.push(disk);
    else used.push({ item: disk.label, unitPrice: price, unit: "GB-month", quantity: size, source: OWN_PRICES_KEY });
  }
  if (missing.length > 0)
    notes.push(
      `${missing.map((d) => d.label).join(" and ")} not included (set ${missing.map((d) => d.priceKey).join(" and ")} in ${OWN_PRICES_KEY})`,
    );
  return { used, notes };
}

/** An estimate's basis: the prices used, then what they leave out. */
function basisOf(used: readonly PriceUsed[], notes: readonly string[]): string {
  return [used.map(priceText).join(" + "), ...notes].join("; ");
}

/** A pod's rate while it runs: GPU price x gpuCount (or vCPU price x vcpuCount), plus its disks at the user's prices. */
export const estimatePod: Estimator = (args, prices) => {
  const diskFields = POD_DISKS.filter((d) => prices.own?.[d.priceKey] !== undefined).map((d) => d.field);
  const wait = pending(args, [...COMPUTE_FIELDS, ...diskFields, "desiredStatus"]);
  if (wait) return wait;
  if (args["desiredStatus"] === "EXITED") return stoppedPod(args, prices);
  const unpriceable = podUnpriceable(args);
  if (unpriceable) return unpriceable;
  const sheet = sheetOf(prices);
  if (!("readAt" in sheet)) return sheet;
  const compute = podCompute(args, sheet);
  if (!("unitPrice" in compute)) return compute;
  const disks = podDisks(args, prices.own);
  const used = [compute, ...disks.used];
  return { status: "estimated", perHour: roundUsd(used.reduce((sum, u) => sum + hourlyOf(u), 0)), basis: basisOf(used, disks.notes) };
};

/**
 * A pod declared stopped: its GPUs or vCPUs are not billed (podAction `stop`: "releasing GPU/CPU
 * compute while keeping its disk"), its disks are. Nothing of the catalog is needed, and the spend
 * cap, which counts what runs, does not count it.
 */
function stoppedPod(args: Props, prices: Prices): CostEstimate {
  const disks = podDisks(args, prices.own);
  const priced = ['stopped (desiredStatus "EXITED"): no GPU or vCPU billed', ...disks.used.map(priceText)].join(" + ");
  return {
    status: "estimated",
    perHour: roundUsd(disks.used.reduce((sum, u) => sum + hourlyOf(u), 0)),
    basis: [priced, ...disks.notes].join("; "),
  };
}

/**
 * An endpoint's always-on rate (workersMin workers) and its ceiling (workersMax workers), each
 * worker priced at the serverless rate of the dearest GPU type (or CPU flavor) it may run on.
 * Worker disks and network volumes are not included.
 */
export const estimateEndpoint: Estimator = (args, prices) => {
  const wait = pending(args, ["computeType", "gpuTypeIds", "gpuCount", "cpuFlavorIds", "vcpuCount", "workersMin", "workersMax"]);
  if (wait) return wait;
  const cpu = args["computeType"] === "CPU";
  const ids = strings(args[cpu ? "cpuFlavorIds" : "gpuTypeIds"]);
  // Known from the arguments alone: decided before any catalog is read.
  if (ids.length === 0) return unavailable(`no ${cpu ? "cpuFlavorIds" : "gpuTypeIds"} given: the worker type decides the price`);
  const sheet = sheetOf(prices);
  if (!("readAt" in sheet)) return sheet;
  const rates: Array<{ id: string; rate: number | undefined }> = ids.map((id) => ({
    id,
    rate: cpu ? sheet.cpus.get(id)?.serverlessPerVcpu : sheet.gpus.get(id)?.serverless,
  }));
  const missing = rates.filter((r) => r.rate === undefined).map((r) => JSON.stringify(r.id));
  if (missing.length > 0) return unavailable(`the catalog quotes no serverless price for ${missing.join(", ")}`);
  const dearest = rates.reduce((a, b) => ((b.rate ?? 0) > (a.rate ?? 0) ? b : a));
  const perWorkerUnits = cpu ? numberOr(args["vcpuCount"], 2) : numberOr(args["gpuCount"], 1);
  const perWorker = (dearest.rate ?? 0) * perWorkerUnits;
  // The service's default workersMax (3 on v2) applies when none is declared.
  const workersMax = numberOr(args["workersMax"], 3);
  const workersMin = numberOr(args["workersMin"], 0);
  const price: PriceUsed = {
    item: `${dearest.id} (serverless${rates.length > 1 ? ", the dearest type" : ""})`,
    unitPrice: dearest.rate ?? 0,
    unit: cpu ? "vCPU-hour" : "GPU-hour",
    quantity: perWorkerUnits,
    source: "catalog",
  };
  return {
    status: "estimated",
    perHour: roundUsd(perWorker * workersMin),
    ceilingPerHour: roundUsd(perWorker * workersMax),
    basis: `${priceText(price)} per worker; ${workersMin} always-on, up to ${workersMax} when busy`,
  };
};

/**
 * A network volume's storage per month, at the user's price for its tier (the catalog quotes no
 * storage price). Needs no catalog, so it is estimated on the v1 API too. A volume that declares no
 * tier gets its data center's primary one (CreateNetworkVolumeRequest.type), which the service does
 * not publish: it is priced when both tiers cost the same, else at the dearer tier, said in the basis.
 */
export const estimateNetworkVolume: Estimator = (args, prices) => {
  const wait = pending(args, ["size", "type"]);
  if (wait) return wait;
  const declared = STORAGE_TIERS.find((t) => t === args["type"]);
  const own = prices.own;
  const priced = declared === undefined ? undeclaredTier(own) : { tier: declared, item: `${declared} storage` };
  if ("reason" in priced) return unavailable(priced.reason);
  const price = own?.networkVolumePerGbMonth[priced.tier];
  if (own === undefined || price === undefined) {
    return unavailable(
      `the catalog quotes no storage price: set networkVolumePerGbMonth (${priced.tier}) in ${OWN_PRICES_KEY} to your price per GB-month`,
    );
  }
  const size = numberOr(args["size"], 0);
  return {
    status: "estimated",
    perMonth: roundUsd(price * size),
    basis: priceText({ item: priced.item, unitPrice: price, unit: "GB-month", quantity: size, source: OWN_PRICES_KEY }),
  };
};

/** The tier to price a volume that declares none at, and how its basis names it; or why there is none. */
function undeclaredTier(own: OwnPrices | undefined): { tier: StorageTier; item: string } | { reason: string } {
  const standard = own?.networkVolumePerGbMonth.STANDARD;
  const fast = own?.networkVolumePerGbMonth.HIGH_PERFORMANCE;
  if (standard !== undefined && standard === fast) return { tier: "STANDARD", item: "storage (either tier)" };
  if (standard !== undefined && fast !== undefined)
    return { tier: fast > standard ? "HIGH_PERFORMANCE" : "STANDARD", item: "storage at the dearer tier (type not declared)" };
  return {
    reason:
      "no type declared: the volume gets its data center's primary storage tier, which the service does not publish; " +
      `declare type, or set networkVolumePerGbMonth for both tiers in ${OWN_PRICES_KEY} (one number prices both)`,
  };
}
