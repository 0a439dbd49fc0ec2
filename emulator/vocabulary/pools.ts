/**
 * Serverless GPU pools (the `pool` of GET /api/v2/catalog/gpus): an endpoint chooses pools
 * (`gpu.pools`), then subtracts types (`gpu.excludedTypes`). /v1 has no pools; it sees the same
 * choice as an ordered list of GPU types (management/endpoints/selection.ts).
 */
import { GPU_TYPES, type GpuType } from "./catalog";

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
export function rentableGpus(): GpuType[] {
  return [...GPU_TYPES.values()].filter((gpu) => !gpu.legacy);
}
