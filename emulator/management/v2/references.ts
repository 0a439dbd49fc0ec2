/**
 * What a v2 body names, resolved in v2's own words: a registry credential, a template (of the right
 * kind), data centers. The commands then find them resolved (and re-check them in the records'
 * terms, which a v2 request never reaches).
 */
import type { AccountData, TemplateRecord } from "../../state/model";
import { isDataCenter } from "../../vocabulary/dataCenters";
import type { ManagementContext } from "../context";
import { invalid } from "../errors";
import { usableTemplate } from "../lookup";

export function requireRegistry(account: AccountData, id: string): void {
  if (!account.registryAuths.has(id))
    throw invalid(
      "registry",
      `registry credential ${JSON.stringify(id)} does not exist in this account; create it with POST /api/v2/registries`,
    );
}

/**
 * The template a body's `templateId` names, of the kind it needs. CreatePodRequest.templateId:
 * "unknown or inaccessible ID → 404 [...] must not be a serverless template (→ 422)";
 * UpdatePodRequest.templateId likewise; management-api-v2-today.md 5.3 for endpoints (SPEC-0922;
 * PLUGINS breaking-changes item 13): "a pod template on an endpoint → 422, unknown id → 404".
 */
export function requireTemplate(ctx: ManagementContext, account: AccountData, id: string, kind: "pod" | "serverless"): TemplateRecord {
  const template = usableTemplate(ctx, account.accountId, id);
  if (kind === "pod") {
    if (!template)
      throw invalid(
        "templateId",
        `template ${JSON.stringify(id)} does not exist or is not readable by this account; list them with GET /api/v2/templates`,
        404,
      );
    if (template.isServerless)
      throw invalid("templateId", `template ${id} is a serverless template; a pod needs a pod template (serverless: false)`, 422);
  } else {
    if (!template)
      throw invalid(
        "templateId",
        `template ${JSON.stringify(id)} does not exist in this account; list them with GET /api/v2/templates`,
        404,
      );
    if (!template.isServerless)
      throw invalid(
        "templateId",
        `template ${id} is a pod template (serverless: false); use a template created with serverless: true`,
        422,
      );
  }
  return template;
}

export function requireDataCenters(ids: readonly string[] | undefined): void {
  for (const [i, id] of (ids ?? []).entries()) {
    if (!isDataCenter(id))
      throw invalid(`dataCenterIds[${i}]`, `unknown data center ${JSON.stringify(id)}; list them with GET /api/v2/catalog/datacenters`);
  }
}

/** A pod or endpoint needs an image: the body's, or the template's it names (every template has one). */
export function requireImage(image: string | undefined, template: TemplateRecord | undefined): void {
  if (!image && !template) throw invalid("image", "image is required unless templateId names a template that has one");
}
