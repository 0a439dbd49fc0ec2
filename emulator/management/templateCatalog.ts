/**
 * The public template catalog (GET /api/v2/catalog/templates, listPublicTemplates): "`official`
 * (the default) is the service-curated templates, `verified` is community templates the service
 * has verified, and `community` is everything else other users have shared publicly [...] At most
 * 100 templates are returned." The service's templates are serviceTemplates.ts; the community is
 * every account's public template. Assumptions (emulator README, "v2 operations added:
 * assumptions"): the emulator verifies no one, so `verified` is empty; the caller's own public
 * templates are in `community` too (a catalog reads the same for every caller, and the reference
 * expects owned templates there: "`registry` is always null for templates you don't own"); newest
 * first, so the cap keeps the newest 100.
 */
import type { TemplateRecord } from "../state/model";
import type { ManagementContext } from "./context";
import { byCreation } from "./lists";
import { publicTemplates } from "./lookup";
import { SERVICE_TEMPLATES } from "./serviceTemplates";

/** "At most 100 templates are returned." */
export const TEMPLATE_CATALOG_CAP = 100;

export type CatalogSource = "official" | "verified" | "community";

function newestFirst(a: TemplateRecord, b: TemplateRecord): number {
  const [x, y] = [byCreation(a), byCreation(b)];
  return y.rank - x.rank || (y.id > x.id ? 1 : y.id < x.id ? -1 : 0);
}

export function templateCatalog(ctx: ManagementContext, source: CatalogSource): TemplateRecord[] {
  const slice =
    source === "official"
      ? [...SERVICE_TEMPLATES.values()]
      : source === "community"
        ? // No account has the empty id: every account's public templates, the caller's included.
          [...ctx.visibility.listed(publicTemplates(ctx, ""))]
        : [];
  return slice.sort(newestFirst).slice(0, TEMPLATE_CATALOG_CAP);
}
