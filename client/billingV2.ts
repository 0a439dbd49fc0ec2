/**
 * The v2 billing histories (management-api-v2-paths.txt, /v2/billing*) and their queries, validated
 * before any request: `startTime` / `endTime` (RFC 3339, end after start) or `lastN` (a whole number
 * of buckets, at least 1, not with a start or end), `bucketSize` (hour, day, week, month, year) and
 * the one id filter a history has. Any other argument is refused, naming the history's own: v2 has
 * no grouping and no GPU type, data center, image or template filter (NOTES.md, "Billing").
 */
import { z } from "zod";
import { BillingQueryError } from "./billingQueryError";
import { billingTime, enumOf } from "./billingWindow";
import { BILLING_BUCKET_SIZES } from "./enums";
import type { BillingOperationV2 } from "./managementV2";

/** Each history: its operation and the id filter the reference gives it (none for the aggregate and public endpoints). */
export const BILLING_HISTORIES_V2 = {
  getAccountBilling: { operation: "listBilling", filter: undefined },
  getPodBilling: { operation: "listPodBilling", filter: "podId" },
  getServerlessBilling: { operation: "listServerlessBilling", filter: "serverlessId" },
  getPublicEndpointBilling: { operation: "listEndpointBilling", filter: undefined },
  getNetworkVolumeBilling: { operation: "listNetworkVolumeBilling", filter: "networkVolumeId" },
  getClusterBilling: { operation: "listClusterBilling", filter: "clusterId" },
} as const satisfies Record<string, { operation: BillingOperationV2; filter: string | undefined }>;

export type BillingReadV2 = keyof typeof BILLING_HISTORIES_V2;
export const BILLING_READS_V2 = Object.keys(BILLING_HISTORIES_V2) as BillingReadV2[];

/** v1's billing arguments, which a v2 history has no equivalent for: said as such rather than as unknown. */
const V1_ONLY = new Set(["grouping", "gpuTypeId", "dataCenterId", "imageName", "templateId", "endpointId"]);

const window = {
  startTime: billingTime("startTime").optional(),
  endTime: billingTime("endTime").optional(),
  bucketSize: enumOf("bucketSize", BILLING_BUCKET_SIZES).optional(),
  lastN: z
    .unknown()
    .optional()
    .superRefine((value, ctx) => {
      if (value !== undefined && !(typeof value === "number" && Number.isInteger(value) && value >= 1))
        ctx.addIssue({ code: "custom", message: `lastN must be a whole number of buckets, at least 1 (got ${JSON.stringify(value)})` });
    })
    .transform((value) => value as number | undefined),
};

/** The query string of one history's request, from the read's arguments; a BillingQueryError naming every mistake. */
export function billingQueryV2(read: BillingReadV2, args: unknown): Record<string, string | number | undefined> {
  const { filter } = BILLING_HISTORIES_V2[read];
  const allowed = [...Object.keys(window), ...(filter ? [filter] : [])];
  const shape = filter
    ? {
        ...window,
        [filter]: z
          .string({ error: idError(filter) })
          .min(1, { error: idError(filter) })
          .optional(),
      }
    : window;
  const schema = z
    .object(shape)
    .strict()
    .superRefine((q, ctx) => {
      if (q.lastN !== undefined && (q.startTime !== undefined || q.endTime !== undefined))
        ctx.addIssue({
          code: "custom",
          message: `lastN (${q.lastN}) counts back from now and cannot be combined with startTime or endTime: give lastN alone, or startTime/endTime`,
        });
      if (q.startTime && q.endTime && q.startTime.getTime() >= q.endTime.getTime())
        ctx.addIssue({
          code: "custom",
          message: `endTime (${q.endTime.toISOString()}) must be after startTime (${q.startTime.toISOString()})`,
        });
    });
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === "unrecognized_keys") return issue.keys.map((key) => unknownArgument(read, key, allowed)).join("; ");
      if (issue.code === "invalid_type" && issue.path.length === 0) return `the arguments must be an object (got ${JSON.stringify(args)})`;
      return issue.message;
    });
    throw new BillingQueryError(`invalid ${read} arguments: ${problems.join("; ")}`);
  }
  const q = parsed.data as { startTime?: Date; endTime?: Date; bucketSize?: string; lastN?: number } & Record<string, unknown>;
  return {
    startTime: q.startTime?.toISOString(),
    endTime: q.endTime?.toISOString(),
    bucketSize: q.bucketSize,
    lastN: q.lastN,
    ...(filter ? { [filter]: q[filter] as string | undefined } : {}),
  };
}

function idError(filter: string) {
  return (issue: { input?: unknown }) =>
    `${filter} must be a non-empty id string (got ${JSON.stringify(issue.input)}); omit it for every record`;
}

function unknownArgument(read: BillingReadV2, key: string, allowed: readonly string[]): string {
  const why = V1_ONLY.has(key)
    ? `${key} is not a filter of the v2 billing histories (they filter by one resource id only)`
    : `${key} is not an argument of ${read}`;
  return `${why}; remove it (${read} takes ${allowed.join(", ")})`;
}
