// The prices the service's catalog does not quote (network volume storage, pod disks), from the
// user's own price sheet in stack config. They are the user's figures, not a guess: an estimate
// names them as coming from this key, and without them says what it leaves out.

import { createHash } from "node:crypto";
import { z } from "zod";
import { closest } from "../fields/validation";
import { isRecord } from "../fields/values";

/** The stack config key (`pulumi config set gpucloud:prices '{"networkVolumePerGbMonth": 0.07}'`). */
export const OWN_PRICES_KEY = "gpucloud:prices";

/** A month of storage is 30 days, as the service bills it. */
export const HOURS_PER_MONTH = 720;

/** The network volume storage tiers a price may be given for. */
export const STORAGE_TIERS = ["STANDARD", "HIGH_PERFORMANCE"] as const;
export type StorageTier = (typeof STORAGE_TIERS)[number];

/** The user's prices, USD per GB per month (30 days), and when this process read them. */
export interface OwnPrices {
  /** Network volume storage per tier. */
  networkVolumePerGbMonth: { [T in StorageTier]?: number | undefined };
  /** A pod's container disk (`containerDiskInGb`). */
  containerDiskPerGbMonth?: number | undefined;
  /** A pod's own volume (`volumeInGb`). */
  podVolumePerGbMonth?: number | undefined;
  /** ISO 8601 time this provider process first read the value. */
  readAt: string;
}

// Numbers, or numeric strings (`pulumi config set --path` may store a number as a string).
const usd = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, "must be a number")
      .transform(Number),
  ])
  .pipe(z.number().finite().nonnegative());
const tiers = z.object({ STANDARD: usd.optional(), HIGH_PERFORMANCE: usd.optional() }).strict();
const sheetSchema = z
  .object({
    // One number prices both tiers.
    networkVolumePerGbMonth: z
      .preprocess((v) => (typeof v === "number" || typeof v === "string" ? { STANDARD: v, HIGH_PERFORMANCE: v } : v), tiers)
      .optional(),
    containerDiskPerGbMonth: usd.optional(),
    podVolumePerGbMonth: usd.optional(),
  })
  .strict();

const KEYS = Object.keys(sheetSchema.shape);
const EXAMPLE = `pulumi config set ${OWN_PRICES_KEY} '{"networkVolumePerGbMonth": {"STANDARD": 0.07, "HIGH_PERFORMANCE": 0.14}, "containerDiskPerGbMonth": 0.1, "podVolumePerGbMonth": 0.1}'`;

/** Why the value is not a price sheet, in the words of the key and the field at fault. */
function problemOf(raw: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return "it is not JSON";
  }
  if (!isRecord(value)) return "it is not a JSON object";
  const parsed = sheetSchema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  if (!issue) return "it is not a price sheet";
  if (issue.code === "unrecognized_keys") {
    const known = issue.path.length === 0 ? KEYS : [...STORAGE_TIERS];
    const hints = issue.keys.map((key) => {
      const near = closest(key, known);
      return `${JSON.stringify(key)}${near ? ` (did you mean ${near}?)` : ""}`;
    });
    return `${issue.path.length === 0 ? "" : `${issue.path.join(".")}: `}unknown key ${hints.join(", ")}; the keys are ${known.join(", ")}`;
  }
  const at = issue.path.join(".");
  return `${at} must be a non-negative number of USD per GB-month`;
}

/** Parses the config value; a bad one is an error naming the key, the value and the fix. */
export function parseOwnPrices(raw: string, readAt: Date): OwnPrices {
  const problem = problemOf(raw);
  if (problem !== undefined) {
    throw new Error(
      `${OWN_PRICES_KEY} is not a valid price sheet: ${problem} (got ${shortened(raw)}). Give a JSON object of USD per GB-month, e.g. \`${EXAMPLE}\`, or remove it with \`pulumi config rm ${OWN_PRICES_KEY}\``,
    );
  }
  const sheet = sheetSchema.parse(JSON.parse(raw));
  return {
    networkVolumePerGbMonth: sheet.networkVolumePerGbMonth ?? {},
    containerDiskPerGbMonth: sheet.containerDiskPerGbMonth,
    podVolumePerGbMonth: sheet.podVolumePerGbMonth,
    readAt: readAt.toISOString(),
  };
}

function shortened(raw: string): string {
  return raw.length > 120 ? `${raw.slice(0, 117)}...` : raw;
}

let last: { raw: string; prices: OwnPrices } | undefined;

/**
 * The user's prices from the stack config in force, parsed once per value (so every estimate of a
 * deployment names the same read time); undefined when the key is not set.
 */
export function ownPricesOf(config: Readonly<Record<string, string>>, now: () => number = Date.now): OwnPrices | undefined {
  const raw = config[OWN_PRICES_KEY];
  if (raw === undefined || raw.trim() === "") return undefined;
  if (last?.raw !== raw) last = { raw, prices: parseOwnPrices(raw, new Date(now())) };
  return last.prices;
}

/**
 * Names the user's prices in force (not when they were read), so that a recorded estimate can say
 * which it was made with: "none" without any, else a short digest of the figures.
 */
export function ownPricesDigest(own: OwnPrices | undefined): string {
  if (own === undefined) return "none";
  const { readAt: _readAt, ...figures } = own;
  const tiers = STORAGE_TIERS.map((t) => figures.networkVolumePerGbMonth[t] ?? null);
  return createHash("sha256")
    .update(JSON.stringify([tiers, figures.containerDiskPerGbMonth ?? null, figures.podVolumePerGbMonth ?? null]))
    .digest("hex")
    .slice(0, 16);
}
