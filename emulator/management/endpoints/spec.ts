/**
 * From management records to what the job side needs (EndpointSpec in contract.ts), and the
 * ServerlessDeps the job side calls back into.
 */
import type { Accounts } from "../../auth";
import { recordWorkerUsage } from "../../billing/ledger";
import type { EndpointSpec, Placement, ServerlessDeps } from "../../serverless/contract";
import type { EndpointRecord, TemplateRecord } from "../../state/model";
import { DATA_CENTER_IDS } from "../../vocabulary/catalog";
import { spendCapRefusal } from "../account/limits";
import { resolveSecrets } from "../account/placeholders";
import { servicePrefix } from "../account/secrets";
import type { ManagementContext } from "../context";
import { usableTemplate } from "../lookup";

export const PUBLIC_ACCOUNT_ID = "public";

/** The data centers an endpoint's workers may use: its own, or (none listed: the scheduler chooses) every one. */
function preferredDataCenters(endpoint: EndpointRecord): readonly string[] {
  return endpoint.dataCenterIds.length > 0 ? endpoint.dataCenterIds : DATA_CENTER_IDS;
}

/** Workers must run where the endpoint's network volumes are. */
function workerDataCenters(ctx: ManagementContext, endpoint: EndpointRecord): string[] {
  const preferred = preferredDataCenters(endpoint);
  // Most endpoints have no volume: their data centers as they are, without the sets below (this
  // runs on every create and update, and on every job API request through getEndpoint).
  if (endpoint.networkVolumeId === null && (endpoint.networkVolumeIds === null || endpoint.networkVolumeIds.length === 0))
    return [...preferred];
  const account = ctx.store.accounts.get(endpoint.accountId);
  const volumeIds = [...(endpoint.networkVolumeId ? [endpoint.networkVolumeId] : []), ...(endpoint.networkVolumeIds ?? [])];
  const volumeDcs = new Set(
    volumeIds.flatMap((id) => {
      const volume = account?.networkVolumes.get(id);
      return volume ? [volume.dataCenterId] : [];
    }),
  );
  if (volumeDcs.size === 0) return [...preferred];
  const both = preferred.filter((dc) => volumeDcs.has(dc));
  return both.length > 0 ? both : [...volumeDcs];
}

/** The env an endpoint's workers get: its template's, overlaid by its own (empty unless set). */
export function workerEnv(
  template: Pick<TemplateRecord, "env"> | undefined,
  endpoint: Pick<EndpointRecord, "env">,
): Record<string, string> {
  // One spread when the endpoint has no env of its own (the usual case): a second, even of an
  // empty object, adds its keys one by one at run time.
  for (const _ in endpoint.env) return { ...template?.env, ...endpoint.env };
  return { ...template?.env };
}

/** `template`: the endpoint's template, when the caller holds it already (a create). */
export function endpointSpec(
  ctx: ManagementContext,
  endpoint: EndpointRecord,
  template: TemplateRecord | undefined = usableTemplate(ctx, endpoint.accountId, endpoint.templateId),
): EndpointSpec {
  return {
    id: endpoint.id,
    accountId: endpoint.accountId,
    name: endpoint.name,
    templateId: endpoint.templateId,
    imageName: template?.imageName ?? "",
    env: workerEnv(template, endpoint),
    computeType: endpoint.computeType,
    gpuTypeIds: [...endpoint.gpuTypeIds],
    gpuCount: endpoint.gpuCount,
    cpuFlavorIds: [...endpoint.cpuFlavorIds],
    dataCenterIds: workerDataCenters(ctx, endpoint),
    workersMin: endpoint.workersMin,
    workersMax: endpoint.workersMax,
    idleTimeout: endpoint.idleTimeout,
    scalerType: endpoint.scalerType,
    scalerValue: endpoint.scalerValue,
    executionTimeoutMs: endpoint.executionTimeoutMs,
    version: endpoint.version,
    type: endpoint.type,
  };
}

/** An endpoint preloaded with --public-endpoint ID=IMAGE: callable by every key. */
export function publicEndpointSpec(id: string, imageName: string): EndpointSpec {
  return {
    id,
    accountId: PUBLIC_ACCOUNT_ID,
    name: id,
    templateId: `public-${id}`,
    imageName,
    env: {},
    computeType: "GPU",
    gpuTypeIds: [],
    gpuCount: 1,
    cpuFlavorIds: [],
    dataCenterIds: [...DATA_CENTER_IDS],
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 5,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    executionTimeoutMs: 600_000,
    version: 0,
    type: "QUEUE",
  };
}

/** vCPUs per CPU worker: EndpointSpec does not carry it, so it is read from the endpoint record. */
function workerVcpus(ctx: ManagementContext, spec: EndpointSpec): number {
  return ctx.store.accounts.get(spec.accountId)?.endpoints.get(spec.id)?.vcpuCount ?? 2;
}

export function createServerlessDeps(ctx: ManagementContext, accounts: Accounts): ServerlessDeps {
  return {
    clock: ctx.clock,
    resolveAccount: (authorization) => accounts.resolve(authorization),
    getEndpoint(accountId, endpointId) {
      const own = ctx.store.accounts.get(accountId)?.endpoints.get(endpointId);
      if (own) return endpointSpec(ctx, own);
      return ctx.publicEndpoints.get(endpointId);
    },
    place(spec): Placement | { error: string } {
      // Workers are placed by the same rule as pods but do not hold capacity: the contract has no
      // release call, so a held unit could never be returned.
      const choice = ctx.capacity.choose({
        computeType: spec.computeType,
        gpuTypeIds: spec.gpuTypeIds,
        gpuCount: spec.gpuCount,
        cpuFlavorIds: spec.cpuFlavorIds,
        vcpuCount: workerVcpus(ctx, spec),
        dataCenterIds: spec.dataCenterIds,
        cloudType: "SECURE",
        interruptible: false,
      });
      if ("error" in choice) return choice;
      // A worker over the account's spend cap stays unstarted (throttled) and is tried again later.
      const account = ctx.store.accounts.get(spec.accountId);
      const refusal = account ? spendCapRefusal(ctx, account, choice.costPerHr, `a worker of endpoint ${spec.id}`) : undefined;
      if (refusal !== undefined) return { error: refusal };
      return {
        gpuTypeId: choice.kind === "gpu" ? choice.typeId : null,
        cpuFlavorId: choice.kind === "cpu" ? choice.typeId : null,
        dataCenterId: choice.dataCenterId,
        costPerHr: choice.costPerHr,
      };
    },
    bootEnv(accountId, env) {
      return resolveSecrets(ctx.store.accounts.get(accountId), env, servicePrefix(ctx));
    },
    recordWorkerUsage(usage) {
      if (usage.accountId === PUBLIC_ACCOUNT_ID) return; // nobody owns public endpoints' bills
      const account = ctx.store.account(usage.accountId);
      recordWorkerUsage(account, usage);
      const endpoint = account.endpoints.get(usage.endpointId);
      if (endpoint) endpoint.lastActivityMs = Math.max(endpoint.lastActivityMs, usage.endMs);
      ctx.changed();
    },
  };
}
