/**
 * The catalog's entries as the service's current API describes them (GpuType, CpuType and
 * DataCenter of GET /api/v2/catalog/*), and, when asked, their availability: a level per type and
 * data center from the free capacity now (`FreeCapacity`, the count placement keeps,
 * management/placement.ts). /v1's description of a GPU type is `gpuTypeSheet` (catalog.ts).
 */
import type { z } from "zod";
import {
  CPU_FLAVORS,
  CPU_VCPU_RANGE,
  CUDA_VERSIONS,
  DATA_CENTER_IDS,
  type GpuType as CatalogGpu,
  manufacturerOf,
  priceFactor,
  roundMoney,
} from "./catalog";
import { complianceOf, dataCenterFacts, volumeTypesOf } from "./dataCenters";
import { poolOf, rentableGpus } from "./pools";
import type { AvailabilityLevel } from "./schemas/v2/requests";
import type { CpuType, DataCenter, GpuType } from "./schemas/v2/wire";

/** Free units (GPUs, vCPUs) of a type in a data center now. */
export interface FreeCapacity {
  free(kind: "gpu" | "cpu", typeId: string, dataCenterId: string): number;
}

type Level = z.infer<typeof AvailabilityLevel>;

/** How the catalog words a number of free units (of the size asked for). */
function level(free: number): Level {
  return free <= 0 ? "NONE" : free < 4 ? "LOW" : free < 16 ? "MEDIUM" : "HIGH";
}

/** The largest machine of each type: 8 GPUs, 4 for the 141 GB and larger parts (GpuType.maxCount; a cluster's gpuCountPerPod). */
export function maxCount(gpu: CatalogGpu): number {
  return gpu.memoryInGb >= 141 ? 4 : 8;
}

/** Availability of `count` GPUs of a type in any of `dataCenterIds`. */
export interface GpuAvailability {
  capacity: FreeCapacity;
  count: number;
  dataCenterIds: readonly string[];
}

/** With `availability`: the level over the data centers that have `count` free, each of them, and the CUDA versions there. */
export function gpuTypeEntry(gpu: CatalogGpu, availability?: GpuAvailability): GpuType {
  const entry = gpuTypeFacts(gpu);
  if (availability) {
    const { capacity, count } = availability;
    const dataCenters = availability.dataCenterIds
      .map((dc) => ({ id: dc, name: dc, free: capacity.free("gpu", gpu.id, dc) }))
      .filter((dc) => dc.free >= count);
    entry.availability = level(dataCenters.reduce((sum, dc) => sum + dc.free, 0) / count);
    if (dataCenters.length > 0)
      entry.dataCenters = dataCenters.map((dc) => ({ id: dc.id, name: dc.name, availability: level(dc.free / count) }));
    entry.cudaVersions = CUDA_VERSIONS.map((version) => ({ version, available: dataCenters.length > 0 }));
  }
  return entry;
}

function gpuTypeFacts(gpu: CatalogGpu): GpuType {
  const pool = poolOf(gpu.id);
  return {
    id: gpu.id,
    name: gpu.displayName,
    pool,
    manufacturer: manufacturerOf(gpu.id),
    memory: gpu.memoryInGb,
    secure: true,
    community: true,
    // Serverless workers are priced as secure on-demand pods (catalog.ts).
    price: {
      secure: gpu.securePrice,
      community: roundMoney(gpu.securePrice * priceFactor("COMMUNITY", false)),
      ...(pool ? { serverless: gpu.securePrice } : {}),
    },
    maxCount: { secure: maxCount(gpu), community: maxCount(gpu) },
  };
}

const CPU_GROUPS: Readonly<Record<string, string>> = { cpu3: "AMD EPYC 7003", cpu5: "AMD EPYC 9004" };

/** With `availability`: the level by the data centers that have `vcpuCount` vCPUs free, and each of them. */
export function cpuTypeEntry(id: string, availability?: { capacity: FreeCapacity; vcpuCount: number }): CpuType {
  const entry = cpuTypeFacts(id);
  if (availability) {
    const { capacity, vcpuCount } = availability;
    const dataCenters = DATA_CENTER_IDS.map((dc) => ({ id: dc, name: dc, free: capacity.free("cpu", id, dc) })).filter(
      (dc) => dc.free >= vcpuCount,
    );
    entry.availability = level(dataCenters.length);
    if (dataCenters.length > 0)
      entry.dataCenters = dataCenters.map((dc) => ({ id: dc.id, name: dc.name, availability: level(dc.free / vcpuCount) }));
  }
  return entry;
}

function cpuTypeFacts(id: string): CpuType {
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

/** With `availability`: the GPU types offered there (a level each), and every CPU flavor's level (by 8-vCPU machines). */
export function dataCenterEntry(id: string, availability?: { capacity: FreeCapacity; gpus: boolean; cpus: boolean }): DataCenter {
  const facts = dataCenterFacts(id);
  const entry: DataCenter = {
    id,
    name: id,
    region: facts.region,
    globalNetwork: facts.globalNetwork,
    networkVolumeTypes: volumeTypesOf(id),
    compliance: complianceOf(facts.region),
  };
  const capacity = availability?.capacity;
  if (capacity && availability.gpus) {
    const gpus = rentableGpus().map((gpu) => ({
      id: gpu.id,
      name: gpu.displayName,
      availability: level(capacity.free("gpu", gpu.id, id)),
    }));
    const offered = gpus.filter((g) => g.availability !== "NONE");
    if (offered.length > 0) entry.gpuAvailability = offered;
  }
  if (capacity && availability.cpus) {
    entry.cpuAvailability = [...CPU_FLAVORS.values()].map((f) => ({
      id: f.id,
      name: f.displayName,
      availability: level(capacity.free("cpu", f.id, id) / 8),
    }));
  }
  return entry;
}
