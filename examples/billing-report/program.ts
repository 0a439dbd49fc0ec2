/**
 * A billing report as stack outputs: what pods, serverless endpoints and network volumes cost over
 * the last few days, per day, from the service's three billing histories. No resources: `pulumi up`
 * (or `pulumi preview`) reads the figures; `pulumi stack output` prints them.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

const DAY_MS = 86_400_000;

export function program() {
  const config = new pulumi.Config();
  const days = config.getNumber("days", { min: 1, max: 365 }) ?? 7;
  const bucketSize = config.get<"hour" | "day" | "week" | "month">("bucketSize", { allowedValues: ["hour", "day", "week", "month"] }) ?? "day";
  const endTime = new Date();
  const range = { startTime: new Date(endTime.getTime() - days * DAY_MS).toISOString(), endTime: endTime.toISOString(), bucketSize };

  // Credentials and URLs come from the gpucloud:* stack config, as for the resources.
  const pods = gpucloud.getBillingOutput({ kind: "pods", grouping: "gpuTypeId", ...range });
  const endpoints = gpucloud.getBillingOutput({ kind: "endpoints", grouping: "endpointId", ...range });
  const volumes = gpucloud.getBillingOutput({ kind: "networkvolumes", ...range });

  const round = (usd: number) => Math.round(usd * 100) / 100;
  return {
    range,
    podsUsd: pods.apply((b) => round(b.totalAmount)),
    serverlessUsd: endpoints.apply((b) => round(b.totalAmount)),
    networkVolumesUsd: volumes.apply((b) => round(b.totalAmount)),
    totalUsd: pulumi.all([pods, endpoints, volumes]).apply((all) => round(all.reduce((sum, b) => sum + b.totalAmount, 0))),
    // Per bucket and GPU type: amount (USD) and GPU hours.
    podsByGpuType: pods.apply((b) =>
      b.records.map((r) => ({ time: r.time, gpuTypeId: r.gpuTypeId, usd: r.amount, hours: (r.timeBilledMs ?? 0) / 3_600_000 })),
    ),
    // Per bucket and endpoint: amount and worker hours.
    serverlessByEndpoint: endpoints.apply((b) =>
      b.records.map((r) => ({ time: r.time, endpointId: r.endpointId, usd: r.amount, workerHours: (r.timeBilledMs ?? 0) / 3_600_000 })),
    ),
    networkVolumesByBucket: volumes.apply((b) => b.records.map((r) => ({ time: r.time, usd: r.amount, gb: r.diskSpaceBilledGb }))),
  };
}
