/** Billing queries: every documented parameter, enum and default. */
import { z } from "zod";
import { DATA_CENTER_IDS, GPU_TYPE_IDS } from "../catalog";
import { queryDateTime, queryEnum, queryEnumWithDefault, queryList, queryString } from "./common";

/** The sizes a billing report can group time by (both API versions accept the same five). */
export const BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

const window = {
  bucketSize: queryEnumWithDefault(BUCKET_SIZES, "day"),
  endTime: queryDateTime(),
  startTime: queryDateTime(),
};

export const PodBillingQuery = z.object({
  ...window,
  gpuTypeId: queryEnum(GPU_TYPE_IDS),
  grouping: queryEnumWithDefault(["podId", "gpuTypeId"], "gpuTypeId"),
  podId: queryString(),
});
export type PodBillingQuery = z.infer<typeof PodBillingQuery>;

export const EndpointBillingQuery = z.object({
  ...window,
  dataCenterId: queryList(z.enum(DATA_CENTER_IDS)),
  endpointId: queryString(),
  gpuTypeId: queryList(z.enum(GPU_TYPE_IDS)),
  grouping: queryEnumWithDefault(["endpointId", "podId", "gpuTypeId"], "endpointId"),
  imageName: queryString(),
  templateId: queryString(),
});
export type EndpointBillingQuery = z.infer<typeof EndpointBillingQuery>;

export const NetworkVolumeBillingQuery = z.object(window);
export type NetworkVolumeBillingQuery = z.infer<typeof NetworkVolumeBillingQuery>;
