// The endpoint collection on v2: the fields one row cannot map alone (GPU pools from the catalog,
// the CPU list, the scaling pair, the volumes), the live service's PATCH rules (endpointBodyV2.ts),
// the type check after a create, and workers and releases read for readiness.

import { EndpointSchema, type Endpoint } from "../../../client/schemas";
import type { EndpointV2 } from "../../../client/schemasV2";
import { IncompleteCreateError, type Endpoints } from "../../backend/port";
import type { V2Context } from "../../backend/v2Context";
import { fieldsOf, isRecord, type Props } from "../../fields/values";
import { fromWireV2, setDefault, toWireV2, wireRequest } from "../../fields/wireV2";
import {
  checkExclusionsKept,
  clearOtherCudaField,
  dropIdleTimeoutWhereRefused,
  ENDPOINT_TIMEOUT_DEFAULT_MS,
  explainCpuPatchDefect,
  restateSelection,
  wrongEndpointType,
} from "./endpointBodyV2";
import { endpointTable } from "./endpointFields";

export function endpointCollectionV2(v2: V2Context): Endpoints {
  const { client, reads } = v2;

  /** GPU type id -> serverless pool. */
  async function gpuPools(): Promise<ReadonlyMap<string, string>> {
    return new Map((await v2.gpuTypes()).filter((g) => g.pool).map((g) => [g.id, g.pool as string]));
  }

  /** GPU types as v2's selection: the pools they belong to, minus the pools' other types. */
  async function gpuSelection(types: readonly string[]): Promise<{ pools: string[]; excludedTypes?: string[] }> {
    const poolOf = await gpuPools();
    const pools = [...new Set(types.map((t) => poolOf.get(t)).filter((p): p is string => p !== undefined))];
    const unknown = types.filter((t) => !poolOf.has(t));
    if (unknown.length > 0)
      throw new Error(
        `GPU types ${unknown.map((t) => JSON.stringify(t)).join(", ")} are not in the service's catalog of serverless pools; see getGpuTypes for the ids`,
      );
    const excludedTypes = [...poolOf].filter(([id, pool]) => pools.includes(pool) && !types.includes(id)).map(([id]) => id);
    return excludedTypes.length > 0 ? { pools, excludedTypes } : { pools };
  }

  /** The endpoint fields one row cannot map alone: GPU pools, the CPU list, scaling, volumes. */
  async function bodyOf(fields: Props, current: EndpointV2 | undefined): Promise<Props> {
    const body = toWireV2(endpointTable, fields);
    const gpu = body["gpu"];
    if (isRecord(gpu) && "types" in gpu) {
      const { types, ...rest } = gpu;
      body["gpu"] = { ...rest, ...(await gpuSelection(Array.isArray(types) ? types.map(String) : [])) };
    }
    const scaling = body["scaling"];
    if (isRecord(scaling)) {
      const type = scaling["type"] ?? current?.scaling?.type ?? "QUEUE_DELAY";
      const value = scaling["value"] ?? current?.scaling?.queueDelay ?? current?.scaling?.requestCount ?? 4;
      body["scaling"] = type === "REQUEST_COUNT" ? { type, requestCount: value } : { type, queueDelay: value };
    }
    if (fields["cpuFlavorIds"] !== undefined || fields["vcpuCount"] !== undefined) {
      const ids = (fields["cpuFlavorIds"] as string[] | undefined) ?? current?.cpu?.map((c) => c.id) ?? [];
      const vcpuCount = fields["vcpuCount"] ?? current?.cpu?.[0]?.vcpuCount ?? 2;
      if (ids.length > 0) body["cpu"] = ids.map((id) => ({ id, vcpuCount }));
    }
    if (fields["networkVolumeId"] !== undefined || fields["networkVolumeIds"] !== undefined) {
      const one = typeof fields["networkVolumeId"] === "string" ? [fields["networkVolumeId"]] : [];
      // networkVolumeId removed (null, its reset) alone: the live volumes but the first, which it read as.
      const rest =
        fields["networkVolumeId"] === null && fields["networkVolumeIds"] === undefined
          ? (current?.networkVolumes ?? []).slice(1)
          : ((fields["networkVolumeIds"] as string[] | null | undefined) ?? []);
      body["networkVolumes"] = [...new Set([...one, ...rest])];
    }
    return body;
  }

  return {
    deleteTerminatesWorkers: true,

    async create(input) {
      const fields = fieldsOf(input);
      const body = await bodyOf(fields, undefined);
      body["type"] ??= "QUEUE";
      body["scaling"] ??= { type: "QUEUE_DELAY", queueDelay: 4 };
      if (fields["computeType"] === "CPU") delete body["gpu"];
      else {
        delete body["cpu"];
        // v2 chooses GPUs by pool: no types declared means every pool.
        if (!isRecord(body["gpu"]) || body["gpu"]["pools"] === undefined)
          setDefault(body, "gpu", "pools", [...new Set((await gpuPools()).values())]);
      }
      // management-api-v2-today.md 6.1 #7: an endpoint created without `timeout` came back with 0
      // (documented default 300000 ms): always send it.
      body["timeout"] ??= ENDPOINT_TIMEOUT_DEFAULT_MS;
      // The endpoint's own env: on v2 it holds the owner's marker (merged per key over a template's env).
      if (isRecord(fields["env"])) body["env"] = fields["env"];
      dropIdleTimeoutWhereRefused(body, body["type"]);
      const created = await client.endpoints.create(wireRequest<"createEndpoint">(body));
      // 6.1 #5: an older host had no `type` and silently made QUEUE endpoints: compare and fail
      // loudly, after deleting the endpoint of the wrong type (it would bill, and is not the one declared).
      if (created.type !== body["type"]) {
        const deleted = await client.endpoints.delete(created.id).then(
          () => true,
          () => false,
        );
        const error = wrongEndpointType(created, body["type"], deleted);
        // Not deleted, it bills: recorded in the stack, the next up replaces it.
        throw deleted ? error : new IncompleteCreateError(endpointOf(created), error.message);
      }
      return endpointOf(created);
    },

    async list() {
      return (await reads.endpoints.list()).map((e) => endpointOf(e));
    },

    async get(id, include) {
      const endpoint = await reads.endpoints.read(id);
      if (include?.includeWorkers !== true) return endpointOf(endpoint);
      // Workers (no list form: one call per endpoint) as the readiness code reads them: up unless
      // initializing, throttled or unhealthy.
      const workers = (await client.endpointWorkers(id)).map((w) => ({
        id: w.id,
        desiredStatus: "RUNNING",
        lastStatusChange: w.status.toLowerCase(),
      }));
      return endpointOf(endpoint, workers);
    },

    /**
     * A PATCH as the live service needs it (management-api-v2-today.md 6.1 #1-#3): the endpoint is read
     * first, since its family and selection decide the body. A CPU endpoint's PATCH never carries
     * `gpu`; a GPU endpoint's restates `pools` and `excludedTypes` whenever the selection has
     * exclusions (a PATCH without them erased the exclusions on the live service), and the answer is
     * checked: exclusions that did not survive fail the update, naming the defect.
     */
    async update(id, input) {
      const { type: _fixedType, computeType: _fixedCompute, ...fields } = fieldsOf(input);
      const current = await reads.endpoints.read(id);
      const body = await bodyOf(fields, current);
      dropIdleTimeoutWhereRefused(body, current.type, body["scaling"] ?? current.scaling);
      const isCpu = Array.isArray(current.cpu) && current.cpu.length > 0;
      if (isCpu) delete body["gpu"];
      else restateSelection(body, current);
      clearOtherCudaField(body);
      const updated = await client.endpoints.update(id, wireRequest<"updateEndpoint">(body)).catch((error: unknown) => {
        throw isCpu ? explainCpuPatchDefect(id, error) : error;
      });
      if (!isCpu) checkExclusionsKept(id, body, updated);
      return endpointOf(updated);
    },

    delete: (id) => client.endpoints.delete(id),
    rollout: (id) => client.endpointRollout(id),
  };
}

function endpointOf(wire: EndpointV2, workers?: readonly Props[]): Endpoint {
  // env is no field of the table: it is kept for the owner's marker (provider/resources/ownership.ts).
  return EndpointSchema.parse({
    ...fromWireV2(endpointTable, wire),
    ...(wire.env ? { env: wire.env } : {}),
    ...(workers ? { workers } : {}),
  });
}
