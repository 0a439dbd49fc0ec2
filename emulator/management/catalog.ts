/**
 * The catalog as a query asks for it (GET /api/v2/catalog/*): its entries (vocabulary/catalogEntries.ts)
 * with their availability from the same free capacity that pods are placed with (placement.ts) when
 * the query asks for it, and the query's filters.
 */
import { CPU_FLAVORS, DATA_CENTER_IDS, GPU_TYPES, countryOf } from "../vocabulary/catalog";
import { type GpuAvailability, cpuTypeEntry, dataCenterEntry, gpuTypeEntry } from "../vocabulary/catalogEntries";
import { isDataCenter, supportsGlobalNetworking, volumeTypesOf } from "../vocabulary/dataCenters";
import { rentableGpus } from "../vocabulary/pools";
import type { CpuCatalogQuery, DataCenterQuery, GpuCatalogQuery } from "../vocabulary/schemas/v2/requests";
import { requireVcpuCount } from "./compute";
import type { ManagementContext } from "./context";
import { invalid, notFound } from "./errors";

type Catalog = Pick<ManagementContext, "capacity">;

/** include=AVAILABILITY needs product, and the availability parameters need include (400 either way). */
function availabilityOf(
  query: { include?: string[] | undefined; product?: string[] | undefined },
  scoped: Record<string, unknown>,
): boolean {
  const wanted = query.include?.includes("AVAILABILITY") ?? false;
  if (wanted && !query.product?.length)
    throw invalid("query parameter product", "include=AVAILABILITY needs product (POD, SERVERLESS, ...): availability differs by product");
  if (!wanted) {
    const stray = ["product", ...Object.keys(scoped)].filter((key) => (key === "product" ? query.product : scoped[key]) !== undefined);
    if (stray.length > 0) throw invalid(`query parameter ${stray[0]}`, "valid only with include=AVAILABILITY");
  }
  return wanted;
}

function gpuAvailability({ capacity }: Catalog, query: GpuCatalogQuery): GpuAvailability | undefined {
  const { include: _i, product: _p, ...scoped } = query;
  if (!availabilityOf(query, scoped)) return undefined;
  const all = [...DATA_CENTER_IDS];
  const countries = query.countryCodes;
  return {
    capacity,
    count: query.count ?? 1,
    dataCenterIds: countries && countries.length > 0 ? all.filter((dc) => countries.includes(countryOf(dc))) : all,
  };
}

function cpuAvailability({ capacity }: Catalog, query: CpuCatalogQuery) {
  if (!availabilityOf(query, { vcpuCount: query.vcpuCount })) return undefined;
  const vcpuCount = query.vcpuCount ?? 2;
  requireVcpuCount(vcpuCount, "query parameter vcpuCount");
  return { capacity, vcpuCount };
}

export function gpuTypes(ctx: Catalog, query: GpuCatalogQuery) {
  const availability = gpuAvailability(ctx, query);
  const gpus = rentableGpus().map((gpu) => gpuTypeEntry(gpu, availability));
  // With countryCodes, only the types deployable there.
  return availability && query.countryCodes?.length ? gpus.filter((gpu) => gpu.dataCenters !== undefined) : gpus;
}

export function gpuType(ctx: Catalog, id: string, query: GpuCatalogQuery) {
  const gpu = GPU_TYPES.get(id);
  if (!gpu || gpu.legacy) throw notFound("GPU type");
  return gpuTypeEntry(gpu, gpuAvailability(ctx, query));
}

export function cpuTypes(ctx: Catalog, query: CpuCatalogQuery) {
  const availability = cpuAvailability(ctx, query);
  return [...CPU_FLAVORS.keys()].map((id) => cpuTypeEntry(id, availability));
}

export function cpuType(ctx: Catalog, id: string, query: CpuCatalogQuery) {
  if (!CPU_FLAVORS.has(id)) throw notFound("CPU type");
  return cpuTypeEntry(id, cpuAvailability(ctx, query));
}

function dataCenterOf({ capacity }: Catalog, id: string, include: readonly string[] = []) {
  return dataCenterEntry(id, { capacity, gpus: include.includes("GPU_AVAILABILITY"), cpus: include.includes("CPU_AVAILABILITY") });
}

export function dataCenters(ctx: Catalog, query: DataCenterQuery) {
  return DATA_CENTER_IDS.map((id) => dataCenterOf(ctx, id, query.include)).filter(
    (dc) =>
      (query.regions === undefined || query.regions.includes(dc.region)) &&
      (query.networkVolumeTypes ?? []).every((type) => volumeTypesOf(dc.id).includes(type)) &&
      (query.compliance ?? []).every((c) => dc.compliance.includes(c)) &&
      (query.globalNetwork === undefined || supportsGlobalNetworking(dc.id) === query.globalNetwork),
  );
}

export function dataCenter(ctx: Catalog, id: string, include: readonly string[] | undefined) {
  if (!isDataCenter(id)) throw notFound("data center");
  return dataCenterOf(ctx, id, include);
}
