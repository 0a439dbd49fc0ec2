/**
 * The billing lookup over the service's three billing histories (pods, serverless endpoints,
 * network volumes). `getBilling` returns a Promise and works inside or outside a Pulumi program;
 * `getBillingOutput` takes Inputs and returns an Output, for use with resource outputs.
 *
 * Credentials: the `gpucloud:apiKey` / `gpucloud:apiUrl` stack config when called from a program,
 * else GPUCLOUD_API_KEY / GPUCLOUD_API_URL, unless given in `options`.
 */
import * as pulumi from "@pulumi/pulumi";
import { apiVersionOf } from "../client/config";
import { lookupConnection, type LookupOptions } from "./connection";
import type { BillingBucketSize, EndpointBillingGrouping, PodBillingGrouping } from "../client/enums";
import type { BillingRecord, NetworkVolumeBillingRecord } from "../client/billingRecords";
import type { BillingQuery } from "../client/billing";
import type { EndpointBillingQuery, PodBillingQuery } from "../client/inputs";

export type { BillingRecord, NetworkVolumeBillingRecord } from "../client/billingRecords";
export { BillingQueryError } from "../client/billingQueryError";

interface BillingRange {
  /** Start of the range, inclusive (ISO 8601 string or Date). Default: the service's default range. */
  startTime?: string | Date;
  /** End of the range, exclusive (ISO 8601 string or Date); must be after startTime. Default: now. */
  endTime?: string | Date;
  /** Width of each record's period: hour, day, week, month or year. Default "day". */
  bucketSize?: BillingBucketSize;
}

/** Pod billing: amount and time billed per bucket, grouped by pod or GPU type. */
export interface PodBillingArgs extends BillingRange {
  kind: "pods";
  /** Group records by "podId" or "gpuTypeId". Default "gpuTypeId". */
  grouping?: PodBillingGrouping;
  /** Only this pod. */
  podId?: string;
  /** Only this GPU type, e.g. "NVIDIA GeForce RTX 4090". */
  gpuTypeId?: string;
}

/** Serverless billing: worker time and amount per bucket. */
export interface EndpointBillingArgs extends BillingRange {
  kind: "endpoints";
  /** Group records by "endpointId", "podId" (worker) or "gpuTypeId". Default "endpointId". */
  grouping?: EndpointBillingGrouping;
  /** Only this endpoint. */
  endpointId?: string;
  /** Only workers of these GPU types. */
  gpuTypeId?: string[];
  /** Only workers in these data centers, e.g. ["EU-RO-1"]. */
  dataCenterId?: string[];
  /** Only workers running this image. */
  imageName?: string;
  /** Only endpoints on this template. */
  templateId?: string;
}

/** Network volume billing: storage billed per bucket. */
export interface NetworkVolumeBillingArgs extends BillingRange {
  kind: "networkvolumes";
}

export type GetBillingArgs = PodBillingArgs | EndpointBillingArgs | NetworkVolumeBillingArgs;
export type BillingKind = GetBillingArgs["kind"];

export interface GetBillingResult<K extends BillingKind = BillingKind> {
  /** Which history the records come from. */
  kind: K;
  /**
   * The service's records, oldest bucket first. Both APIs fill `time` (the bucket's start) and
   * `amount` (USD). v1 also fills `timeBilledMs`, `diskSpaceBilledGb` and the grouping's id
   * (`podId`, `endpointId` or `gpuTypeId`). v2 fills `podId` or `endpointId` (one record per
   * resource per bucket), `endTime`, and its cost components in USD: `gpuAmount`, `cpuAmount`,
   * `diskAmount` (and `feeAmount` for endpoints; `standardAmount` and `highPerformanceStorageAmount`
   * for network volumes).
   */
  records: K extends "networkvolumes" ? NetworkVolumeBillingRecord[] : BillingRecord[];
  /** Sum of the records' `amount`, in USD. */
  totalAmount: number;
}

/**
 * Where to look the billing up (see LookupOptions). On v2, the grouping and the GPU type, data
 * center, image and template filters do not exist: giving one is an error.
 */
export type BillingOptions = LookupOptions;

export async function getBilling<A extends GetBillingArgs>(args: A, options: BillingOptions = {}): Promise<GetBillingResult<A["kind"]>> {
  // The query's checks and the clients load on the first call: a program that never asks for its
  // billing never loads them.
  const { parseBillingQuery } = await import("../client/billing");
  const query = parseBillingQuery(args);
  const { apiKey, apiUrl } = lookupConnection(options);
  if (apiVersionOf(apiUrl) === "v2") return getBillingV2(query, apiUrl, apiKey) as Promise<GetBillingResult<A["kind"]>>;
  const { ManagementClient } = await import("../client/management");
  const client = new ManagementClient({ baseUrl: apiUrl, apiKey });
  try {
    const { kind: _kind, ...wire } = query;
    const records =
      query.kind === "pods"
        ? await client.podBilling(wire as PodBillingQuery)
        : query.kind === "endpoints"
          ? await client.endpointBilling(wire as EndpointBillingQuery)
          : await client.networkVolumeBilling(wire);
    const totalAmount = records.reduce((sum, r) => sum + (r.amount ?? 0), 0);
    return { kind: query.kind, records, totalAmount } as GetBillingResult<A["kind"]>;
  } finally {
    await client.close();
  }
}

/** The lookup on the v2 API, its records given v1's `time` and `amount` beside v2's own fields. */
async function getBillingV2(query: BillingQuery, apiUrl: string, apiKey: string): Promise<GetBillingResult> {
  const { v2BillingRequest } = await import("../client/billing");
  const request = v2BillingRequest(query);
  const { ManagementClientV2 } = await import("../client/managementV2");
  const client = new ManagementClientV2({ baseUrl: apiUrl, apiKey });
  try {
    const answer =
      request.history === "pods"
        ? await client.podBilling(request.query)
        : request.history === "serverless"
          ? await client.serverlessBilling(request.query)
          : await client.networkVolumeBilling(request.query);
    const records = answer.records.map((r: Record<string, unknown>) => {
      const { startTime, totalAmount, serverlessId, highPerformanceAmount, ...rest } = r;
      return {
        ...rest,
        time: startTime as string,
        amount: totalAmount as number,
        ...(serverlessId !== undefined ? { endpointId: serverlessId as string } : {}),
        ...(highPerformanceAmount !== undefined ? { highPerformanceStorageAmount: highPerformanceAmount as number } : {}),
      };
    });
    const totalAmount = records.reduce((sum, r) => sum + (r.amount ?? 0), 0);
    return { kind: query.kind, records, totalAmount };
  } finally {
    await client.close();
  }
}

/** Billing arguments whose fields may each be an Input (e.g. `podId: pod.id`). */
export type GetBillingInputs<A extends GetBillingArgs = GetBillingArgs> = A extends unknown
  ? { [K in keyof A]: K extends "kind" ? A[K] : pulumi.Input<A[K]> }
  : never;

export function getBillingOutput<A extends GetBillingArgs>(
  args: GetBillingInputs<A> | pulumi.Input<A>,
  options: BillingOptions = {},
): pulumi.Output<GetBillingResult<A["kind"]>> {
  return pulumi.output(args).apply((resolved) => getBilling(resolved as unknown as A, options));
}
