/**
 * The catalog's entries as the service's current API describes them (GpuType, CpuType and
 * DataCenter of GET /api/v2/catalog/*), without availability, which depends on what runs
 * (management/v2/catalog.ts adds it from the free capacity). /v1's description of a GPU type is
 * `gpuTypeSheet` (catalog.ts).
 */
import { CPU_FLAVORS, CPU_VCPU_RANGE, type GpuType as CatalogGpu, priceFactor, roundMoney } from "./catalog";
import { complianceOf, dataCenterFacts, volumeTypesOf } from "./dataCenters";
import { poolOf } from "./pools";
import type { CpuType, DataCenter, GpuType } from "./schemas/v2/wire";

/** The largest machine of each type: 8 GPUs, 4 for the 141 GB and larger parts. */
function maxCount(gpu: CatalogGpu): number {
  return gpu.memoryInGb >= 141 ? 4 : 8;
}

export function gpuTypeEntry(gpu: CatalogGpu): GpuType {
  const pool = poolOf(gpu.id);
  return {
    id: gpu.id,
    name: gpu.displayName,
    pool,
    manufacturer: gpu.id.startsWith("AMD") ? "AMD" : gpu.id.startsWith("NVIDIA") || gpu.id.startsWith("Tesla") ? "NVIDIA" : "UNKNOWN",
    memory: gpu.memoryInGb,
    secure: true,
    community: true,
    // Serverless workers are priced as secure on-demand pods (catalog.ts).
    price: { secure: gpu.securePrice, community: roundMoney(gpu.securePrice * priceFactor("COMMUNITY", false)), ...(pool ? { serverless: gpu.securePrice } : {}) },
    maxCount: { secure: maxCount(gpu), community: maxCount(gpu) },
  };
}

const CPU_GROUPS: Readonly<Record<string, string>> = { cpu3: "AMD EPYC 7003", cpu5: "AMD EPYC 9004" };

export function cpuTypeEntry(id: string): CpuType {
  const flavor = CPU_FLAVORS.get(id);
  if (!flavor) throw new RangeError(`unknown CPU flavor ${id}`);
  return {
    id,
    name: flavor.displayName,
    group: CPU_GROUPS[id.slice(0, 4)] ?? "AMD EPYC",
    vcpu: { ...CPU_VCPU_RANGE },
    ramGbPerVcpu: flavor.ramPerVcpuGb,
    // Serverless CPU workers are priced as secure pods of the same shape.
    price: { securePerVcpu: flavor.pricePerVcpu, serverlessPerVcpu: flavor.pricePerVcpu },
  };
}

export function dataCenterEntry(id: string): DataCenter {
  const facts = dataCenterFacts(id);
  return { id, name: id, region: facts.region, globalNetwork: facts.globalNetwork, networkVolumeTypes: volumeTypesOf(id), compliance: complianceOf(facts.region) };
}
