/**
 * Finding an account's resources: by the id in a path (404 when it is not the account's: ids of
 * other accounts are simply not found), or by a reference in a body (a 400 naming the field).
 */
import type { AccountData, EndpointRecord, NetworkVolumeRecord, PodRecord, RegistryAuthRecord, TemplateRecord } from "../state/model";
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
