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

/** A template value that says nothing: no registry, no command, no ports, no env, no CUDA set. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/**
 * The body a create amounts to once its template is resolved, built from the body as the client
 * sent it (`sent`, the parsed JSON before the schema's defaults: `cloud`, `globalNetworking`,
 * `gpu.count` are not part of what was sent). CreatePodRequest.templateId: "The template is resolved
 * at create time into the same container settings you could otherwise spread into this body (image,
 * args, disk, ports, env, registry, persistent mount, startSsh, startJupyter, allowedCudaVersions);
 * explicit body fields override the template's". So each of those the body omits comes from the
 * template as `accountId` reads it (another account's registry is null: v2TemplateView), `env`
 * merged per key (the body's win, as on PATCH and endpoint creates), and a persistent mount and
 * allowedCudaVersions only on a GPU pod (Template.allowedCudaVersions: "CPU pods ignore it";
 * pods/create.ts storageOf). Assumptions (emulator/README.md): a template value that is empty (null,
 * "", [], {}) adds nothing; the template's command comes in the form it was given (args, or cmd and
 * entrypoint) when the body sends none of the three; the expansion is measured as compact JSON in
 * UTF-8.
 */
function expandedWith(sent: Readonly<Record<string, unknown>>, template: TemplateRecord, accountId: string): Record<string, unknown> {
  const settings = v2TemplateView(template, accountId);
  const out: Record<string, unknown> = { ...sent };
  const fill = (key: keyof CreatePodRequest, value: unknown): void => {
    if (out[key] === undefined && !isEmpty(value)) out[key] = value;
  };
  fill("image", settings.image);
  if (sent.args === undefined && sent.cmd === undefined && sent.entrypoint === undefined) {
    // One command, in the form the template was given it (its answer carries it in both).
    const givenAsArgs = template.args !== undefined && template.args === settings.args;
    if (givenAsArgs) fill("args", settings.args);
    else {
      fill("cmd", settings.cmd);
      fill("entrypoint", settings.entrypoint);
    }
  }
  fill("disk", settings.disk);
  fill("ports", settings.ports);
  if (sent.env !== undefined) out.env = { ...settings.env, ...(sent.env as Record<string, string>) };
  else fill("env", settings.env);
  fill("registry", settings.registry);
  fill("startSsh", settings.startSsh);
  fill("startJupyter", settings.startJupyter);
  const gpu = sent.gpu as Readonly<Record<string, unknown>> | undefined;
  if (gpu) {
    if (settings.mounts.persistent) fill("mounts", { persistent: settings.mounts.persistent });
    if (gpu.allowedCudaVersions === undefined && gpu.minCudaVersion === undefined && !isEmpty(settings.allowedCudaVersions))
      out.gpu = { ...gpu, allowedCudaVersions: settings.allowedCudaVersions };
  }
  return out;
}

/**
 * A create whose body, expanded with its template, is over the limit: 413, naming both sizes. `sent`:
 * the body as the client sent it (http/router.ts Call.sentBody), measured as compact JSON.
 */
export function checkExpandedBody(sent: Readonly<Record<string, unknown>>, template: TemplateRecord, accountId: string): void {
  const own = Buffer.byteLength(JSON.stringify(sent));
  const size = Buffer.byteLength(JSON.stringify(expandedWith(sent, template, accountId)));
  const { bytes, fix } = CREATE_POD_BODY_LIMIT;
  if (size <= bytes) return;
  throw new Refusal(
    413,
    `request body expanded with template ${template.id} is ${size} bytes (the body itself ${own}, the template's settings ` +
      `the rest), over the limit of ${bytes} bytes for a pod create; ${fix}`,
  );
}
