/**
 * Creating a serverless endpoint (v1 POST /endpoints, v2 createEndpoint). A /v1 endpoint points at
 * a template of the account; a v2 one gets its own copy of the container settings (container.ts),
 * its first release (releases.ts), and counts against the worker quota (account/limits.ts).
 */
import { newId } from "../../ids";
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { ENDPOINT_DEFAULTS } from "../../vocabulary/schemas/v2/requests";
import { checkWorkerQuota } from "../account/limits";
import type { ManagementContext } from "../context";
import { checkCuda } from "../compute";
import { injectPlatformEnv, provisioningOf } from "../templateRecords";
import { type ContainerBody, bindTemplate, overlay, settingsOf } from "./container";
import { addEndpoint } from "./records";
import { newRelease } from "./releases";
import { type EndpointRules, checkScaling, checkWorkers } from "./rules";

/** The record fields a create sets (as /v1 names them), beside its container. */
export type EndpointSettings = Omit<
  EndpointRecord,
  "id" | "accountId" | "createdAtMs" | "lastActivityMs" | "name" | "templateId" | "env" | "version" | "releases" | "idleTimeout"
> & {
  /** v1: optional, "endpoint <id>" without one. */
  name: string | undefined;
  /** undefined: v2's default (a v2 request that leaves it out cannot use it; checkScaling). */
  idleTimeout: number | undefined;
};

export interface EndpointCreation {
  settings: EndpointSettings;
  /**
   * v1: the account's template the endpoint points at. v2: the request's container settings over
   * the template it names (`source`, a one-time snapshot: CreateEndpointRequest.templateId).
   */
  container: { template: TemplateRecord } | { source: TemplateRecord | undefined; body: ContainerBody };
}

/** The new endpoint, and its template (its answer is built from both). */
export function createEndpoint(
  ctx: ManagementContext,
  account: AccountData,
  creation: EndpointCreation,
  rules: EndpointRules,
): { endpoint: EndpointRecord; template: TemplateRecord } {
  const { settings, container } = creation;
  if (rules === "v2") {
    checkScaling(settings.type, settings.scalerType, settings.idleTimeout);
    checkCuda(settings.allowedCudaVersions, settings.minCudaVersion);
  }
  checkWorkers(rules, settings.workersMin, settings.workersMax);
  if (rules === "v2") checkWorkerQuota(ctx, account, { id: "", workersMax: settings.workersMax });

  const now = ctx.clock.now();
  const id = newId("endpoint", (candidate) => account.endpoints.has(candidate));
  const name = settings.name ?? `endpoint ${id}`;
  let template: TemplateRecord;
  if ("template" in container) template = container.template;
  else {
    const own = overlay(container.source && settingsOf(container.source, account.accountId), container.body);
    injectPlatformEnv(ctx, own.env);
    template = bindTemplate(ctx, account, { id, name, computeType: settings.computeType }, own);
  }
  const endpoint: EndpointRecord = {
    id,
    accountId: account.accountId,
    createdAtMs: now,
    lastActivityMs: now,
    name,
    templateId: template.id,
    computeType: settings.computeType,
    gpuTypeIds: settings.gpuTypeIds,
    gpuCount: settings.gpuCount,
    cpuFlavorIds: settings.cpuFlavorIds,
    vcpuCount: settings.vcpuCount,
    dataCenterIds: settings.dataCenterIds,
    allowedCudaVersions: settings.allowedCudaVersions,
    minCudaVersion: settings.minCudaVersion,
    networkVolumeId: settings.networkVolumeId,
    networkVolumeIds: settings.networkVolumeIds,
    executionTimeoutMs: settings.executionTimeoutMs,
    flashboot: settings.flashboot,
    idleTimeout: settings.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout,
    scalerType: settings.scalerType,
    scalerValue: settings.scalerValue,
    workersMin: settings.workersMin,
    workersMax: settings.workersMax,
    env: {},
    version: 0,
    type: settings.type,
  };
  if (settings.flashbootPriority !== undefined) endpoint.flashbootPriority = settings.flashbootPriority;
  if (rules === "v2") endpoint.releases = [newRelease(0, now, [])];
  addEndpoint(ctx, account, endpoint, template);
  return { endpoint, template };
}

/** A template's CUDA set for a GPU endpoint that gives none (nor a minimum): null when it has none either. */
export function templateCuda(source: TemplateRecord | undefined, isCpu: boolean, minCudaVersion: string | undefined): string[] | null {
  if (!source || isCpu || minCudaVersion !== undefined) return null;
  const inherited = provisioningOf(source).allowedCudaVersions;
  return inherited.length > 0 ? inherited : null;
}
