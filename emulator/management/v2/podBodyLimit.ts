/**
 * createPod's body limit. management-api-v2-today.md 5.2, the POST /v2/pods status table: "`413` |
 * request body over **102,400 bytes**, rejected before auth — also when the body *expanded with
 * the referenced template* exceeds it | shrink env/command values (own or template's)". The route
 * table's entry declares the limit (the HTTP kit measures the body before auth, http/router.ts);
 * the create measures the body again once the template it names is known.
 */
import type { BodyLimit } from "../../http/body";
import type { TemplateRecord } from "../../state/model";
import type { CreatePodRequest } from "../../vocabulary/schemas/v2/requests";
import { Refusal } from "../errors";
import { v2TemplateView } from "./templates";

export const CREATE_POD_BODY_LIMIT: BodyLimit = {
  bytes: 102_400,
  fix: "shrink the env and command values (the body's own, or those of the template it names), or pass large data by reference (a URL or an object key)",
};

/**
 * The body a create amounts to once its template is resolved. CreatePodRequest.templateId: "The
 * template is resolved at create time into the same container settings you could otherwise spread
 * into this body (image, args, disk, ports, env, registry, persistent mount, startSsh, startJupyter,
 * allowedCudaVersions); explicit body fields override the template's". So each of those the body
 * omits comes from the template, `env` merged per key (the body's win, as on PATCH and endpoint
 * creates), and a persistent mount and allowedCudaVersions only on a GPU pod (Template
 * .allowedCudaVersions: "CPU pods ignore it"; pods/create.ts storageOf). Assumptions
 * (emulator/README.md): the template's command comes in the form it was given (args, or cmd and
 * entrypoint) when the body sends none of the three, and the expansion is measured as compact JSON
 * in UTF-8.
 */
function expandedWith(body: CreatePodRequest, template: TemplateRecord): Record<string, unknown> {
  const settings = v2TemplateView(template);
  const out: Record<string, unknown> = { ...body, env: { ...settings.env, ...body.env } };
  const fill = (key: keyof CreatePodRequest, value: unknown): void => {
    if (out[key] === undefined) out[key] = value;
  };
  fill("image", settings.image);
  if (body.args === undefined && body.cmd === undefined && body.entrypoint === undefined) {
    // One command, in the form the template was given it (its answer carries it in both).
    const givenAsArgs = template.args !== undefined && template.args === settings.args;
    Object.assign(out, givenAsArgs ? { args: settings.args } : { cmd: settings.cmd, entrypoint: settings.entrypoint });
  }
  fill("disk", settings.disk);
  fill("ports", settings.ports);
  fill("registry", settings.registry);
  fill("startSsh", settings.startSsh);
  fill("startJupyter", settings.startJupyter);
  if (body.gpu) {
    if (settings.mounts.persistent) fill("mounts", { persistent: settings.mounts.persistent });
    if (body.gpu.allowedCudaVersions === undefined && body.gpu.minCudaVersion === undefined)
      out.gpu = { ...body.gpu, allowedCudaVersions: settings.allowedCudaVersions };
  }
  return out;
}

/** A create whose body, expanded with its template, is over the limit: 413, naming both sizes. */
export function checkExpandedBody(body: CreatePodRequest, template: TemplateRecord): void {
  const own = Buffer.byteLength(JSON.stringify(body));
  const size = Buffer.byteLength(JSON.stringify(expandedWith(body, template)));
  const { bytes, fix } = CREATE_POD_BODY_LIMIT;
  if (size <= bytes) return;
  throw new Refusal(
    413,
    `request body expanded with template ${template.id} is ${size} bytes (the body itself ${own}, the template's settings ` +
      `the rest), over the limit of ${bytes} bytes for a pod create; ${fix}`,
  );
}
