/**
 * An endpoint's compute choice. GPU: the record keeps /v1's ordered `gpuTypeIds`; v2 chooses pools
 * (`gpu.pools`) minus types (`gpu.excludedTypes`), derived from that list and back (pools minus
 * exclusions, in pool order then each pool's own order). CPU: v2 lists configurations
 * (`cpu[]`: a flavor and its vCPU count), the record keeps the flavors and one count.
 */
import { ENDPOINT_CPU_FLAVOR_IDS, GPU_TYPES } from "../../vocabulary/catalog";
import { GPU_POOLS, poolOf } from "../../vocabulary/pools";
import { requireCpuFlavor, requireVcpuCount } from "../compute";
import { invalid } from "../errors";

export interface GpuSelection {
  pools: readonly string[];
  excludedTypes: readonly string[];
}

// Both directions run on every create and every answer: plain loops over the (small) catalog
// arrays, with no intermediate arrays, closures or iterators.

/** v1's ordered type list as v2 pools and exclusions (no types listed: every pool). */
export function selectionOf(gpuTypeIds: readonly string[]): { pools: string[]; excludedTypes: string[] } {
  if (gpuTypeIds.length === 0) return { pools: [...GPU_POOLS.keys()], excludedTypes: [] };
  const pools: string[] = [];
  for (let i = 0; i < gpuTypeIds.length; i++) {
    const pool = poolOf(gpuTypeIds[i] as string);
    if (pool !== null && !pools.includes(pool)) pools.push(pool);
  }
  return { pools, excludedTypes: typesOfPoolsExcept(pools, gpuTypeIds) };
}

/** v2 pools minus exclusions as v1's ordered type list (pool order, then the pool's own order). */
export function gpuTypeIdsOf(selection: GpuSelection): string[] {
  return typesOfPoolsExcept(selection.pools, selection.excludedTypes);
}

/** The types of `pools` (pool order, then each pool's own order) that `except` does not list. */
function typesOfPoolsExcept(pools: readonly string[], except: readonly string[]): string[] {
  const types: string[] = [];
  for (let p = 0; p < pools.length; p++) {
    const members = GPU_POOLS.get(pools[p] as string) ?? [];
    for (let i = 0; i < members.length; i++) {
      const id = members[i] as string;
      if (!except.includes(id)) types.push(id);
    }
  }
  return types;
}

/**
 * The GPU types of a create, or of a PATCH that sends `pools` (management-api-v2-today.md 5.3,
 * from SPEC-0922): "400 if an entry is not a GPU type of one of the given pools; upstream also
 * refuses excluding every type in the selection". Exclusions arrive trimmed and unique (the
 * request schema's excludedTypes).
 */
export function typesOfSelection(pools: readonly string[], excluded: readonly string[]): string[] {
  for (let i = 0; i < pools.length; i++) {
    const pool = pools[i] as string;
    if (!GPU_POOLS.has(pool))
      throw invalid(
        `gpu.pools[${i}]`,
        `unknown GPU pool ${JSON.stringify(pool)}; pools are the \`pool\` of GET /api/v2/catalog/gpus: ${[...GPU_POOLS.keys()].join(", ")}`,
      );
  }
  for (let i = 0; i < excluded.length; i++) {
    const id = excluded[i] as string;
    if (!GPU_TYPES.has(id))
      throw invalid(`gpu.excludedTypes[${i}]`, `unknown GPU type ${JSON.stringify(id)}; use the \`id\` of GET /api/v2/catalog/gpus`);
    if (!pools.some((pool) => GPU_POOLS.get(pool)?.includes(id))) {
      throw invalid(
        `gpu.excludedTypes[${i}]`,
        `${JSON.stringify(id)} is not a GPU type of the selected pools (${pools.join(", ")}); exclude only types of gpu.pools, or add its pool`,
      );
    }
  }
  const types = gpuTypeIdsOf({ pools, excludedTypes: excluded });
  if (types.length === 0) throw invalid("gpu.excludedTypes", "excludes every GPU type of gpu.pools; exclude fewer types or add a pool");
  // Stored in the record: a copy of its own length (an array grown by push keeps room for 16).
  return types.slice();
}

/** A v2 `cpu[]` list as the record keeps it: its flavors (each once) and their one vCPU count. */
export function cpusOfSelection(cpus: ReadonlyArray<{ id: string; vcpuCount: number }>): { ids: string[]; vcpuCount: number } {
  const seen = new Set<string>();
  for (const [i, cpu] of cpus.entries()) {
    requireCpuFlavor(ENDPOINT_CPU_FLAVOR_IDS, cpu.id, `cpu[${i}].id`, "serverless CPU flavor");
    requireVcpuCount(cpu.vcpuCount, `cpu[${i}].vcpuCount`);
    const key = `${cpu.id}/${cpu.vcpuCount}`;
    if (seen.has(key)) throw invalid(`cpu[${i}]`, `duplicate configuration ${key}`);
    seen.add(key);
  }
  const vcpuCount = cpus[0]?.vcpuCount ?? 2;
  const other = cpus.findIndex((cpu) => cpu.vcpuCount !== vcpuCount);
  if (other !== -1)
    throw invalid(
      `cpu[${other}].vcpuCount`,
      `the emulator runs every CPU configuration of an endpoint at one vCPU count (${vcpuCount}); list one count`,
    );
  return { ids: cpus.map((cpu) => cpu.id), vcpuCount };
}
