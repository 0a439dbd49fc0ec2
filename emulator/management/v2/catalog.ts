/**
 * /api/v2/catalog/gpus, /cpus, /datacenters (and one of each by id): the catalog as a query asks
 * for it (management/catalog.ts: availability and filters) in v2's list shapes; /catalog/templates:
 * the public template catalog (management/templateCatalog.ts), a bare list (today 1.2).
 */
import type { Operation } from "../../http/router";
import {
  CpuCatalogQuery,
  DataCenterGetQuery,
  DataCenterQuery,
  GpuCatalogQuery,
  PublicTemplatesQuery,
} from "../../vocabulary/schemas/v2/requests";
import { cpuType, cpuTypes, dataCenter, dataCenters, gpuType, gpuTypes } from "../catalog";
import { templateCatalog } from "../templateCatalog";
import type { V2Context } from "./operation";
import { v2TemplateView } from "./templates";

export function v2CatalogOperations({ ctx, route }: V2Context): Operation[] {
  return [
    route(
      ["GET /catalog/gpus", "listGpuTypes", "catalog:read", "List GPU types"],
      { query: GpuCatalogQuery, answer: [200, "ListGpuTypesResponse"], errors: [400] },
      ({ query }) => ({ status: 200, body: { gpus: gpuTypes(ctx, query) } }),
    ),
    route(
      ["GET /catalog/gpus/{id}", "getGpuType", "catalog:read", "Get a GPU type"],
      { query: GpuCatalogQuery, answer: [200, "GpuType"], errors: [400, 404] },
      ({ id, query }) => ({ status: 200, body: gpuType(ctx, id, query) }),
    ),
    route(
      ["GET /catalog/cpus", "listCpuTypes", "catalog:read", "List CPU types"],
      { query: CpuCatalogQuery, answer: [200, "ListCpuTypesResponse"], errors: [400] },
      ({ query }) => ({ status: 200, body: { cpus: cpuTypes(ctx, query) } }),
    ),
    route(
      ["GET /catalog/cpus/{id}", "getCpuType", "catalog:read", "Get a CPU type"],
      { query: CpuCatalogQuery, answer: [200, "CpuType"], errors: [400, 404] },
      ({ id, query }) => ({ status: 200, body: cpuType(ctx, id, query) }),
    ),
    route(
      ["GET /catalog/datacenters", "listDataCenters", "catalog:read", "List data centers"],
      { query: DataCenterQuery, answer: [200, "ListDataCentersResponse"], errors: [400] },
      ({ query }) => ({ status: 200, body: { dataCenters: dataCenters(ctx, query) } }),
    ),
    route(
      ["GET /catalog/datacenters/{id}", "getDataCenter", "catalog:read", "Get a data center"],
      { query: DataCenterGetQuery, answer: [200, "DataCenter"], errors: [400, 404] },
      ({ id, query }) => ({ status: 200, body: dataCenter(ctx, id, query.include) }),
    ),
    route(
      ["GET /catalog/templates", "listPublicTemplates", "catalog:read", "List public templates"],
      { query: PublicTemplatesQuery, answer: [200, "TemplateList"], errors: [400] },
      ({ accountId, query }) => ({
        status: 200,
        body: { templates: templateCatalog(ctx, query.source).map((template) => v2TemplateView(template, accountId)) },
      }),
    ),
  ];
}
