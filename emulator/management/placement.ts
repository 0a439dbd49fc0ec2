/**
 * Placement: pick a GPU type (or CPU flavor) and a data center for a pod or a serverless worker,
 * by the caller's priority lists, and keep count of what is allocated so that capacity runs out.
 *
 * Rule: types are tried in the order given (an empty list means every rentable type in catalog
 * order); for each type, data centers are tried in the order given; the first pair with enough
 * free units wins. `*Priority: "availability"` and `"custom"` both follow the list order: the
 * emulator has no live market to rank by, and a deterministic rule is easier to test against.
 */
import type { AvailabilityTable } from "../vocabulary/availability";
import { type CloudType, CPU_FLAVORS, CUDA_VERSIONS, GPU_TYPES, cpuPrice, gpuPrice, machineProfile } from "../vocabulary/catalog";

export type ResourceKind = "gpu" | "cpu";

export interface PlacementRequest {
  computeType: "GPU" | "CPU";
  gpuTypeIds: readonly string[];
  gpuCount: number;
  cpuFlavorIds: readonly string[];
  vcpuCount: number;
  dataCenterIds: readonly string[];
  cloudType: CloudType;
  interruptible: boolean;
  minDownloadMbps?: number | undefined;
  minUploadMbps?: number | undefined;
  minDiskBandwidthMBps?: number | undefined;
  /** The CUDA versions a GPU pod accepts, matched exactly against those machines report; empty or undefined: any. */
  cudaVersions?: readonly string[] | undefined;
}

/**
 * How a failure names the request's fields: each API says them in its own words (/v1 `gpuTypeIds`,
 * /api/v2 `gpu.id`), so a client is told what to change in the body it sent. `typeAdvice`: how the
 * advice offers a type ("Add another" where a list takes several, "Choose another" where it is one).
 */
export interface PlacementWords {
  gpuTypes: string;
  gpuCount: string;
  cpuTypes: string;
  vcpuCount: string;
  dataCenters: string;
  typeAdvice: string;
}

/** /v1's names (and the serverless workers', which keep /v1's). */
export const V1_PLACEMENT_WORDS: PlacementWords = {
  gpuTypes: "gpuTypeIds",
  gpuCount: "gpuCount",
  cpuTypes: "cpuFlavorIds",
  vcpuCount: "vcpuCount",
  dataCenters: "dataCenterIds",
  typeAdvice: "Add another",
};

export interface PlacementChoice {
  kind: ResourceKind;
  /** GPU type id or CPU flavor id. */
  typeId: string;
  dataCenterId: string;
  /** GPUs or vCPUs taken. */
  units: number;
  costPerHr: number;
}

export interface PlacementFailure {
  error: string;
}

export class Capacity {
  private readonly used = new Map<string, number>();

  constructor(private readonly table: AvailabilityTable) {}

  free(kind: ResourceKind, typeId: string, dataCenterId: string): number {
    return this.table.capacity(kind, typeId, dataCenterId) - (this.used.get(key(kind, typeId, dataCenterId)) ?? 0);
  }

  /** Takes units even beyond capacity (used when a persisted running pod is restored). */
  reserve(kind: ResourceKind, typeId: string, dataCenterId: string, units: number): void {
    const k = key(kind, typeId, dataCenterId);
    this.used.set(k, (this.used.get(k) ?? 0) + units);
  }

  release(kind: ResourceKind, typeId: string, dataCenterId: string, units: number): void {
    const k = key(kind, typeId, dataCenterId);
    const left = (this.used.get(k) ?? 0) - units;
    if (left > 0) this.used.set(k, left);
    else this.used.delete(k);
  }

  /** Chooses by the priority rule above; does not reserve. A failure names the fields in `words`. */
  choose(request: PlacementRequest, words: PlacementWords = V1_PLACEMENT_WORDS): PlacementChoice | PlacementFailure {
    const dataCenters = request.dataCenterIds.filter((dc) => meetsMinimums(dc, request));
    if (dataCenters.length === 0) {
      return { error: `no data center in ${list(request.dataCenterIds)} meets the requested minimum disk/network speeds` };
    }
    const gpu = request.computeType === "GPU";
    const kind: ResourceKind = gpu ? "gpu" : "cpu";
    const units = gpu ? request.gpuCount : request.vcpuCount;
    const what = gpu ? `${words.gpuTypes} x ${words.gpuCount} ${units}` : `${words.cpuTypes} x ${words.vcpuCount} ${units}`;
    const cuda = gpu ? (request.cudaVersions ?? []) : [];
    // CreateGpuConfig.allowedCudaVersions: "Matching is exact, so a version no machine reports yields
    // a capacity error rather than a fallback" (management-api-v2-schemas.txt). Every emulated machine
    // reports every version of the catalog (GET /api/v2/catalog/gpus, cudaVersions).
    if (cuda.length > 0 && !cuda.some((version) => (CUDA_VERSIONS as readonly string[]).includes(version))) {
      return {
        error:
          `no instances available for ${what} in ${words.dataCenters} ${list(dataCenters)}: no machine reports a CUDA version ` +
          `the pod allows (${cuda.join(", ")}; matching is exact); machines report ${CUDA_VERSIONS.join(", ")}. Allow one of those.`,
      };
    }
    const given = gpu ? request.gpuTypeIds : request.cpuFlavorIds;
    const candidates = given.length > 0 ? given : gpu ? rentableGpuTypeIds() : [...CPU_FLAVORS.keys()];
    const tried: string[] = [];
    for (const typeId of candidates) {
      let freeTotal = 0;
      for (const dataCenterId of dataCenters) {
        const free = this.free(kind, typeId, dataCenterId);
        if (free >= units) {
          const costPerHr = gpu
            ? gpuPrice(typeId, units, request.cloudType, request.interruptible)
            : cpuPrice(typeId, units, request.cloudType, request.interruptible);
          return { kind, typeId, dataCenterId, units, costPerHr };
        }
        freeTotal += Math.max(0, free);
      }
      tried.push(`"${typeId}" (${freeTotal} free in total, ${units} needed in one data center)`);
    }
    return {
      error:
        `no instances available for ${what} in ${words.dataCenters} ${list(dataCenters)}; tried in order: ${tried.join(", ")}. ` +
        `${words.typeAdvice} ${gpu ? "GPU type" : "CPU flavor"} or data center, lower the count, or retry later.`,
    };
  }
}

function key(kind: ResourceKind, typeId: string, dataCenterId: string): string {
  return `${kind}\u0000${typeId}\u0000${dataCenterId}`;
}

function rentableGpuTypeIds(): string[] {
  return [...GPU_TYPES.values()].filter((gpu) => !gpu.legacy).map((gpu) => gpu.id);
}

function meetsMinimums(dataCenterId: string, request: PlacementRequest): boolean {
  const machine = machineProfile(dataCenterId);
  return (
    machine.maxDownloadSpeedMbps >= (request.minDownloadMbps ?? 0) &&
    machine.maxUploadSpeedMbps >= (request.minUploadMbps ?? 0) &&
    machine.diskThroughputMBps >= (request.minDiskBandwidthMBps ?? 0)
  );
}

function list(ids: readonly string[]): string {
  return ids.length > 6 ? `[${ids.slice(0, 6).join(", ")}, ... ${ids.length} in all]` : `[${ids.join(", ")}]`;
}
