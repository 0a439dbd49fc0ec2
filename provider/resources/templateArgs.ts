// A template's arguments, checks and policy table. The service's PATCH accepts every field except
// category and isServerless. Names are unique: a replacement that keeps the name deletes first.

import { z } from "zod";
import type { Template } from "../../client/schemas";
import { TEMPLATE_CATEGORIES } from "./catalog";
import { adoptIdArg, adoptIdPolicy } from "./commonArgs";
import { replace, update, type ResourcePolicy } from "./fieldPolicy";
import type { ResourceDefinition } from "./resourceBase";
import { argv, bool, envMap, list, num, oneOf, port, str } from "./validation";

export const templateArgsSchema = z.object({
  name: str({ nonEmpty: true, maxLength: 191, example: '"worker-template"' }),
  imageName: str({ nonEmpty: true, example: '"ghcr.io/acme/worker:1.4.2"' }),
  category: oneOf(TEMPLATE_CATEGORIES).optional(),
  isServerless: bool({ example: "true" }).optional(),
  isPublic: bool({ example: "false" }).optional(),
  containerDiskInGb: num({ min: 1, unit: "GB", example: "50" }).optional(),
  volumeInGb: num({ min: 0, unit: "GB", example: "20" }).optional(),
  volumeMountPath: str({ example: '"/workspace"', pattern: { re: /^\//, hint: 'is not an absolute path; start it with "/", e.g. "/workspace"' } }).optional(),
  containerRegistryAuthId: str({ nonEmpty: true, example: "registryAuth.id" }).optional(),
  dockerEntrypoint: argv('["bash", "-c"]').optional(),
  dockerStartCmd: argv('["python", "handler.py"]').optional(),
  env: envMap.optional(),
  ports: list(port, { example: '["8888/http", "22/tcp"]', unique: true }).optional(),
  readme: str({ example: '"# My template"' }).optional(),
  adoptId: adoptIdArg,
});

export type TemplateArgs = z.output<typeof templateArgsSchema>;

export const templatePolicy: ResourcePolicy<Template> = {
  noun: "template",
  deleteBeforeReplaceWhenSame: ["name"],
  fields: {
    name: update({ observe: (t) => t.name }),
    imageName: update({ observe: (t) => t.imageName }),
    isPublic: update({ default: false, observe: (t) => t.isPublic }),
    containerDiskInGb: update({ default: 50, observe: (t) => t.containerDiskInGb }),
    volumeInGb: update({ default: 20, observe: (t) => t.volumeInGb }),
    volumeMountPath: update({ default: "/workspace", observe: (t) => t.volumeMountPath }),
    containerRegistryAuthId: update({ observe: (t) => t.containerRegistryAuthId }),
    dockerEntrypoint: update({ default: [], observe: (t) => t.dockerEntrypoint }),
    dockerStartCmd: update({ default: [], observe: (t) => t.dockerStartCmd }),
    env: update({ envMap: true, observe: (t) => t.env }),
    // Serverless templates may default to other ports than pod templates: always apply a declared list.
    ports: update({ unordered: true, resetTo: ["8888/http", "22/tcp"], observe: (t) => t.ports }),
    readme: update({ default: "", observe: (t) => t.readme }),
    category: replace({ default: "NVIDIA", observe: (t) => t.category }),
    isServerless: replace({ default: false, observe: (t) => t.isServerless }),
    adoptId: adoptIdPolicy(),
  },
};

// env values may be secrets (pulumi.secret): their failures must not make the engine print them.
export const templateDefinition: ResourceDefinition<TemplateArgs, Template> = { policy: templatePolicy, schema: templateArgsSchema, sensitive: ["env"] };
