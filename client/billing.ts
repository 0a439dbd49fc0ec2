/**
 * The billing lookup's arguments, one discriminated union over the three histories, validated
 * before any request: a bad bucket, grouping, filter or time range fails with the argument, the
 * value given and the fix. Filters that a history does not support are refused rather than ignored.
 */
import { z } from "zod";
import { billingTime, enumOf } from "./billingWindow";
import { BILLING_BUCKET_SIZES, ENDPOINT_BILLING_GROUPINGS, POD_BILLING_GROUPINGS } from "./enums";

const common = {
  /** Start of the range (inclusive); default: the service's (the last 30 days). */
  startTime: billingTime("startTime").optional(),
  /** End of the range (exclusive); default: now. */
  endTime: billingTime("endTime").optional(),
  bucketSize: enumOf("bucketSize", BILLING_BUCKET_SIZES).optional(),
};

const podQuery = z
  .object({
    kind: z.literal("pods"),
    ...common,
    grouping: enumOf("grouping (pods)", POD_BILLING_GROUPINGS).optional(),
    podId: z.string().min(1).optional(),
    gpuTypeId: z.string().min(1).optional(),
  })
  .strict();

const endpointQuery = z
  .object({
    kind: z.literal("endpoints"),
    ...common,
    grouping: enumOf("grouping (endpoints)", ENDPOINT_BILLING_GROUPINGS).optional(),
    endpointId: z.string().min(1).optional(),
    gpuTypeId: z.array(z.string().min(1)).optional(),
    dataCenterId: z.array(z.string().min(1)).optional(),
    imageName: z.string().min(1).optional(),
    templateId: z.string().min(1).optional(),
  })
  .strict();

const networkVolumeQuery = z.object({ kind: z.literal("networkvolumes"), ...common }).strict();

export const billingQuerySchema = z
  .discriminatedUnion("kind", [podQuery, endpointQuery, networkVolumeQuery], {
    error: (i) =>
      `kind must be one of pods, endpoints, networkvolumes (got ${JSON.stringify((i.input as { kind?: unknown } | undefined)?.kind)})`,
  })
  .superRefine((q, ctx) => {
    if (q.startTime && q.endTime && q.startTime.getTime() >= q.endTime.getTime()) {
      ctx.addIssue({
        code: "custom",
        path: ["endTime"],
        message: `endTime (${q.endTime.toISOString()}) must be after startTime (${q.startTime.toISOString()})`,
      });
    }
  });

export type BillingQuery = z.output<typeof billingQuerySchema>;

import { BillingQueryError } from "./billingQueryError";

export { BillingQueryError } from "./billingQueryError";

export function parseBillingQuery(args: unknown): BillingQuery {
  const parsed = billingQuerySchema.safeParse(args);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      const kind = (args as { kind?: unknown } | undefined)?.kind;
      return `${issue.keys.join(", ")} ${issue.keys.length > 1 ? "are" : "is"} not a filter of the ${String(kind)} billing history`;
    }
    const path = issue.path.join(".");
    return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message;
  });
  throw new BillingQueryError(`invalid billing lookup: ${problems.join("; ")}`);
}

/** Filters of the v1 histories that the v2 API's billing has no equivalent for. */
const V1_ONLY_FILTERS = ["grouping", "gpuTypeId", "dataCenterId", "imageName", "templateId"] as const;

/**
 * A billing lookup as the v2 API takes it: which history (`serverless` is the endpoints' history;
 * v2's `/billing/endpoints` is a different one) and the query. v2 filters by one resource id only:
 * the other v1 filters are refused, naming the argument, the value and the fix.
 */
export function v2BillingRequest(query: BillingQuery): {
  history: "pods" | "serverless" | "network-volumes";
  query: Record<string, string | undefined>;
} {
  const given = V1_ONLY_FILTERS.filter((f) => (query as Record<string, unknown>)[f] !== undefined);
  if (given.length > 0) {
    const shown = given.map((f) => `${f} ${JSON.stringify((query as Record<string, unknown>)[f])}`).join(", ");
    throw new BillingQueryError(
      `invalid billing lookup: ${shown}: the service's v2 API has no such filter or grouping (it filters by one ${query.kind === "pods" ? "podId" : query.kind === "endpoints" ? "endpointId" : "volume"} only); remove it, or use the v1 API URL`,
    );
  }
  const window = { startTime: query.startTime?.toISOString(), endTime: query.endTime?.toISOString(), bucketSize: query.bucketSize };
  if (query.kind === "pods") return { history: "pods", query: { ...window, podId: query.podId } };
  if (query.kind === "endpoints") return { history: "serverless", query: { ...window, serverlessId: query.endpointId } };
  return { history: "network-volumes", query: window };
}
