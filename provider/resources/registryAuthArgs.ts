// Container registry credentials: there is no update operation, so every field replaces. Reads
// return id and name only, so a username or password change is seen from the inputs alone (the
// recorded values, kept secret in state). Names are unique: a same-name replacement deletes first.

import { z } from "zod";
import type { ContainerRegistryAuth } from "../../client/schemas";
import { adoptIdArg, adoptIdPolicy } from "./commonArgs";
import { replace, type ResourcePolicy } from "./fieldPolicy";
import type { ResourceDefinition } from "./resourceBase";
import { str } from "./validation";

export const registryAuthArgsSchema = z.object({
  name: str({ nonEmpty: true, maxLength: 191, example: '"ghcr-readonly"' }),
  username: str({ nonEmpty: true, example: '"deploy-bot"', sensitive: true }),
  password: str({ nonEmpty: true, example: "config.requireSecret(\"registryToken\")", sensitive: true }),
  adoptId: adoptIdArg,
});

export type RegistryAuthArgs = z.output<typeof registryAuthArgsSchema>;

export const registryAuthPolicy: ResourcePolicy<ContainerRegistryAuth> = {
  noun: "registry auth",
  deleteBeforeReplaceWhenSame: ["name"],
  fields: {
    name: replace({ observe: (a) => a.name }),
    username: replace({ sensitive: true }),
    password: replace({ sensitive: true }),
    adoptId: adoptIdPolicy(),
  },
};

export const registryAuthDefinition: ResourceDefinition<RegistryAuthArgs, ContainerRegistryAuth> = {
  policy: registryAuthPolicy,
  schema: registryAuthArgsSchema,
  sensitive: ["username", "password"],
};
