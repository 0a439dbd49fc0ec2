/**
 * What the service's current API says of each data center beyond its id and country
 * (catalog.ts): its region, whether it offers global networking, its network volume tiers and its
 * compliance. /v1 has no notion of these; GET /api/v2/catalog/datacenters shows them and the pod,
 * endpoint and volume rules read them.
 */
import { DATA_CENTER_IDS } from "./catalog";

export type Region =
  | "NORTH_AMERICA"
  | "SOUTH_AMERICA"
  | "EUROPE"
  | "ASIA"
  | "MIDDLE_EAST"
  | "AFRICA"
  | "OCEANIA"
  | "ANTARCTICA"
  | "UNKNOWN";
export type VolumeTier = "STANDARD" | "HIGH_PERFORMANCE";

interface DataCenterFacts {
  region: Region;
  globalNetwork: boolean;
  highPerformanceVolumes: boolean;
}

/** Regions by the id's first part; global networking and high-performance volumes in the larger sites. */
export function dataCenterFacts(id: string): DataCenterFacts {
  const first = id.split("-")[0] ?? "";
  const region =
    first === "US" || first === "CA"
      ? "NORTH_AMERICA"
      : first === "EU" || first === "EUR"
        ? "EUROPE"
        : first === "OC"
          ? "OCEANIA"
          : first === "AP"
            ? "ASIA"
            : "UNKNOWN";
  const large = ["US-TX-3", "US-KS-2", "EU-RO-1", "EU-SE-1", "US-GA-2", "CA-MTL-3", "EUR-IS-1"].includes(id);
  return { region, globalNetwork: large, highPerformanceVolumes: large };
}

export function isDataCenter(id: string): boolean {
  return (DATA_CENTER_IDS as readonly string[]).includes(id);
}

export function supportsGlobalNetworking(id: string): boolean {
  return dataCenterFacts(id).globalNetwork;
}

/**
 * Data centers whose primary (default) network volume tier is HIGH_PERFORMANCE. The reference says a
 * create without `type` gets "the requested data center's default (primary) storage tier" but not
 * which one each has; the emulator lists the primary first in `networkVolumeTypes` (an assumption,
 * emulator/README.md) and gives one site a high-performance primary, so a client that assumes
 * STANDARD is caught.
 */
const HIGH_PERFORMANCE_PRIMARY: ReadonlySet<string> = new Set(["CA-MTL-3"]);

/** The tiers a data center offers, its primary (the default of a create without `type`) first. */
export function volumeTypesOf(id: string): VolumeTier[] {
  if (!dataCenterFacts(id).highPerformanceVolumes) return ["STANDARD"];
  return HIGH_PERFORMANCE_PRIMARY.has(id) ? ["HIGH_PERFORMANCE", "STANDARD"] : ["STANDARD", "HIGH_PERFORMANCE"];
}

/** The tier a volume created in `id` without `type` gets (undefined: the site offers none). */
export function primaryVolumeTypeOf(id: string): VolumeTier | undefined {
  return volumeTypesOf(id)[0];
}

/** Compliance the sites of a region hold. */
export function complianceOf(region: Region): Array<"GDPR" | "ISO_IEC_27001" | "SOC_2_TYPE_2"> {
  return region === "EUROPE" ? ["GDPR", "ISO_IEC_27001"] : ["SOC_2_TYPE_2"];
}
