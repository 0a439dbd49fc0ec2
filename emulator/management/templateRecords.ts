/**
 * Template records: the one place an account's template is made, for the template commands
 * (templates.ts) and for the templates v2 endpoints own (endpoints/container.ts).
 */
import { newId } from "../ids";
import type { AccountData, TemplateRecord } from "../state/model";
import type { ManagementContext } from "./context";
import { SERVICE_TEMPLATES } from "./serviceTemplates";

export type TemplateFields = Omit<TemplateRecord, "id" | "accountId" | "createdAtMs">;

/** What a template says of the containers created from it besides their container settings. */
export interface TemplateProvisioning {
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[];
}

/**
 * A template's provisioning flags and CUDA set, as every reader sees them: the v2 view and the pods
 * created from it alike. A template made through /v1 stores none and has CreateTemplateRequest's
 * defaults: startSsh and startJupyter "default=true" (Template.startSsh: "Whether containers created
 * from this template get SSH access provisioned at startup"), allowedCudaVersions omitted ("Omit to
 * accept any version").
 */
export function provisioningOf(template: TemplateRecord): TemplateProvisioning {
  return {
    startSsh: template.startSsh ?? true,
    startJupyter: template.startJupyter ?? true,
    allowedCudaVersions: [...(template.allowedCudaVersions ?? [])],
  };
}

/**
 * The registry credential a template carries for `accountId`: its own template's, none of any other
 * account's (a public template of another account, a service template). listPublicTemplates:
 * "`registry` is always null for templates you don't own" (management-api-v2-paths.txt). Every
 * reader goes through here: the v2 view, and a pod or endpoint made from (or patched to) the
 * template, which would otherwise take a credential of another account.
 */
export function templateRegistry(template: TemplateRecord, accountId: string): string | null {
  return template.accountId === accountId ? template.containerRegistryAuthId : null;
}

/** Reported: the platform adds PORT and PORT_HEALTH to serverless templates (NOTES.md section 1); clients must not fight them. */
export function injectPlatformEnv(ctx: ManagementContext, env: Record<string, string>): void {
  if (!ctx.options.quirks.injectServerlessTemplatePorts) return;
  env.PORT ??= "80";
  env.PORT_HEALTH ??= "80";
}

/**
 * The one place an account's template record is made (its own, or one bound to an endpoint), under
 * a new id; no checks, the caller has made them. (The service's templates are fixed records of
 * the catalog, serviceTemplates.ts.)
 */
export function addTemplate(ctx: ManagementContext, account: AccountData, fields: TemplateFields): TemplateRecord {
  const id = newId("template", (candidate) => account.templates.has(candidate) || SERVICE_TEMPLATES.has(candidate));
  const template: TemplateRecord = { id, accountId: account.accountId, createdAtMs: ctx.clock.now(), ...fields };
  account.templates.set(id, template);
  return template;
}
