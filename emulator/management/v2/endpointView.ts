/**
 * An endpoint record in the v2 shape: what its workers run (endpoints/releases.ts workerConfig:
 * container settings from its template, `gpu.pools` and `gpu.excludedTypes` from its GPU types),
 * its `requestUrls` (endpoints/workers.ts, with its worker and release lists), scaling and workers.
 */
import type { EndpointRecord, TemplateRecord } from "../../state/model";
import type { Endpoint } from "../../vocabulary/schemas/v2/wire";
import { isoTime } from "../context";
import { endpointTemplate } from "../endpoints/container";
import { workerConfig } from "../endpoints/releases";
import { usesIdleTimeout } from "../endpoints/rules";
import { requestUrlsOf } from "../endpoints/workers";
import type { V2Context } from "./operation";

/** `template`: the endpoint's template, when the caller holds it already (a create). */
export function v2EndpointView(
  v: V2Context,
  endpoint: EndpointRecord,
  template: TemplateRecord | undefined = endpointTemplate(v.ctx, endpoint),
): Endpoint {
  // What workers run is already in v2's words: the container settings, gpu or cpu, data centers and volumes.
  const { gpu, cpu, dataCenterIds, networkVolumes, ...container } = workerConfig(endpoint, template);
  const view: Endpoint = {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type,
    requestUrls: requestUrlsOf(v.serverlessUrl(), endpoint, container.env),
    ...container,
    workers: usesIdleTimeout(endpoint.type, endpoint.scalerType)
      ? { min: endpoint.workersMin, max: endpoint.workersMax, idleTimeout: endpoint.idleTimeout }
      : { min: endpoint.workersMin, max: endpoint.workersMax },
    scaling:
      endpoint.scalerType === "QUEUE_DELAY"
        ? { type: "QUEUE_DELAY", queueDelay: endpoint.scalerValue }
        : { type: "REQUEST_COUNT", requestCount: endpoint.scalerValue },
    dataCenterIds,
    networkVolumes,
    timeout: endpoint.executionTimeoutMs,
    flashboot: endpoint.flashbootPriority ? "PRIORITY_FLASHBOOT" : endpoint.flashboot ? "FLASHBOOT" : "OFF",
    createdAt: isoTime(endpoint.createdAtMs),
  };
  view.gpu = gpu;
  if (cpu) view.cpu = cpu;
  return view;
}
