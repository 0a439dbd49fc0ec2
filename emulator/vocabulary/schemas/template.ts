/** Template request bodies and queries (TemplateCreateInput, TemplateUpdateInput). */
import { z } from "zod";
import { envField, portsField, queryFlag, refField, requiredName, stringList } from "./common";

export const TemplateCreateInput = z.strictObject({
  category: z.enum(["NVIDIA", "AMD", "CPU"]).default("NVIDIA"),
  containerDiskInGb: z.int().min(0).default(50),
  containerRegistryAuthId: refField,
  dockerEntrypoint: stringList.default([]),
  dockerStartCmd: stringList.default([]),
  env: envField.default({}),
  imageName: z.string().min(1),
  isPublic: z.boolean().default(false),
  isServerless: z.boolean().default(false),
  name: requiredName,
  ports: portsField.default(["8888/http", "22/tcp"]),
  readme: z.string().default(""),
  volumeInGb: z.int().min(0).default(20),
  volumeMountPath: z.string().min(1).default("/workspace"),
});
export type TemplateCreateInput = z.infer<typeof TemplateCreateInput>;

/** Every field except category and isServerless. */
export const TemplateUpdateInput = z.strictObject({
  containerDiskInGb: z.int().min(0).optional(),
  containerRegistryAuthId: refField,
  dockerEntrypoint: stringList.optional(),
  dockerStartCmd: stringList.optional(),
  env: envField.optional(),
  imageName: z.string().min(1).optional(),
  isPublic: z.boolean().optional(),
  name: requiredName.optional(),
  ports: portsField.optional(),
  readme: z.string().optional(),
  volumeInGb: z.int().min(0).optional(),
  volumeMountPath: z.string().min(1).optional(),
});
export type TemplateUpdateInput = z.infer<typeof TemplateUpdateInput>;

export const TEMPLATE_UPDATE_HINTS: Readonly<Record<string, string>> = {
  category: "category can only be set when the template is created; create a new template to change it",
  isServerless: "isServerless can only be set when the template is created; create a new template to change it",
};

export const TemplateQuery = z.object({
  includeEndpointBoundTemplates: queryFlag(),
  includePublicTemplates: queryFlag(),
  includeServiceTemplates: queryFlag(),
});
export type TemplateQuery = z.infer<typeof TemplateQuery>;
