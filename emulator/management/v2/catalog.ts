/**
 * /api/v2/catalog/gpus, /cpus, /datacenters (and one of each by id): the catalog's entries
 * (vocabulary/catalogEntries.ts), with their availability from the same free capacity that pods
 * are placed with (management/placement.ts) when the query asks for it, and its filters.
 */
import type { Operation } from "../../http/router";
import { CPU_FLAVORS, DATA_CENTER_IDS, GPU_TYPES, countryOf } from "../../vocabulary/catalog";
import { type GpuAvailability, cpuTypeEntry, dataCenterEntry, gpuTypeEntry } from "../../vocabulary/catalogEntries";
import { isDataCenter, supportsGlobalNetworking, volumeTypesOf } from "../../vocabulary/dataCenters";
import { rentableGpus } from "../../vocabulary/pools";
import { CpuCatalogQuery, DataCenterGetQuery, DataCenterQuery, GpuCatalogQuery } from "../../vocabulary/schemas/v2/requests";
import { requireVcpuCount } from "../compute";
import { invalid, notFound } from "../errors";
import type { V2Context } from "./operation";

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

export function v2CatalogOperations({ ctx, route }: V2Context): Operation[] {
  const capacity = ctx.capacity;
  const gpuAvailability = (query: GpuCatalogQuery): GpuAvailability | undefined => {
    const { include: _i, product: _p, ...scoped } = query;
    if (!availabilityOf(query, scoped)) return undefined;
    const all = [...DATA_CENTER_IDS];
    const countries = query.countryCodes;
    return {
      capacity,
      count: query.count ?? 1,
      dataCenterIds: countries && countries.length > 0 ? all.filter((dc) => countries.includes(countryOf(dc))) : all,
    };
  };
  const cpuAvailability = (query: CpuCatalogQuery) => {
    if (!availabilityOf(query, { vcpuCount: query.vcpuCount })) return undefined;
    const vcpuCount = query.vcpuCount ?? 2;
    requireVcpuCount(vcpuCount, "query parameter vcpuCount");
    return { capacity, vcpuCount };
  };
  const dataCenter = (id: string, include: readonly string[] = []) =>
    dataCenterEntry(id, { capacity, gpus: include.includes("GPU_AVAILABILITY"), cpus: include.includes("CPU_AVAILABILITY") });
  return [
    route(
      ["GET /catalog/gpus", "listGpuTypes", "catalog:read", "List GPU types"],
      { query: GpuCatalogQuery, answer: [200, "ListGpuTypesResponse"], errors: [400] },
      ({ query }) => {
        const availability = gpuAvailability(query);
        let gpus = rentableGpus().map((gpu) => gpuTypeEntry(gpu, availability));
        // With countryCodes, only the types deployable there.
        if (availability && query.countryCodes?.length) gpus = gpus.filter((gpu) => gpu.dataCenters !== undefined);
        return { status: 200, body: { gpus } };
      },
    ),
    route(
      ["GET /catalog/gpus/{id}", "getGpuType", "catalog:read", "Get a GPU type"],
      { query: GpuCatalogQuery, answer: [200, "GpuType"], errors: [400, 404] },
      ({ id, query }) => {
        const gpu = GPU_TYPES.get(id);
        if (!gpu || gpu.legacy) throw notFound("GPU type");
        return { status: 200, body: gpuTypeEntry(gpu, gpuAvailability(query)) };
      },
    ),
    route(
      ["GET /catalog/cpus", "listCpuTypes", "catalog:read", "List CPU types"],
      { query: CpuCatalogQuery, answer: [200, "ListCpuTypesResponse"], errors: [400] },
      ({ query }) => {
        const availability = cpuAvailability(query);
        return { status: 200, body: { cpus: [...CPU_FLAVORS.keys()].map((id) => cpuTypeEntry(id, availability)) } };
      },
    ),
    route(
      ["GET /catalog/cpus/{id}", "getCpuType", "catalog:read", "Get a CPU type"],
      { query: CpuCatalogQuery, answer: [200, "CpuType"], errors: [400, 404] },
      ({ id, query }) => {
        if (!CPU_FLAVORS.has(id)) throw notFound("CPU type");
        return { status: 200, body: cpuTypeEntry(id, cpuAvailability(query)) };
      },
    ),
    route(
      ["GET /catalog/datacenters", "listDataCenters", "catalog:read", "List data centers"],
      { query: DataCenterQuery, answer: [200, "ListDataCentersResponse"], errors: [400] },
      ({ query }) => {
        const dataCenters = DATA_CENTER_IDS.map((id) => dataCenter(id, query.include)).filter(
          (dc) =>
            (query.regions === undefined || query.regions.includes(dc.region)) &&
            (query.networkVolumeTypes ?? []).every((type) => volumeTypesOf(dc.id).includes(type)) &&
            (query.compliance ?? []).every((c) => dc.compliance.includes(c)) &&
            (query.globalNetwork === undefined || supportsGlobalNetworking(dc.id) === query.globalNetwork),
        );
        return { status: 200, body: { dataCenters } };
      },
    ),
    route(
      ["GET /catalog/datacenters/{id}", "getDataCenter", "catalog:read", "Get a data center"],
      { query: DataCenterGetQuery, answer: [200, "DataCenter"], errors: [400, 404] },
      ({ id, query }) => {
        if (!isDataCenter(id)) throw notFound("data center");
        return { status: 200, body: dataCenter(id, query.include) };
      },
    ),
  ];
}
