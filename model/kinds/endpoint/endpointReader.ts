// How an endpoint is read (its workers only where readiness asks for them).
import type { Endpoint } from "../../../client/schemas";
import type { KindReader } from "../kindReader";
import { endpointTable, type EndpointArgs } from "./endpointFields";

export const endpointReader: KindReader<Endpoint, EndpointArgs> = {
  table: endpointTable,
  get: (api, id) => api.endpoints.get(id),
  list: (api) => api.endpoints.list(),
};
