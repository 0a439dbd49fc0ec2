// The RegistryAuth's specifics: names are not unique and nothing else is readable, so only this machine's
// create journal proves which credential an interrupted create made (createOnce.ts); there is no
// update operation, so every field replaces; reads return id and name only.

import type { ContainerRegistryAuth, ContainerRegistryAuthCreateInput } from "../../client/schemas";

import { deleteIgnoringMissing, type ResourceSpec } from "./lifecycle";
import type { RegistryAuthArgs } from "../../model/kinds/registryAuth/registryAuthFields";
import { registryAuthReader } from "../../model/kinds/registryAuth/registryAuthReader";
import { messageOf } from "../../model/fields/values";

export const registryAuthSpec: ResourceSpec<RegistryAuthArgs, ContainerRegistryAuth, ContainerRegistryAuthCreateInput> = {
  ...registryAuthReader,
  matches: (a, args) => a.name === args.name,
  create: (client, body) => client.registryAuths.create(body),
  adoptRemedy: "Registry credentials cannot be changed: declare the live name to adopt them, or remove adoptId to create new ones.",
  adoptNote: (origin) =>
    origin === "adoptId"
      ? {
          level: "warn",
          text: "adopting existing credentials; the service never returns the username or password, so the declared ones are assumed to match",
        }
      : // Made by our own earlier create, from these inputs (unless they were changed since: unknowable, never read back).
        { level: "info", text: "adopting the credentials an earlier, interrupted create made" },
  async delete({ client, id, subject }) {
    try {
      await deleteIgnoringMissing(() => client.registryAuths.delete(id));
    } catch (error) {
      throw new Error(
        `${subject} cannot be deleted: ${messageOf(error)}. ` +
          "Pods and templates that use the credentials must drop them (or be deleted) first. On the v1 API, to rotate a username or " +
          "password while they are in use, give the credentials a new name too: the new ones are then created first, their users " +
          "move to them, and the old ones are deleted last (on the v2 API a replacement creates first whatever the name).",
        { cause: error },
      );
    }
  },
};
