/**
 * Registry delegations (/api/v2/registries/delegations: create, list, revoke): the account lets the
 * service pull one image of a container registry held in a cloud account of its own, named by the
 * image's resource name. The reference gives the operations and the record's fields only
 * (EcrDelegation, CreateDelegationRequest); how `resource` is spelled and what each field is made
 * of are the emulator's assumptions (emulator README, "v2 operations added: assumptions"):
 *
 *   arn:<partition>:<service>:<region>:<cloud account id>:repository/<repository>[:<tag>]
 *
 * `repository`, `tag` (default "latest") and the region come from it; the principal delegated
 * (`awsUser`) is the cloud account id it names. Nothing is pulled: the emulator runs no images.
 */
import { newId } from "../ids";
import type { AccountData, RegistryDelegationRecord } from "../state/model";
import type { ManagementContext } from "./context";
import { invalid, notFound } from "./errors";

const RESOURCE_FORM = "arn:<partition>:<service>:<region>:<12-digit account id>:repository/<repository>[:<tag>]";
const REPOSITORY = "[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*";
const TAG = "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}";
const RESOURCE = new RegExp(`^arn:([a-z-]+):([a-z0-9-]+):([a-z]{2}(?:-[a-z]+)+-\\d):(\\d{12}):repository/(${REPOSITORY})(?::(${TAG}))?$`);

/** What a registered resource name says: the repository, the tag, the region and the cloud account. */
export function parseDelegatedResource(resource: string): { repository: string; tag: string; region: string; cloudAccount: string } {
  const match = RESOURCE.exec(resource);
  if (!match) {
    throw invalid(
      "resource",
      `${JSON.stringify(resource.slice(0, 200))} is not a registry image resource name; give ${RESOURCE_FORM}, e.g. "arn:cloud:registry:us-east-1:123456789012:repository/team/trainer:v3"`,
    );
  }
  const [, , , region = "", cloudAccount = "", repository = "", tag] = match;
  return { repository, tag: tag ?? "latest", region, cloudAccount };
}

export function registryDelegationOf(account: AccountData, id: string): RegistryDelegationRecord {
  const delegation = account.registryDelegations.get(id);
  if (!delegation) throw notFound("registry delegation");
  return delegation;
}

export function createRegistryDelegation(
  ctx: ManagementContext,
  account: AccountData,
  input: { resource: string; name?: string | null | undefined },
): RegistryDelegationRecord {
  const parsed = parseDelegatedResource(input.resource);
  const delegation: RegistryDelegationRecord = {
    id: newId("registryDelegation", (candidate) => account.registryDelegations.has(candidate)),
    accountId: account.accountId,
    createdAtMs: ctx.clock.now(),
    name: input.name ?? null,
    resource: input.resource,
    repository: parsed.repository,
    tag: parsed.tag,
    region: parsed.region,
    principal: parsed.cloudAccount,
  };
  account.registryDelegations.set(delegation.id, delegation);
  return delegation;
}

export function revokeRegistryDelegation(account: AccountData, delegation: RegistryDelegationRecord): void {
  account.registryDelegations.delete(delegation.id);
}
