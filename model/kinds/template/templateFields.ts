// A template's field table. The service's PATCH accepts every field except category and
// isServerless. Names are unique: a replacement that keeps the name deletes first.

import { createHash } from "node:crypto";
import { TEMPLATE_CATEGORIES } from "../../../client/enums";
import type { TemplateCreateInput } from "../../../client/inputs";
import type { Template } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import { adoptIdRow, defineTable, rowsFor, type ArgsOf, type OutputArgumentKeys } from "../../fields/fieldTable";
import { bool, image, oneOf, str } from "../../fields/validation";
import { OWNER_MARKER_ENV } from "../index";
import type { Props } from "../../fields/values";
import { containerRows } from "../../fields/containerRows";

const { update, replace, output } = rowsFor<Template, SentPathV2<"createTemplate" | "updateTemplate">, AnswerPathV2<"getTemplate">>();

/**
 * The revision of a template's container settings on v2, where an endpoint copies them at create
 * and keeps its copy: an endpoint built from the template re-applies it when this changes (see the
 * endpoint's templateRevision). v1 rolls template changes out to endpoints itself: its revision is "".
 */
function containerRevisionOf(wire: Props): string {
  const settings = ["image", "args", "disk", "env", "ports", "registry"].map((key) => wire[key] ?? null);
  return createHash("sha256").update(JSON.stringify(settings)).digest("hex").slice(0, 16);
}

// A template's settings fall back to the service's defaults when removed.
const container = containerRows({
  noun: "template",
  absent: "default",
  injectedKeys: ["PORT", "PORT_HEALTH", OWNER_MARKER_ENV],
  startCmdExample: '["python", "handler.py"]',
});

const rows = {
  name: update(str({ nonEmpty: true, maxLength: 191, example: '"worker-template"' }), { observe: (t) => t.name, v2: { path: "name" } }),
  imageName: update(image({ example: '"ghcr.io/acme/worker:1.4.2"' }), {
    observe: (t) => t.imageName,
    v2: { path: "image" },
  }),
  isPublic: update(bool({ example: "false" }).optional(), { default: false, observe: (t) => t.isPublic, v2: { path: "public" } }),
  containerDiskInGb: container.containerDiskInGb,
  volumeInGb: container.volumeInGb,
  volumeMountPath: container.volumeMountPath,
  // No credential read back (v2 `registry: null`) is "none", never "not reported": deleting a
  // registry credential silently drops it from templates (deleteRegistry), and refresh must show it.
  // v2 reads it as "" (the model drops nulls; "" is no id), so the drift shows on both APIs.
  containerRegistryAuthId: update(str({ nonEmpty: true, example: "registryAuth.id" }).optional(), {
    observe: (t) => t.containerRegistryAuthId ?? null,
    v2: { path: "registry", read: (w) => (typeof w["registry"] === "string" ? w["registry"] : "") },
  }),
  dockerEntrypoint: container.dockerEntrypoint,
  dockerStartCmd: container.dockerStartCmd,
  // The platform adds PORT and PORT_HEALTH to a serverless template's env.
  env: container.env,
  // Serverless templates may default to other ports than pod templates: always apply a declared list.
  ports: container.ports,
  readme: update(str({ example: '"# My template"' }).optional(), {
    default: "",
    observe: (t) => t.readme,
    v2: { unsupported: "v2 templates have no readme: remove it" },
  }),
  // v2 flags of pods made from the template (Template startSsh/startJupyter, both default true).
  startSsh: update(bool({ example: "false" }).optional(), {
    default: true,
    v2Only: true,
    v1Refuse: (v) => (v === false ? "v1 templates have no startSsh: set gpucloud:apiUrl to the /v2 URL, or remove startSsh" : undefined),
    v2: { path: "startSsh" },
  }),
  startJupyter: update(bool({ example: "false" }).optional(), {
    default: true,
    v2Only: true,
    v1Refuse: (v) =>
      v === false ? "v1 templates have no startJupyter: set gpucloud:apiUrl to the /v2 URL, or remove startJupyter" : undefined,
    v2: { path: "startJupyter" },
  }),
  category: replace(oneOf(TEMPLATE_CATEGORIES).optional(), {
    default: "NVIDIA",
    observe: (t) => t.category,
    v2: { path: "category", kind: "update" },
  }),
  isServerless: replace(bool({ example: "true" }).optional(), {
    default: false,
    observe: (t) => t.isServerless,
    v2: { path: "serverless", kind: "update" },
  }),
  adoptId: adoptIdRow,
  // What the service reports.
  // "" on v1 (a known value, so that a preview does not see it as unknown and plan endpoint updates).
  revision: output(() => "", { v2: { read: containerRevisionOf } }),
};

export const templateTable = defineTable<TemplateCreateInput, Template>()({
  noun: "template",
  rows,
  deleteBeforeReplaceWhenSame: ["name"],
});
export type TemplateArgs = ArgsOf<typeof rows>;
export type { TemplateOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type TemplateRowOutputArguments = OutputArgumentKeys<typeof rows>;
