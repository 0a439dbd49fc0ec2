/**
 * Finding an account's resources: by the id in a path (404 when it is not the account's: ids of
 * other accounts are simply not found), or by a reference in a body (a 400 naming the field; in
 * `/api/v2`'s words for what a v2 body names: a registry credential, a template of the right kind,
 * data centers, which the commands then find resolved and re-check in the records' terms).
 */
import type { AccountData, EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord, TemplateRecord } from "../state/model";
import { isDataCenter } from "../vocabulary/dataCenters";
import type { ManagementContext } from "./context";
import { invalid, notFound } from "./errors";
import { SERVICE_TEMPLATES } from "./serviceTemplates";

export function podOf(account: AccountData, id: string): PodRecord {
  const pod = account.pods.get(id);
  if (!pod) throw notFound("pod");
  return pod;
}

export function endpointOf(account: AccountData, id: string): EndpointRecord {
  const endpoint = account.endpoints.get(id);
  if (!endpoint) throw notFound("endpoint");
  return endpoint;
}

export function templateOf(account: AccountData, id: string): TemplateRecord {
  const template = account.templates.get(id);
  if (!template) throw notFound("template");
  return template;
}

export function networkVolumeOf(account: AccountData, id: string): NetworkVolumeRecord {
  const volume = account.networkVolumes.get(id);
  if (!volume) throw notFound("network volume");
  return volume;
}

export function registryAuthOf(account: AccountData, id: string): RegistryAuthRecord {
  const auth = account.registryAuths.get(id);
  if (!auth) throw notFound("container registry auth");
  return auth;
}

/** Public templates of every other account. */
export function* publicTemplates(ctx: ManagementContext, exceptAccountId: string): Iterable<TemplateRecord> {
  for (const account of ctx.store.accounts.values()) {
    if (account.accountId === exceptAccountId) continue;
    for (const template of account.templates.values()) if (template.isPublic) yield template;
  }
}

/**
 * A template this account may build from or read: its own, a service template, or another account's
 * public one. By account id: the job side asks for endpoints' templates on every request.
 */
export function usableTemplate(ctx: ManagementContext, accountId: string, id: string): TemplateRecord | undefined {
  const own = ctx.store.accounts.get(accountId)?.templates.get(id) ?? SERVICE_TEMPLATES.get(id);
  if (own) return own;
  for (const template of publicTemplates(ctx, accountId)) if (template.id === id) return template;
  return undefined;
}

/** Body references (templateId, networkVolumeId, ...) that do not exist are bad input, not 404s. */
export function requireTemplate(ctx: ManagementContext, account: AccountData, id: string): TemplateRecord {
  const template = usableTemplate(ctx, account.accountId, id);
  if (!template) throw invalid("templateId", `template ${JSON.stringify(id)} does not exist in this account`);
  return template;
}

export function requireNetworkVolume(account: AccountData, id: string, field = "networkVolumeId"): NetworkVolumeRecord {
  const volume = account.networkVolumes.get(id);
  if (!volume) throw invalid(field, `network volume ${JSON.stringify(id)} does not exist in this account`);
  return volume;
}

export function requireRegistryAuth(account: AccountData, id: string): RegistryAuthRecord {
  const auth = account.registryAuths.get(id);
  if (!auth) throw invalid("containerRegistryAuthId", `container registry auth ${JSON.stringify(id)} does not exist in this account`);
  return auth;
}

/** A v2 body's `registry`: a registry credential of the account. */
export function requireRegistry(account: AccountData, id: string): void {
  if (!account.registryAuths.has(id))
    throw invalid(
      "registry",
      `registry credential ${JSON.stringify(id)} does not exist in this account; create it with POST /api/v2/registries`,
    );
}

/**
 * The template a v2 body's `templateId` names, of the kind it needs. CreatePodRequest.templateId:
 * "unknown or inaccessible ID → 404 [...] must not be a serverless template (→ 422)";
 * UpdatePodRequest.templateId likewise; management-api-v2-today.md 5.3 for endpoints (SPEC-0922;
 * PLUGINS breaking-changes item 13): "a pod template on an endpoint → 422, unknown id → 404".
 */
export function requireTemplateOfKind(
  ctx: ManagementContext,
  account: AccountData,
  id: string,
  kind: "pod" | "serverless",
): TemplateRecord {
  const template = usableTemplate(ctx, account.accountId, id);
  if (kind === "pod") {
    if (!template)
      throw invalid(
        "templateId",
        `template ${JSON.stringify(id)} does not exist or is not readable by this account; list them with GET /api/v2/templates`,
        404,
      );
    if (template.isServerless)
      throw invalid("templateId", `template ${id} is a serverless template; a pod needs a pod template (serverless: false)`, 422);
  } else {
    if (!template)
      throw invalid(
        "templateId",
        `template ${JSON.stringify(id)} does not exist in this account; list them with GET /api/v2/templates`,
        404,
      );
    if (!template.isServerless)
      throw invalid(
        "templateId",
        `template ${id} is a pod template (serverless: false); use a template created with serverless: true`,
        422,
      );
  }
  return template;
}

/** A v2 body's `dataCenterIds`: each one a data center of the catalog. */
export function requireDataCenters(ids: readonly string[] | undefined): void {
  for (const [i, id] of (ids ?? []).entries()) {
    if (!isDataCenter(id))
      throw invalid(`dataCenterIds[${i}]`, `unknown data center ${JSON.stringify(id)}; list them with GET /api/v2/catalog/datacenters`);
  }
}

/** A pod or endpoint needs an image: the body's, or the template's it names (every template has one). */
export function requireImage(image: string | undefined, template: TemplateRecord | undefined): void {
  if (!image && !template) throw invalid("image", "image is required unless templateId names a template that has one");
}

/** A v2 body's `networkVolumes`: each one a network volume of the account. */
export function requireNetworkVolumes(account: AccountData, ids: readonly string[]): string[] {
  for (const [i, id] of ids.entries()) requireNetworkVolume(account, id, `networkVolumes[${i}]`);
  return [...ids];
}
