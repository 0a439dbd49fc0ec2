// An endpoint's v2 bodies beyond what one field row says: the documented timeout always sent, the
// PATCH as the live service needs it (management-api-v2-today.md 6.1 #1-#5), and the errors that
// name the service's known defects. The v2 backend (model/backend/v2Backend.ts) applies them.

import { ApiError } from "../../../client/errors";
import { GpuCloudError } from "../../../client/gpuCloudError";
import type { EndpointV2 } from "../../../client/schemasV2";
import { isRecord, type Props } from "../../fields/values";

/** The endpoint `timeout` the reference documents as the default, in ms (sent, never assumed). */
export const ENDPOINT_TIMEOUT_DEFAULT_MS = 300_000;

/** The service made another endpoint type than the one sent (6.1 #5). */
export function wrongEndpointType(created: EndpointV2, declared: unknown, deleted: boolean): GpuCloudError {
  return new GpuCloudError(
    `the service created endpoint ${created.id} as type ${JSON.stringify(created.type ?? null)}, not the declared ${JSON.stringify(declared)}: ` +
      "this host does not honour the endpoint `type` (an older service host made every endpoint QUEUE). " +
      (deleted
        ? `The provider deleted endpoint ${created.id}. `
        : `Delete endpoint ${created.id} yourself (the provider could not; it may bill). `) +
      "Point gpucloud:apiUrl at a current host of the service's v2 API and run `pulumi up` again.",
  );
}

/**
 * A GPU endpoint's PATCH restates the whole selection when it has exclusions and the body does not
 * replace it: `pools` and `excludedTypes` as they are live (6.1 #1, #3: "send gpu.pools and
 * gpu.excludedTypes together").
 */
export function restateSelection(body: Props, current: EndpointV2): void {
  const gpu = isRecord(body["gpu"]) ? body["gpu"] : undefined;
  if (gpu?.["pools"] !== undefined) return;
  const excluded = current.gpu?.excludedTypes ?? [];
  if (excluded.length === 0 || !current.gpu?.pools) return;
  body["gpu"] = { ...gpu, pools: [...current.gpu.pools], excludedTypes: [...excluded] };
}

/**
 * A non-empty CUDA set and a floor are exclusive (400 if both): setting one clears the other
 * explicitly (`[]`, `""`), as UpdateEndpointGpuConfig describes (6.1 #4).
 */
export function clearOtherCudaField(body: Props): void {
  const gpu = body["gpu"];
  if (!isRecord(gpu)) return;
  const allowed = gpu["allowedCudaVersions"];
  if (Array.isArray(allowed) && allowed.length > 0 && gpu["minCudaVersion"] === undefined) gpu["minCudaVersion"] = "";
  if (typeof gpu["minCudaVersion"] === "string" && gpu["minCudaVersion"] !== "" && gpu["allowedCudaVersions"] === undefined)
    gpu["allowedCudaVersions"] = [];
}

/**
 * 6.1 #2: the live service answered every CPU-endpoint PATCH 400 "gpuId(s) is required for a gpu
 * endpoint" (a service defect, not this body): said so, and not retried.
 */
export function explainCpuPatchDefect(id: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !/gpuId\(s\) is required/i.test(error.message)) return error;
  return new GpuCloudError(
    `endpoint ${id}: the service refused to update this CPU endpoint (${error.message}). This is the service's known defect with ` +
      "CPU-endpoint updates (the request carried no GPU settings); it is not retried. Change the endpoint in the service's console, " +
      "or replace it (e.g. a new name), until the service is fixed.",
  );
}

/** The exclusions a PATCH sent must be the ones read back (6.1 #1: nothing in the reply showed the loss). */
export function checkExclusionsKept(id: string, body: Props, updated: EndpointV2): void {
  const gpu = body["gpu"];
  if (!isRecord(gpu) || gpu["pools"] === undefined) return;
  const sent = Array.isArray(gpu["excludedTypes"]) ? gpu["excludedTypes"].map(String) : [];
  const kept = updated.gpu?.excludedTypes ?? [];
  if (sent.length === kept.length && sent.every((t) => kept.includes(t))) return;
  throw new GpuCloudError(
    `endpoint ${id}: the service did not keep the GPU exclusions sent (sent excludedTypes ${JSON.stringify(sent)}, read back ${JSON.stringify(kept)}); ` +
      "this is the service's known PATCH defect that rebuilds an endpoint's GPU selection. Run `pulumi up` again to restate them, " +
      "or declare gpuTypeIds as whole pools until the service is fixed.",
  );
}

/** idleTimeout does not apply to queue endpoints scaling on request count: v2 refuses it there. */
export function dropIdleTimeoutWhereRefused(body: Props, type: unknown, scaling: unknown = body["scaling"]): void {
  const workers = body["workers"];
  if (type === "QUEUE" && isRecord(scaling) && scaling["type"] === "REQUEST_COUNT" && isRecord(workers)) delete workers["idleTimeout"];
}
