/**
 * What an endpoint's workers run: the container settings of its template. A /v1 endpoint points at
 * a template of the account (shared: editing it rolls the endpoint). A v2 endpoint gets a template
 * of its own, bound to it (`boundEndpointId`), so `templateId` is a snapshot ("later template edits
 * do not affect the endpoint", NOTES.md section 6); PATCH changes that copy and DELETE removes it.
 */
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { type CommandInput, commandChange } from "../command";
import type { ManagementContext } from "../context";
import { usableTemplate } from "../lookup";
import { addTemplate, templateRegistry } from "../templateRecords";

/** Container disk of an endpoint whose body and template give none (the /v1 template default). */
const DEFAULT_DISK_GB = 50;

/** The container settings as a v2 request states them (CreateEndpointRequest's container config). */
export interface ContainerBody extends CommandInput {
  image?: string | undefined;
  disk?: number | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  registry?: string | null | undefined;
}

export type ContainerSettings = Pick<
  TemplateRecord,
  "imageName" | "dockerEntrypoint" | "dockerStartCmd" | "args" | "containerDiskInGb" | "env" | "ports" | "containerRegistryAuthId"
>;

export function endpointTemplate(ctx: ManagementContext, endpoint: EndpointRecord): TemplateRecord | undefined {
  return usableTemplate(ctx, endpoint.accountId, endpoint.templateId);
}

/**
 * Body fields over a base (a template, or settings already derived); `env` merges per key (body
 * wins). Lists and env are copies: the result goes into a record of its own. No base: the defaults.
 * The command (args, cmd, entrypoint) follows the pods' and templates' rules (command.ts): the
 * endpoint is built on the same container config (management-api-v2-today.md 5.1, 5.3).
 */
export function overlay(base: ContainerSettings | undefined, body: ContainerBody): ContainerSettings {
  const baseCommand = { entrypoint: [...(base?.dockerEntrypoint ?? [])], cmd: [...(base?.dockerStartCmd ?? [])] };
  const command = commandChange(body, baseCommand) ?? {
    dockerEntrypoint: baseCommand.entrypoint,
    dockerStartCmd: baseCommand.cmd,
    args: base?.args,
  };
  return {
    imageName: body.image ?? base?.imageName ?? "",
    dockerEntrypoint: command.dockerEntrypoint,
    dockerStartCmd: command.dockerStartCmd,
    args: command.args,
    containerDiskInGb: body.disk ?? base?.containerDiskInGb ?? DEFAULT_DISK_GB,
    env: { ...base?.env, ...body.env },
    ports: body.ports ?? [...(base?.ports ?? [])],
    containerRegistryAuthId: body.registry !== undefined ? body.registry : (base?.containerRegistryAuthId ?? null),
  };
}

/**
 * A template's container settings as the account `accountId` may use them, copied (or the defaults
 * when there is none): another account's template brings no registry (listPublicTemplates:
 * "`registry` is always null for templates you don't own"; templateRecords.ts templateRegistry).
 */
export function settingsOf(template: TemplateRecord | undefined, accountId: string): ContainerSettings {
  const settings = overlay(template, {});
  if (template) settings.containerRegistryAuthId = templateRegistry(template, accountId);
  return settings;
}

/** The template bound to `endpoint`, made with `settings`. */
export function bindTemplate(
  ctx: ManagementContext,
  account: AccountData,
  endpoint: Pick<EndpointRecord, "id" | "name" | "computeType">,
  settings: ContainerSettings,
): TemplateRecord {
  return addTemplate(ctx, account, {
    name: `${endpoint.name} (endpoint ${endpoint.id})`,
    category: endpoint.computeType === "CPU" ? "CPU" : "NVIDIA",
    isPublic: false,
    isServerless: true,
    readme: "",
    volumeInGb: 0,
    volumeMountPath: "/workspace",
    imageName: settings.imageName,
    dockerEntrypoint: settings.dockerEntrypoint,
    dockerStartCmd: settings.dockerStartCmd,
    args: settings.args,
    containerDiskInGb: settings.containerDiskInGb,
    env: settings.env,
    ports: settings.ports,
    containerRegistryAuthId: settings.containerRegistryAuthId,
    boundEndpointId: endpoint.id,
  });
}
