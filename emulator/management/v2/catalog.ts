/**
 * The v2 catalog (GpuType, CpuType, DataCenter) drawn from the same catalog, prices and free
 * capacity that /v1 places pods with (vocabulary/catalog.ts and availability.ts, management/placement.ts).
 * What v1 has no notion of is declared here once: the serverless GPU pool of each type, each data
 * center's region, volume tiers, global networking and compliance.
 */
import type { z } from "zod";
import {
  CPU_FLAVORS,
  CUDA_VERSIONS,
  DATA_CENTER_IDS,
  ENDPOINT_CPU_FLAVOR_IDS,
  GPU_TYPES,
  type GpuType as CatalogGpu,
  POD_CPU_FLAVOR_IDS,
  countryOf,
  priceFactor,
  roundMoney,
} from "../../vocabulary/catalog";
import type { Capacity } from "../placement";
import type { AvailabilityLevel, DataCenterRegion } from "./schemas";
import type { CpuType, DataCenter, GpuType } from "./wire";

type Level = z.infer<typeof AvailabilityLevel>;

/** Serverless GPU pools: endpoints choose pools (`gpu.pools`), then subtract types (`gpu.excludedTypes`). */
const POOL_ROWS: ReadonlyArray<[pool: string, gpuTypeIds: readonly string[]]> = [
  ["AMPERE_16", ["NVIDIA RTX A4000", "NVIDIA RTX A4500", "NVIDIA RTX 4000 Ada Generation", "NVIDIA RTX 2000 Ada Generation"]],
  ["AMPERE_24", ["NVIDIA RTX A5000", "NVIDIA GeForce RTX 3090", "NVIDIA A30"]],
  ["ADA_24", ["NVIDIA GeForce RTX 4090", "NVIDIA L4"]],
  ["ADA_32_PRO", ["NVIDIA GeForce RTX 5090"]],
  ["AMPERE_48", ["NVIDIA A40", "NVIDIA RTX A6000"]],
  ["ADA_48_PRO", ["NVIDIA L40S", "NVIDIA L40", "NVIDIA RTX 6000 Ada Generation"]],
  ["AMPERE_80", ["NVIDIA A100-SXM4-80GB", "NVIDIA A100 80GB PCIe"]],
  ["ADA_80_PRO", ["NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H100 NVL"]],
  ["BLACKWELL_96", ["NVIDIA RTX PRO 6000 Blackwell Server Edition"]],
  ["HOPPER_141", ["NVIDIA H200"]],
  ["BLACKWELL_180", ["NVIDIA B200"]],
];

export const GPU_POOLS: ReadonlyMap<string, readonly string[]> = new Map(POOL_ROWS);
const POOL_OF: ReadonlyMap<string, string> = new Map(POOL_ROWS.flatMap(([pool, ids]) => ids.map((id) => [id, pool] as const)));

export function poolOf(gpuTypeId: string): string | null {
  return POOL_OF.get(gpuTypeId) ?? null;
}

/** GPU types a v2 client may name: every rentable type (legacy spellings are not listed). */
export function rentableGpus(): CatalogGpu[] {
  return [...GPU_TYPES.values()].filter((gpu) => !gpu.legacy);
}

/** The largest machine of each type: 8 GPUs, 4 for the 141 GB and larger parts. */
function maxCount(gpu: CatalogGpu): number {
  return gpu.memoryInGb >= 141 ? 4 : 8;
}

function level(free: number): Level {
  return free <= 0 ? "NONE" : free < 4 ? "LOW" : free < 16 ? "MEDIUM" : "HIGH";
}

// ---- data centers ----

interface DataCenterFacts {
  region: z.infer<typeof DataCenterRegion>;
  globalNetwork: boolean;
  highPerformanceVolumes: boolean;
}

/** Regions by the id's first part; global networking and high-performance volumes in the larger sites. */
function dataCenterFacts(id: string): DataCenterFacts {
  const first = id.split("-")[0] ?? "";
  const region = first === "US" || first === "CA" ? "NORTH_AMERICA" : first === "EU" || first === "EUR" ? "EUROPE" : first === "OC" ? "OCEANIA" : first === "AP" ? "ASIA" : "UNKNOWN";
  const large = ["US-TX-3", "US-KS-2", "EU-RO-1", "EU-SE-1", "US-GA-2", "CA-MTL-3", "EUR-IS-1"].includes(id);
  return { region, globalNetwork: large, highPerformanceVolumes: large };
}

export function isDataCenter(id: string): boolean {
  return (DATA_CENTER_IDS as readonly string[]).includes(id);
}

export function supportsGlobalNetworking(id: string): boolean {
  return dataCenterFacts(id).globalNetwork;
}

/**
 * Data centers whose primary (default) network volume tier is HIGH_PERFORMANCE. The reference says a
 * create without `type` gets "the requested data center's default (primary) storage tier" but not
 * which one each has; the emulator lists the primary first in `networkVolumeTypes` (an assumption,
 * emulator/README.md) and gives one site a high-performance primary, so a client that assumes
 * STANDARD is caught.
 */
const HIGH_PERFORMANCE_PRIMARY: ReadonlySet<string> = new Set(["CA-MTL-3"]);

/** The tiers a data center offers, its primary (the default of a create without `type`) first. */
export function volumeTypesOf(id: string): Array<"STANDARD" | "HIGH_PERFORMANCE"> {
  if (!dataCenterFacts(id).highPerformanceVolumes) return ["STANDARD"];
  return HIGH_PERFORMANCE_PRIMARY.has(id) ? ["HIGH_PERFORMANCE", "STANDARD"] : ["STANDARD", "HIGH_PERFORMANCE"];
}

/** The tier a volume created in `id` without `type` gets (undefined: the site offers none). */
export function primaryVolumeTypeOf(id: string): "STANDARD" | "HIGH_PERFORMANCE" | undefined {
  return volumeTypesOf(id)[0];
}

export function dataCenterView(capacity: Capacity, id: string, include: readonly string[]): DataCenter {
  const facts = dataCenterFacts(id);
  const view: DataCenter = {
    id,
    name: id,
    region: facts.region,
    globalNetwork: facts.globalNetwork,
    networkVolumeTypes: volumeTypesOf(id),
    compliance: facts.region === "EUROPE" ? ["GDPR", "ISO_IEC_27001"] : ["SOC_2_TYPE_2"],
  };
  if (include.includes("GPU_AVAILABILITY")) {
    const gpus = rentableGpus().map((gpu) => ({ id: gpu.id, name: gpu.displayName, availability: level(capacity.free("gpu", gpu.id, id)) }));
    const offered = gpus.filter((g) => g.availability !== "NONE");
    if (offered.length > 0) view.gpuAvailability = offered;
  }
  if (include.includes("CPU_AVAILABILITY")) {
    view.cpuAvailability = [...CPU_FLAVORS.values()].map((f) => ({ id: f.id, name: f.displayName, availability: level(capacity.free("cpu", f.id, id) / 8) }));
  }
  return view;
}

// ---- GPU and CPU types ----

export interface GpuAvailabilityRequest {
  count: number;
  dataCenterIds: readonly string[];
}

export function gpuTypeView(capacity: Capacity, gpu: CatalogGpu, availability: GpuAvailabilityRequest | undefined): GpuType {
  const pool = poolOf(gpu.id);
  const view: GpuType = {
    id: gpu.id,
    name: gpu.displayName,
    pool,
    manufacturer: gpu.id.startsWith("AMD") ? "AMD" : gpu.id.startsWith("NVIDIA") || gpu.id.startsWith("Tesla") ? "NVIDIA" : "UNKNOWN",
    memory: gpu.memoryInGb,
    secure: true,
    community: true,
    // Serverless workers are priced as secure on-demand pods (vocabulary/catalog.ts).
    price: { secure: gpu.securePrice, community: roundMoney(gpu.securePrice * priceFactor("COMMUNITY", false)), ...(pool ? { serverless: gpu.securePrice } : {}) },
    maxCount: { secure: maxCount(gpu), community: maxCount(gpu) },
  };
  if (availability) {
    const dataCenters = availability.dataCenterIds
      .map((dc) => ({ id: dc, name: dc, free: capacity.free("gpu", gpu.id, dc) }))
      .filter((dc) => dc.free >= availability.count);
    const total = dataCenters.reduce((sum, dc) => sum + dc.free, 0);
    view.availability = level(total / availability.count);
    if (dataCenters.length > 0) view.dataCenters = dataCenters.map((dc) => ({ id: dc.id, name: dc.name, availability: level(dc.free / availability.count) }));
    view.cudaVersions = CUDA_VERSIONS.map((version) => ({ version, available: dataCenters.length > 0 }));
  }
  return view;
}

export function gpuDataCenters(countryCodes: readonly string[] | undefined): string[] {
  const all = [...DATA_CENTER_IDS];
  return countryCodes && countryCodes.length > 0 ? all.filter((dc) => countryCodes.includes(countryOf(dc))) : all;
}

const CPU_GROUPS: Readonly<Record<string, string>> = { cpu3: "AMD EPYC 7003", cpu5: "AMD EPYC 9004" };

export const CPU_VCPU_RANGE = { min: 2, max: 64 } as const;

export function cpuTypeView(capacity: Capacity, id: string, availability: { vcpuCount: number } | undefined): CpuType {
  const flavor = CPU_FLAVORS.get(id);
  if (!flavor) throw new RangeError(`unknown CPU flavor ${id}`);
  const view: CpuType = {
    id,
    name: flavor.displayName,
    group: CPU_GROUPS[id.slice(0, 4)] ?? "AMD EPYC",
    vcpu: { ...CPU_VCPU_RANGE },
    ramGbPerVcpu: flavor.ramPerVcpuGb,
    // Serverless CPU workers are priced as secure pods of the same shape.
    price: { securePerVcpu: flavor.pricePerVcpu, serverlessPerVcpu: flavor.pricePerVcpu },
  };
  if (availability) {
    const dataCenters = DATA_CENTER_IDS.map((dc) => ({ id: dc, name: dc, free: capacity.free("cpu", id, dc) })).filter((dc) => dc.free >= availability.vcpuCount);
    view.availability = level(dataCenters.length);
    if (dataCenters.length > 0) view.dataCenters = dataCenters.map((dc) => ({ id: dc.id, name: dc.name, availability: level(dc.free / availability.vcpuCount) }));
  }
  return view;
}

export const POD_CPU_IDS: readonly string[] = POD_CPU_FLAVOR_IDS;
export const ENDPOINT_CPU_IDS: readonly string[] = ENDPOINT_CPU_FLAVOR_IDS;

export function isPowerOfTwo(n: number): boolean {
  return n >= 2 && (n & (n - 1)) === 0;
}
