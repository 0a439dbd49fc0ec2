/**
 * /api/v2/catalog/gpus, /cpus, /datacenters (and one of each by id): the catalog's entries
 * (vocabulary/catalogEntries.ts) with their availability, from the same free capacity that pods
 * are placed with (management/placement.ts).
 */
import type { z } from "zod";
import type { Operation } from "../../http/router";
import { CPU_FLAVORS, CUDA_VERSIONS, DATA_CENTER_IDS, GPU_TYPES, type GpuType as CatalogGpu, countryOf, isPowerOfTwo } from "../../vocabulary/catalog";
import { cpuTypeEntry, dataCenterEntry, gpuTypeEntry } from "../../vocabulary/catalogEntries";
import { isDataCenter, supportsGlobalNetworking, volumeTypesOf } from "../../vocabulary/dataCenters";
import { rentableGpus } from "../../vocabulary/pools";
import { type AvailabilityLevel, CpuCatalogQuery, DataCenterGetQuery, DataCenterQuery, GpuCatalogQuery } from "../../vocabulary/schemas/v2/requests";
import type { CpuType, DataCenter, GpuType } from "../../vocabulary/schemas/v2/wire";
import { Refusal, notFound } from "../errors";
import type { Capacity } from "../placement";
import { type V2Context, v2Route } from "./operation";

type Level = z.infer<typeof AvailabilityLevel>;

function level(free: number): Level {
  return free <= 0 ? "NONE" : free < 4 ? "LOW" : free < 16 ? "MEDIUM" : "HIGH";
}

function dataCenterView(capacity: Capacity, id: string, include: readonly string[]): DataCenter {
  const view = dataCenterEntry(id);
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

interface GpuAvailabilityRequest {
  count: number;
  dataCenterIds: readonly string[];
}

function gpuTypeView(capacity: Capacity, gpu: CatalogGpu, availability: GpuAvailabilityRequest | undefined): GpuType {
  const view = gpuTypeEntry(gpu);
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

function cpuTypeView(capacity: Capacity, id: string, availability: { vcpuCount: number } | undefined): CpuType {
  const view = cpuTypeEntry(id);
  if (availability) {
    const dataCenters = DATA_CENTER_IDS.map((dc) => ({ id: dc, name: dc, free: capacity.free("cpu", id, dc) })).filter((dc) => dc.free >= availability.vcpuCount);
    view.availability = level(dataCenters.length);
    if (dataCenters.length > 0) view.dataCenters = dataCenters.map((dc) => ({ id: dc.id, name: dc.name, availability: level(dc.free / availability.vcpuCount) }));
  }
  return view;
}

function badQuery(message: string): Refusal {
  return new Refusal(400, message, [message]);
}

/** include=AVAILABILITY needs product, and the availability parameters need include (400 either way). */
function availabilityOf(query: { include?: string[] | undefined; product?: string[] | undefined }, scoped: Record<string, unknown>): boolean {
  const wanted = query.include?.includes("AVAILABILITY") ?? false;
  if (wanted && !query.product?.length) throw badQuery("invalid query parameter product: include=AVAILABILITY needs product (POD, SERVERLESS, ...): availability differs by product");
  if (!wanted) {
    const stray = ["product", ...Object.keys(scoped)].filter((key) => (key === "product" ? query.product : scoped[key]) !== undefined);
    if (stray.length > 0) throw badQuery(`invalid query parameter ${stray[0]}: valid only with include=AVAILABILITY`);
  }
  return wanted;
}

export function v2CatalogOperations(v: V2Context): Operation[] {
  const capacity = v.ctx.capacity;
  const gpuAvailability = (query: GpuCatalogQuery): GpuAvailabilityRequest | undefined => {
    const { include: _i, product: _p, ...scoped } = query;
    if (!availabilityOf(query, scoped)) return undefined;
    const all = [...DATA_CENTER_IDS];
    const countries = query.countryCodes;
    return { count: query.count ?? 1, dataCenterIds: countries && countries.length > 0 ? all.filter((dc) => countries.includes(countryOf(dc))) : all };
  };
  const cpuAvailability = (query: CpuCatalogQuery) => {
    if (!availabilityOf(query, { vcpuCount: query.vcpuCount })) return undefined;
    const vcpuCount = query.vcpuCount ?? 2;
    // A pod or worker takes a power-of-two vCPU count, so no other count can be available.
    if (!isPowerOfTwo(vcpuCount)) throw badQuery(`invalid query parameter vcpuCount: must be a power of two (2, 4, 8, ...), got ${vcpuCount}`);
    return { vcpuCount };
  };
  return [
    v2Route("GET /catalog/gpus", "listGpuTypes", "catalog:read", "List GPU types",
      { query: GpuCatalogQuery, answer: [200, "ListGpuTypesResponse"], errors: [400] },
      ({ query }) => {
        const availability = gpuAvailability(query);
        let gpus = rentableGpus().map((gpu) => gpuTypeView(capacity, gpu, availability));
        // With countryCodes, only the types deployable there.
        if (availability && query.countryCodes?.length) gpus = gpus.filter((gpu) => gpu.dataCenters !== undefined);
        return { status: 200, body: { gpus } };
      }),
    v2Route("GET /catalog/gpus/{id}", "getGpuType", "catalog:read", "Get a GPU type",
      { query: GpuCatalogQuery, answer: [200, "GpuType"], errors: [400, 404] },
      ({ params, query }) => {
        const gpu = GPU_TYPES.get(params.id ?? "");
        if (!gpu || gpu.legacy) throw notFound("GPU type");
        return { status: 200, body: gpuTypeView(capacity, gpu, gpuAvailability(query)) };
      }),
    v2Route("GET /catalog/cpus", "listCpuTypes", "catalog:read", "List CPU types",
      { query: CpuCatalogQuery, answer: [200, "ListCpuTypesResponse"], errors: [400] },
      ({ query }) => {
        const availability = cpuAvailability(query);
        return { status: 200, body: { cpus: [...CPU_FLAVORS.keys()].map((id) => cpuTypeView(capacity, id, availability)) } };
      }),
    v2Route("GET /catalog/cpus/{id}", "getCpuType", "catalog:read", "Get a CPU type",
      { query: CpuCatalogQuery, answer: [200, "CpuType"], errors: [400, 404] },
      ({ params, query }) => {
        const id = params.id ?? "";
        if (!CPU_FLAVORS.has(id)) throw notFound("CPU type");
        return { status: 200, body: cpuTypeView(capacity, id, cpuAvailability(query)) };
      }),
    v2Route("GET /catalog/datacenters", "listDataCenters", "catalog:read", "List data centers",
      { query: DataCenterQuery, answer: [200, "ListDataCentersResponse"], errors: [400] },
      ({ query }) => {
        const dataCenters = DATA_CENTER_IDS.map((id) => dataCenterView(capacity, id, query.include ?? [])).filter(
          (dc) =>
            (query.regions === undefined || query.regions.includes(dc.region)) &&
            (query.networkVolumeTypes ?? []).every((type) => volumeTypesOf(dc.id).includes(type)) &&
            (query.compliance ?? []).every((c) => dc.compliance.includes(c)) &&
            (query.globalNetwork === undefined || supportsGlobalNetworking(dc.id) === query.globalNetwork),
        );
        return { status: 200, body: { dataCenters } };
      }),
    v2Route("GET /catalog/datacenters/{id}", "getDataCenter", "catalog:read", "Get a data center",
      { query: DataCenterGetQuery, answer: [200, "DataCenter"], errors: [400, 404] },
      ({ params, query }) => {
        const id = params.id ?? "";
        if (!isDataCenter(id)) throw notFound("data center");
        return { status: 200, body: dataCenterView(capacity, id, query.include ?? []) };
      }),
  ];
}
