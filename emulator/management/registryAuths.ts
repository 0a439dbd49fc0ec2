/**
 * Container registry credentials (v1 /containerregistryauth, v2 /registries). There is no update;
 * the password is checked for presence and dropped (nothing pulls images, nothing returns it), and
 * reads show id and name only (NOTES.md section 1: "Reads return id and name only").
 */
import type { AccountData, RegistryAuthRecord } from "../state/model";
import { newId } from "../ids";
import type { ManagementContext } from "./context";
import { conflict, invalid } from "./errors";

/**
 * Where /v1 and /api/v2 differ. v1: names are unique per account (the emulator's v1 rule, as for
 * templates), and a credential any template or pod uses cannot be deleted (409). v2 states no
 * name rule, and deleteRegistry is "Rejected if any pod currently uses this credential to pull its
 * image. Templates that reference it are not part of that check — they silently lose the
 * reference (`registry` becomes null) instead of blocking the delete" (400; management-api-v2-
 * today.md 5.5).
 */
export type RegistryRules = "v1" | "v2";

export function createRegistryAuth(
  ctx: ManagementContext,
  account: AccountData,
  input: { name: string; username: string },
  rules: RegistryRules,
): RegistryAuthRecord {
  if (rules === "v1") {
    for (const existing of account.registryAuths.values()) {
      if (existing.name === input.name) {
        throw conflict(
          `container registry auth name ${JSON.stringify(input.name)} is already used by ${existing.id}; names must be unique`,
        );
      }
    }
  }
  const auth: RegistryAuthRecord = {
    id: newId("registryAuth", (candidate) => account.registryAuths.has(candidate)),
    accountId: account.accountId,
    createdAtMs: ctx.clock.now(),
    name: input.name,
    username: input.username,
  };
  account.registryAuths.set(auth.id, auth);
  return auth;
}

export function deleteRegistryAuth(account: AccountData, auth: RegistryAuthRecord, rules: RegistryRules): void {
  const templates = [...account.templates.values()].filter((t) => t.containerRegistryAuthId === auth.id);
  const pods = [...account.pods.values()].filter((p) => p.containerRegistryAuthId === auth.id).map((p) => p.id);
  if (rules === "v1") {
    const users = [...templates.map((t) => `template ${t.id}`), ...pods.map((id) => `pod ${id}`)];
    if (users.length > 0) throw conflict(`container registry auth ${auth.id} is used by ${users.join(", ")}; remove it from them first`);
  } else if (pods.length > 0) {
    throw invalid(
      "id",
      `registry credential ${auth.id} is used by pod${pods.length > 1 ? "s" : ""} ${pods.join(", ")} to pull its image; delete the pods or PATCH their registry to null first`,
    );
  }
  for (const template of templates) template.containerRegistryAuthId = null;
  account.registryAuths.delete(auth.id);
}
