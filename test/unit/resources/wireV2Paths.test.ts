// The field tables' v2 paths are the reference's request field names: a row that would send a field
// the v2 API does not define fails here (the generic bodies cross into the typed wire through
// wireRequest, wireV2.ts). The names are the create and update request schemas of the reference,
// kept here in the project's own list; `composed` are the table's own keys that v2Backend.ts turns
// into the reference's shape before sending (GPU types into pools, scaling.value into its variant).
import { describe, expect, it } from "vitest";
import type { ResourceTable } from "../../../provider/resources/fieldTable";
import { endpointTable } from "../../../provider/resources/endpointFields";
import { networkVolumeTable } from "../../../provider/resources/networkVolumeFields";
import { podTable } from "../../../provider/resources/podFields";
import { registryAuthTable } from "../../../provider/resources/registryAuthFields";
import { templateTable } from "../../../provider/resources/templateFields";

const container = ["image", "args", "cmd", "entrypoint", "disk", "env", "ports", "registry"];
const REQUEST_FIELDS: Record<string, { fields: string[]; composed?: string[] }> = {
  pod: {
    fields: [
      ...container, "name", "cloud", "cpu.id", "cpu.vcpuCount", "dataCenterIds", "globalNetworking", "gpu.id", "gpu.count", "gpu.allowedCudaVersions",
      "gpu.minCudaVersion", "gpu.minRamPerGpu", "gpu.minVcpuCountPerGpu", "mounts.persistent.size", "mounts.persistent.path", "mounts.network.0.volumeId",
      "mounts.network.0.path", "startJupyter", "startSsh", "templateId", "locked",
    ],
  },
  endpoint: {
    fields: [
      ...container, "name", "type", "gpu.pools", "gpu.excludedTypes", "gpu.count", "gpu.allowedCudaVersions", "gpu.minCudaVersion", "cpu", "dataCenterIds",
      "flashboot", "networkVolumes", "templateId", "timeout", "workers.min", "workers.max", "workers.idleTimeout", "scaling.type",
    ],
    composed: ["gpu.types", "scaling.value"],
  },
  template: {
    fields: [...container, "name", "allowedCudaVersions", "category", "mounts.persistent.size", "mounts.persistent.path", "public", "serverless", "startJupyter", "startSsh"],
  },
  networkVolume: { fields: ["dataCenter", "name", "size", "type"] },
  registryAuth: { fields: ["name", "username", "password"] },
};

function sentPaths(table: Pick<ResourceTable<unknown>, "fields">): string[] {
  const paths: string[] = [];
  for (const row of Object.values(table.fields)) {
    const m = row.v2;
    if (row.kind === "serverManaged" || !m || "unsupported" in m || m.path === undefined) continue;
    paths.push(m.path);
  }
  return paths;
}

describe("the field tables send only the reference's v2 request fields", () => {
  it.each([
    ["pod", podTable],
    ["endpoint", endpointTable],
    ["template", templateTable],
    ["networkVolume", networkVolumeTable],
    ["registryAuth", registryAuthTable],
  ] as const)("%s", (kind, table) => {
    const known = REQUEST_FIELDS[kind];
    const allowed = new Set([...(known?.fields ?? []), ...(known?.composed ?? [])]);
    const paths = sentPaths(table as unknown as Pick<ResourceTable<unknown>, "fields">);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !allowed.has(path))).toEqual([]);
  });
});
