/**
 * What the emulated service rents out: GPU types, CPU flavors and data centers, with prices.
 * Ids and enums are the service's own (management-api-schemas.txt); prices are plausible list
 * prices in credits (USD) per hour, fixed so that tests and billing figures are reproducible.
 *
 * Price rules (documented in the emulator README section of the report):
 * - GPU pod: securePrice per GPU x gpuCount; COMMUNITY cloud is 80% of that; interruptible
 *   (spot) is 50% on secure cloud and 40% on community cloud.
 * - CPU pod: price per vCPU of the flavor x vcpuCount, with the same cloud/spot factors.
 * - Serverless worker: priced like a secure-cloud, non-interruptible pod of the same shape.
 * - Network volume: NETWORK_VOLUME_PRICE_PER_GB_MONTH per GB, a month being 30 days.
 */

export const DATA_CENTER_IDS = [
  "EU-RO-1",
  "CA-MTL-1",
  "EU-SE-1",
  "US-IL-1",
  "EUR-IS-1",
  "EU-CZ-1",
  "US-TX-3",
  "EUR-IS-2",
  "US-KS-2",
  "US-GA-2",
  "US-WA-1",
  "US-TX-1",
  "CA-MTL-3",
  "EU-NL-1",
  "US-TX-4",
  "US-CA-2",
  "US-NC-1",
  "OC-AU-1",
  "US-DE-1",
  "EUR-IS-3",
  "CA-MTL-2",
  "AP-JP-1",
  "EUR-NO-1",
  "EU-FR-1",
  "US-KS-3",
  "US-GA-1",
] as const;
export type DataCenterId = (typeof DATA_CENTER_IDS)[number];

/** ISO country code of each data center (for the countryCodes placement filter). */
export function countryOf(dataCenterId: string): string {
  const [first = "", second = ""] = dataCenterId.split("-");
  // "EU-RO-1", "EUR-IS-1", "OC-AU-1", "AP-JP-1" name a region first; "US-TX-3", "CA-MTL-1" a country.
  return ["EU", "EUR", "OC", "AP"].includes(first) ? second : first;
}

export const CUDA_VERSIONS = ["13.0", "12.9", "12.8", "12.7", "12.6", "12.5", "12.4", "12.3", "12.2", "12.1", "12.0", "11.8"] as const;

export interface GpuType {
  id: string;
  displayName: string;
  /** GPU memory in GB. */
  memoryInGb: number;
  /** Secure cloud, on-demand, per GPU per hour. */
  securePrice: number;
  /** Legacy spellings kept in the enum for old clients; never rentable. */
  legacy?: true;
}

// Order matches the service's enum; prices are per GPU per hour on secure cloud.
const GPU_ROWS: ReadonlyArray<[id: string, displayName: string, memoryInGb: number, securePrice: number, legacy?: true]> = [
  ["NVIDIA GeForce RTX 4090", "RTX 4090", 24, 0.69],
  ["NVIDIA A40", "A40", 48, 0.4],
  ["NVIDIA RTX A5000", "RTX A5000", 24, 0.27],
  ["NVIDIA GeForce RTX 5090", "RTX 5090", 32, 0.94],
  ["NVIDIA H100 80GB HBM3", "H100 SXM", 80, 2.69],
  ["NVIDIA GeForce RTX 3090", "RTX 3090", 24, 0.46],
  ["NVIDIA RTX A4500", "RTX A4500", 20, 0.25],
  ["NVIDIA L40S", "L40S", 48, 0.86],
  ["NVIDIA H200", "H200 SXM", 141, 3.59],
  ["NVIDIA L4", "L4", 24, 0.43],
  ["NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada", 48, 0.77],
  ["NVIDIA A100-SXM4-80GB", "A100 SXM", 80, 1.74],
  ["NVIDIA RTX 4000 Ada Generation", "RTX 4000 Ada", 20, 0.26],
  ["NVIDIA RTX A6000", "RTX A6000", 48, 0.49],
  ["NVIDIA A100 80GB PCIe", "A100 PCIe", 80, 1.64],
  ["NVIDIA RTX 2000 Ada Generation", "RTX 2000 Ada", 16, 0.24],
  ["NVIDIA RTX A4000", "RTX A4000", 16, 0.25],
  ["NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000", 96, 1.84],
  ["NVIDIA H100 PCIe", "H100 PCIe", 80, 2.39],
  ["NVIDIA H100 NVL", "H100 NVL", 94, 2.79],
  ["NVIDIA L40", "L40", 48, 0.99],
  ["NVIDIA B200", "B200", 180, 5.99],
  ["NVIDIA GeForce RTX 3080 Ti", "RTX 3080 Ti", 12, 0.27],
  ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "RTX PRO 6000 WK", 96, 1.84],
  ["NVIDIA GeForce RTX 3080", "RTX 3080", 10, 0.25],
  ["NVIDIA GeForce RTX 3070", "RTX 3070", 8, 0.2],
  ["AMD Instinct MI300X OAM", "MI300X", 192, 2.49],
  ["NVIDIA GeForce RTX 4080 SUPER", "RTX 4080 SUPER", 16, 0.36],
  ["Tesla V100-PCIE-16GB", "V100 PCIe", 16, 0.23],
  ["Tesla V100-SXM2-32GB", "V100 SXM2 32GB", 32, 0.29],
  ["NVIDIA RTX 5000 Ada Generation", "RTX 5000 Ada", 32, 0.56],
  ["NVIDIA GeForce RTX 4070 Ti", "RTX 4070 Ti", 12, 0.24],
  ["NVIDIA RTX 4000 SFF Ada Generation", "RTX 4000 Ada SFF", 20, 0.24],
  ["NVIDIA GeForce RTX 3090 Ti", "RTX 3090 Ti", 24, 0.49],
  ["NVIDIA RTX A2000", "RTX A2000", 6, 0.14],
  ["NVIDIA GeForce RTX 4080", "RTX 4080", 16, 0.34],
  ["NVIDIA A30", "A30", 24, 0.32],
  ["NVIDIA GeForce RTX 5080", "RTX 5080", 16, 0.49],
  ["Tesla V100-FHHL-16GB", "V100 FHHL", 16, 0.22],
  ["NVIDIA H200 NVL", "H200 NVL", 141, 3.39],
  ["Tesla V100-SXM2-16GB", "V100 SXM2", 16, 0.25],
  ["NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "RTX PRO 6000 MaxQ", 96, 1.74],
  ["NVIDIA A5000 Ada", "A5000 Ada", 32, 0.56],
  ["Tesla V100-PCIE-32GB", "V100 PCIe 32GB", 32, 0.26],
  ["NVIDIA  RTX A4500", "RTX A4500", 20, 0.25, true],
  ["NVIDIA  A30", "A30", 24, 0.32, true],
  ["NVIDIA GeForce RTX 3080TI", "RTX 3080 Ti", 12, 0.27, true],
  ["Tesla T4", "T4", 16, 0.19],
  ["NVIDIA RTX A30", "A30", 24, 0.32, true],
];

export const GPU_TYPES: ReadonlyMap<string, GpuType> = new Map(
  GPU_ROWS.map(([id, displayName, memoryInGb, securePrice, legacy]) => [
    id,
    legacy ? { id, displayName, memoryInGb, securePrice, legacy } : { id, displayName, memoryInGb, securePrice },
  ]),
);
/** Every GPU type id the API accepts, in the service's order. */
export const GPU_TYPE_IDS = GPU_ROWS.map((row) => row[0]) as [string, ...string[]];

export interface CpuFlavor {
  id: string;
  displayName: string;
  /** RAM per vCPU in GB. */
  ramPerVcpuGb: number;
  /** Secure cloud, on-demand, per vCPU per hour. */
  pricePerVcpu: number;
}

export const CPU_FLAVORS: ReadonlyMap<string, CpuFlavor> = new Map(
  (
    [
      ["cpu3c", "Compute-Optimized (3rd gen)", 2, 0.03],
      ["cpu3g", "General Purpose (3rd gen)", 4, 0.04],
      ["cpu3m", "Memory-Optimized (3rd gen)", 8, 0.05],
      ["cpu5c", "Compute-Optimized (5th gen)", 2, 0.035],
      ["cpu5g", "General Purpose (5th gen)", 4, 0.045],
      ["cpu5m", "Memory-Optimized (5th gen)", 8, 0.055],
    ] as const
  ).map(([id, displayName, ramPerVcpuGb, pricePerVcpu]) => [id, { id, displayName, ramPerVcpuGb, pricePerVcpu }]),
);
export const POD_CPU_FLAVOR_IDS = ["cpu3c", "cpu3g", "cpu3m", "cpu5c", "cpu5g", "cpu5m"] as const;
/** Serverless endpoints accept fewer flavors than pods (the service's own enum). */
export const ENDPOINT_CPU_FLAVOR_IDS = ["cpu3c", "cpu3g", "cpu5c", "cpu5g"] as const;
/** vCPUs a CPU pod or worker of the current API may have: from 2 to 64, a power of two. */
export const CPU_VCPU_RANGE = { min: 2, max: 64 } as const;

/** The maker the catalog reports for a GPU type (the Tesla models are NVIDIA's). */
export function manufacturerOf(gpuTypeId: string): "NVIDIA" | "AMD" | "UNKNOWN" {
  if (gpuTypeId.startsWith("AMD")) return "AMD";
  return gpuTypeId.startsWith("NVIDIA") || gpuTypeId.startsWith("Tesla") ? "NVIDIA" : "UNKNOWN";
}

export function isPowerOfTwo(n: number): boolean {
  return n >= 2 && (n & (n - 1)) === 0;
}

export type CloudType = "SECURE" | "COMMUNITY";

/** Multiplier applied to the secure on-demand price. */
export function priceFactor(cloudType: CloudType, interruptible: boolean): number {
  if (cloudType === "COMMUNITY") return interruptible ? 0.4 : 0.8;
  return interruptible ? 0.5 : 1;
}

/** Money is rounded to 1e-6 credits so that prices read like the service's (0.69, not 0.6900000001). */
export function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export function gpuPrice(gpuTypeId: string, gpuCount: number, cloudType: CloudType, interruptible: boolean): number {
  const gpu = GPU_TYPES.get(gpuTypeId);
  if (!gpu) throw new RangeError(`unknown GPU type ${gpuTypeId}`);
  return roundMoney(gpu.securePrice * gpuCount * priceFactor(cloudType, interruptible));
}

export function cpuPrice(cpuFlavorId: string, vcpuCount: number, cloudType: CloudType, interruptible: boolean): number {
  const flavor = CPU_FLAVORS.get(cpuFlavorId);
  if (!flavor) throw new RangeError(`unknown CPU flavor ${cpuFlavorId}`);
  return roundMoney(flavor.pricePerVcpu * vcpuCount * priceFactor(cloudType, interruptible));
}

/** The `gpu` / `machine.gpuType` object of a Pod: the price sheet of one GPU type. */
export function gpuTypeSheet(gpu: GpuType, count: number) {
  const p = gpu.securePrice;
  return {
    id: gpu.id,
    count,
    displayName: gpu.displayName,
    securePrice: p,
    communityPrice: roundMoney(p * priceFactor("COMMUNITY", false)),
    secureSpotPrice: roundMoney(p * priceFactor("SECURE", true)),
    communitySpotPrice: roundMoney(p * priceFactor("COMMUNITY", true)),
    oneWeekPrice: roundMoney(p * 0.95),
    oneMonthPrice: roundMoney(p * 0.9),
    threeMonthPrice: roundMoney(p * 0.85),
    sixMonthPrice: roundMoney(p * 0.8),
  };
}

/** Credits per GB per month (30 days) of network volume storage. */
export const NETWORK_VOLUME_PRICE_PER_GB_MONTH = 0.07;
export const HOURS_PER_BILLING_MONTH = 720;

/** RAM given to a GPU pod per GPU when the request does not ask for more (minRAMPerGPU). */
export const DEFAULT_RAM_PER_GPU_GB = 31;
/** vCPUs given to a GPU pod per GPU when the request does not ask for more (minVCPUPerGPU). */
export const DEFAULT_VCPU_PER_GPU = 8;

/** Figures every emulated machine in a data center advertises (the min* constraints test them). */
export interface MachineProfile {
  diskThroughputMBps: number;
  maxDownloadSpeedMbps: number;
  maxUploadSpeedMbps: number;
}

export function machineProfile(dataCenterId: string): MachineProfile {
  // Deterministic per data center so that min* constraints give stable placements.
  let hash = 0;
  for (const ch of dataCenterId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return {
    diskThroughputMBps: 1000 + (hash % 5) * 500,
    maxDownloadSpeedMbps: 1000 + (hash % 7) * 1000,
    maxUploadSpeedMbps: 500 + (hash % 3) * 500,
  };
}
