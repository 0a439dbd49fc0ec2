// Container registry credentials: there is no update operation, so every field replaces. Reads
// return id and name only, so a username or password change is seen from the inputs alone (the
// recorded values, kept secret in state). Names are unique on v1, where a same-name replacement
// deletes first; v2 keeps no uniqueness, so there it creates first.

import type { ContainerRegistryAuthCreateInput } from "../../../client/inputs";
import type { ContainerRegistryAuth } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import { adoptIdRow, defineTable, rowsFor, type ArgsOf, type OutputArgumentKeys } from "../../fields/fieldTable";
import { str } from "../../fields/validation";

// No update operation: every field travels in the create body only.
const { replace } = rowsFor<ContainerRegistryAuth, SentPathV2<"createRegistry">, AnswerPathV2<"getRegistry">>();

const rows = {
  name: replace(str({ nonEmpty: true, maxLength: 191, example: '"ghcr-readonly"' }), { observe: (a) => a.name, v2: { path: "name" } }),
  username: replace(str({ nonEmpty: true, example: '"deploy-bot"', sensitive: true }), { sensitive: true, v2: { path: "username" } }),
  password: replace(str({ nonEmpty: true, example: 'config.requireSecret("registryToken")', sensitive: true }), {
    sensitive: true,
    v2: { path: "password" },
  }),
  adoptId: adoptIdRow,
};

export const registryAuthTable = defineTable<ContainerRegistryAuthCreateInput, ContainerRegistryAuth>()({
  noun: "registry auth",
  rows,
  deleteBeforeReplaceWhenSame: ["name"],
  // v2 registries: no uniqueness stated, and a DELETE "Rejected if any pod currently uses this
  // credential": a replacement creates first, so its pods can move before the old one goes.
  uniqueNamesOnV1Only: true,
});
export type RegistryAuthArgs = ArgsOf<typeof rows>;
export type { RegistryAuthOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type RegistryAuthRowOutputArguments = OutputArgumentKeys<typeof rows>;
