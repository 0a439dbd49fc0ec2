/** /api/v2/catalog/gpus, /cpus, /datacenters (and one of each by id). */
import { notFound } from "../../http/errors";
import type { Operation } from "../../http/router";
import { CPU_FLAVORS, DATA_CENTER_IDS, GPU_TYPES } from "../../vocabulary/catalog";
import { cpuTypeView, dataCenterView, gpuDataCenters, gpuTypeView, isDataCenter, isPowerOfTwo, rentableGpus, supportsGlobalNetworking, volumeTypesOf } from "./catalog";
import { type V2Context, defineV2Operation } from "./operation";
import { ProblemError } from "./problem";
import { CpuCatalogQuery, DataCenterGetQuery, DataCenterQuery, GpuCatalogQuery } from "./schemas";

const TAG = "catalog";

function badQuery(message: string): ProblemError {
  return new ProblemError(400, message, [message]);
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
  const gpuAvailability = (query: GpuCatalogQuery) => {
    const { include: _i, product: _p, ...scoped } = query;
    return availabilityOf(query, scoped) ? { count: query.count ?? 1, dataCenterIds: gpuDataCenters(query.countryCodes) } : undefined;
  };
  const cpuAvailability = (query: CpuCatalogQuery) => {
    if (!availabilityOf(query, { vcpuCount: query.vcpuCount })) return undefined;
    const vcpuCount = query.vcpuCount ?? 2;
    // A pod or worker takes a power-of-two vCPU count, so no other count can be available.
    if (!isPowerOfTwo(vcpuCount)) throw badQuery(`invalid query parameter vcpuCount: must be a power of two (2, 4, 8, ...), got ${vcpuCount}`);
    return { vcpuCount };
  };
  return [
    defineV2Operation({
      method: "GET",
      path: "/catalog/gpus",
      operationId: "listGpuTypes",
      tag: TAG,
      scope: "catalog:read",
      summary: "List GPU types",
      query: GpuCatalogQuery,
      response: { status: 200, description: "OK", schemaName: "ListGpuTypesResponse" },
      errors: [400],
      handle({ query }) {
        const availability = gpuAvailability(query);
        let gpus = rentableGpus().map((gpu) => gpuTypeView(capacity, gpu, availability));
        // With countryCodes, only the types deployable there.
        if (availability && query.countryCodes?.length) gpus = gpus.filter((gpu) => gpu.dataCenters !== undefined);
        return { status: 200, body: { gpus } };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/catalog/gpus/{id}",
      operationId: "getGpuType",
      tag: TAG,
      scope: "catalog:read",
      summary: "Get a GPU type",
      query: GpuCatalogQuery,
      response: { status: 200, description: "OK", schemaName: "GpuType" },
      errors: [400, 404],
      handle({ params, query }) {
        const gpu = GPU_TYPES.get(params.id ?? "");
        if (!gpu || gpu.legacy) throw notFound("GPU type");
        return { status: 200, body: gpuTypeView(capacity, gpu, gpuAvailability(query)) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/catalog/cpus",
      operationId: "listCpuTypes",
      tag: TAG,
      scope: "catalog:read",
      summary: "List CPU types",
      query: CpuCatalogQuery,
      response: { status: 200, description: "OK", schemaName: "ListCpuTypesResponse" },
      errors: [400],
      handle({ query }) {
        const availability = cpuAvailability(query);
        return { status: 200, body: { cpus: [...CPU_FLAVORS.keys()].map((id) => cpuTypeView(capacity, id, availability)) } };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/catalog/cpus/{id}",
      operationId: "getCpuType",
      tag: TAG,
      scope: "catalog:read",
      summary: "Get a CPU type",
      query: CpuCatalogQuery,
      response: { status: 200, description: "OK", schemaName: "CpuType" },
      errors: [400, 404],
      handle({ params, query }) {
        const id = params.id ?? "";
        if (!CPU_FLAVORS.has(id)) throw notFound("CPU type");
        return { status: 200, body: cpuTypeView(capacity, id, cpuAvailability(query)) };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/catalog/datacenters",
      operationId: "listDataCenters",
      tag: TAG,
      scope: "catalog:read",
      summary: "List data centers",
      query: DataCenterQuery,
      response: { status: 200, description: "OK", schemaName: "ListDataCentersResponse" },
      errors: [400],
      handle({ query }) {
        const dataCenters = DATA_CENTER_IDS.map((id) => dataCenterView(capacity, id, query.include ?? [])).filter(
          (dc) =>
            (query.regions === undefined || query.regions.includes(dc.region)) &&
            (query.networkVolumeTypes ?? []).every((type) => volumeTypesOf(dc.id).includes(type)) &&
            (query.compliance ?? []).every((c) => dc.compliance.includes(c)) &&
            (query.globalNetwork === undefined || supportsGlobalNetworking(dc.id) === query.globalNetwork),
        );
        return { status: 200, body: { dataCenters } };
      },
    }),
    defineV2Operation({
      method: "GET",
      path: "/catalog/datacenters/{id}",
      operationId: "getDataCenter",
      tag: TAG,
      scope: "catalog:read",
      summary: "Get a data center",
      query: DataCenterGetQuery,
      response: { status: 200, description: "OK", schemaName: "DataCenter" },
      errors: [400, 404],
      handle({ params, query }) {
        const id = params.id ?? "";
        if (!isDataCenter(id)) throw notFound("data center");
        return { status: 200, body: dataCenterView(capacity, id, query.include ?? []) };
      },
    }),
  ];
}
