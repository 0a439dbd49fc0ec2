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
  const bucketSize =
    config.get<"hour" | "day" | "week" | "month">("bucketSize", { allowedValues: ["hour", "day", "week", "month"] }) ?? "day";
  const endTime = new Date();
  const range = { startTime: new Date(endTime.getTime() - days * DAY_MS).toISOString(), endTime: endTime.toISOString(), bucketSize };

  // Credentials and URLs come from the gpucloud:* stack config, as for the resources. The v1 API
  // groups on the service; v2 has no groupings (its records are per pod and per endpoint already),
  // so on v2 the pods are grouped by GPU type here, from each pod's own GPU type.
  const v2 = !(new pulumi.Config("gpucloud").get("apiUrl") ?? "").replace(/\/+$/, "").endsWith("/v1");
  const pods = v2
    ? gpucloud.getBillingOutput({ kind: "pods", ...range })
    : gpucloud.getBillingOutput({ kind: "pods", grouping: "gpuTypeId", ...range });
  const endpoints = v2
    ? gpucloud.getBillingOutput({ kind: "endpoints", ...range })
    : gpucloud.getBillingOutput({ kind: "endpoints", grouping: "endpointId", ...range });
  const volumes = gpucloud.getBillingOutput({ kind: "networkvolumes", ...range });
  const podRecords = v2 ? pods.apply((b) => withGpuTypes(b.records)) : pods.apply((b) => b.records);

  const round = (usd: number) => Math.round(usd * 100) / 100;
  return {
    range,
    podsUsd: pods.apply((b) => round(b.totalAmount)),
    serverlessUsd: endpoints.apply((b) => round(b.totalAmount)),
    networkVolumesUsd: volumes.apply((b) => round(b.totalAmount)),
    totalUsd: pulumi.all([pods, endpoints, volumes]).apply((all) => round(all.reduce((sum, b) => sum + b.totalAmount, 0))),
    // Per bucket and GPU type: amount (USD) and GPU hours.
    podsByGpuType: podRecords.apply((records) => byGpuType(records)),
    // Per bucket and endpoint: amount and worker hours.
    serverlessByEndpoint: endpoints.apply((b) =>
      b.records.map((r) => ({ time: r.time, endpointId: r.endpointId, usd: r.amount, workerHours: (r.timeBilledMs ?? 0) / 3_600_000 })),
    ),
    networkVolumesByBucket: volumes.apply((b) => b.records.map((r) => ({ time: r.time, usd: r.amount, gb: r.diskSpaceBilledGb }))),
  };
}

type PodRecord = gpucloud.BillingRecord;

/**
 * v2's pod records with each pod's GPU type (looked up once per pod); a pod deleted since, whose
 * type the service no longer reports, counts as "unknown (pod deleted)".
 */
async function withGpuTypes(records: readonly PodRecord[]): Promise<PodRecord[]> {
  const ids = [...new Set(records.map((r) => r.podId).filter((id): id is string => typeof id === "string"))];
  const types = new Map<string, string>();
  for (const id of ids) {
    try {
      const pod = await gpucloud.getPod({ id });
      types.set(id, pod.gpuTypeId ?? pod.gpuTypeIds?.[0] ?? "CPU");
    } catch (error) {
      if (!(error instanceof gpucloud.LookupNotFoundError)) throw error;
      types.set(id, "unknown (pod deleted)");
    }
  }
  return records.map((r) => ({ ...r, gpuTypeId: (r.podId !== undefined ? types.get(r.podId) : undefined) ?? "unknown" }));
}

/** One row per bucket and GPU type: amount (USD) and GPU hours (v1 reports them; v2 does not, so 0). */
function byGpuType(records: readonly PodRecord[]): Array<{ time: string; gpuTypeId: string; usd: number; hours: number }> {
  const rows = new Map<string, { time: string; gpuTypeId: string; usd: number; hours: number }>();
  for (const r of records) {
    const gpuTypeId = r.gpuTypeId ?? "unknown";
    const time = r.time ?? "";
    const key = `${time} ${gpuTypeId}`;
    const row = rows.get(key) ?? { time, gpuTypeId, usd: 0, hours: 0 };
    row.usd += r.amount ?? 0;
    row.hours += (r.timeBilledMs ?? 0) / 3_600_000;
    rows.set(key, row);
  }
  return [...rows.values()];
}
