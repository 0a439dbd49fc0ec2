/**
 * Updating a serverless endpoint (v1 PATCH /endpoints/{id} and its POST synonym, v2
 * updateEndpoint). A change of what workers run is a release: the job side replaces older workers
 * as they go idle. /v1 counts one when a field of ENDPOINT_RELEASE_FIELDS changes and keeps no
 * history; v2 records each release with its diff, and changes the container through the
 * endpoint's own template (a `templateId` applies that template's settings as a new release).
 */
import { isDeepStrictEqual } from "node:util";
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { ENDPOINT_RELEASE_FIELDS } from "../../vocabulary/schemas/endpoint";
import { checkWorkerQuota } from "../account/limits";
import type { ManagementContext } from "../context";
import { checkCuda } from "../compute";
import { invalid } from "../errors";
import { injectPlatformEnv } from "../templateRecords";
import { type ContainerBody, type ContainerSettings, bindTemplate, endpointTemplate, overlay, settingsOf } from "./container";
import { changeEndpoint } from "./records";
import { newRelease, releaseDiff, workerConfig } from "./releases";
import { type EndpointRules, checkScaling, checkWorkers } from "./rules";
import { endpointSpec } from "./spec";

export interface EndpointChange {
  /** Record fields (as /v1 names them), set as given. */
  fields: Partial<EndpointRecord>;
  /**
   * v2's container settings: the body's over the template it names (`source`: applied "as if sent
   * in this body", its env merged with the body's and replacing the endpoint's), else over the
   * endpoint's current ones.
   */
  container?: { source: TemplateRecord | undefined; body: ContainerBody } | undefined;
}

/** The container settings a v2 change leaves the endpoint with. */
function containerAfter(
  ctx: ManagementContext,
  endpoint: EndpointRecord,
  container: NonNullable<EndpointChange["container"]>,
): ContainerSettings {
  const { source, body } = container;
  const current = settingsOf(endpointTemplate(ctx, endpoint), endpoint.accountId);
  // The template's settings apply as if sent in this body; env (template's merged with the body's)
  // then replaces the endpoint's env, as any PATCH of env does.
  const base = source
    ? { ...settingsOf(source, endpoint.accountId), env: {} }
    : { ...current, env: body.env !== undefined ? {} : current.env };
  const settings = overlay(base, { ...body, env: { ...source?.env, ...body.env } });
  if (body.env !== undefined || source) injectPlatformEnv(ctx, settings.env);
  return settings;
}

export function updateEndpoint(
  ctx: ManagementContext,
  account: AccountData,
  endpoint: EndpointRecord,
  change: EndpointChange,
  rules: EndpointRules,
): EndpointRecord {
  const { fields } = change;
  const before = rules === "v2" ? workerConfig(endpoint, endpointTemplate(ctx, endpoint)) : undefined;
  if (rules === "v2") checkScaling(endpoint.type, fields.scalerType ?? endpoint.scalerType, fields.idleTimeout);
  checkWorkers(rules, fields.workersMin ?? endpoint.workersMin, fields.workersMax ?? endpoint.workersMax);
  if (rules === "v2") {
    if (fields.workersMax !== undefined && fields.workersMax > endpoint.workersMax)
      checkWorkerQuota(ctx, account, { id: endpoint.id, workersMax: fields.workersMax });
    if ("allowedCudaVersions" in fields || "minCudaVersion" in fields) {
      checkCuda(
        fields.allowedCudaVersions ?? endpoint.allowedCudaVersions,
        fields.minCudaVersion === undefined ? endpoint.minCudaVersion : fields.minCudaVersion,
      );
    }
  }
  const settings = change.container ? containerAfter(ctx, endpoint, change.container) : undefined;

  // Everything is checked: apply.
  const release =
    rules === "v1" && ENDPOINT_RELEASE_FIELDS.some((field) => field in fields && !isDeepStrictEqual(fields[field], endpoint[field]));
  changeEndpoint(account, endpoint, {
    ...fields,
    version: release ? endpoint.version + 1 : endpoint.version,
    lastActivityMs: ctx.clock.now(),
  });
  if (settings) {
    const own = account.templates.get(endpoint.templateId);
    if (own?.boundEndpointId === endpoint.id) Object.assign(own, settings);
    else endpoint.templateId = bindTemplate(ctx, account, endpoint, settings).id;
  }
  if (before) {
    const diff = releaseDiff(before, workerConfig(endpoint, endpointTemplate(ctx, endpoint)));
    if (diff.length > 0) {
      endpoint.version += 1;
      endpoint.releases = [...(endpoint.releases ?? []), newRelease(endpoint.version, ctx.clock.now(), diff)];
    }
  }
  ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  return endpoint;
}

/**
 * A v2 change keeps the endpoint's compute family (`gpu` on a GPU endpoint, `cpu` on a CPU one).
 * True when the quirk rebuilding the GPU selection on every PATCH is on (the change applies it).
 */
export function checkComputeFamily(ctx: ManagementContext, endpoint: EndpointRecord, body: { gpu?: unknown; cpu?: unknown }): boolean {
  if (body.gpu && endpoint.computeType === "CPU")
    throw invalid("gpu", "this is a CPU endpoint; the compute family is fixed at create (send cpu, or create a GPU endpoint)");
  if (body.cpu && endpoint.computeType === "GPU")
    throw invalid("cpu", "this is a GPU endpoint; the compute family is fixed at create (send gpu, or create a CPU endpoint)");
  // The live defect (management-api-v2-today.md 6.1 #1, #2): the REST facade rebuilt the stored
  // selection from its lossy view on every PATCH, and CPU endpoints could not be PATCHed at all.
  const rebuilds = ctx.options.quirks.endpointPatchRebuildsSelection;
  if (rebuilds && endpoint.computeType === "CPU") throw invalid("gpu", "gpuId(s) is required for a gpu endpoint");
  return rebuilds;
}
