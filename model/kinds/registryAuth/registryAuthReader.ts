// How a container registry credential is read (never its password: the service does not report it).
import type { ContainerRegistryAuth } from "../../../client/schemas";
import type { KindReader } from "../kindReader";
import { registryAuthTable, type RegistryAuthArgs } from "./registryAuthFields";

export const registryAuthReader: KindReader<ContainerRegistryAuth, RegistryAuthArgs> = {
  table: registryAuthTable,
  get: (api, id) => api.registryAuths.get(id),
  list: (api) => api.registryAuths.list(),
};
