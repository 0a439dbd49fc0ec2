/**
 * Management v2 clusters, requests and answers (management-api-v2-schemas.txt: ClusterType,
 * ClusterCompute, PodCluster, ClusterNetwork, ClusterPrimary, ClusterPodsSummary, Cluster,
 * CreateClusterRequest, UpdateClusterRequest, ListClustersResponse, the cluster billing schemas;
 * management-api-v2-today.md 5.1 and 5.4 for `cmd`, `entrypoint` and `templateId`). Kept apart from
 * requests.ts and wire.ts, which it builds on; /api/v2/openapi.json takes CLUSTER_RESPONSE_SCHEMAS.
 */
import { z } from "zod";
import { BillingBucketSize, BillingQuery, CreatePodRequest, PodBillingQuery, PodStatus } from "./requests";
import { Pod } from "./wire";

export const ClusterType = z.enum(["APPLICATION", "TRAINING", "SLURM", "RAY"]);
export type ClusterType = z.infer<typeof ClusterType>;

/** "Every pod in the cluster is identical: `podCount` pods, each with `gpuCountPerPod` GPUs of type `gpuTypeId`." */
export const CLUSTER_POD_COUNT = { min: 2, max: 250 } as const;
export const ClusterCompute = z.strictObject({
  gpuTypeId: z.string().min(1),
  gpuCountPerPod: z.int().min(1),
  podCount: z.int().min(CLUSTER_POD_COUNT.min).max(CLUSTER_POD_COUNT.max),
});

/**
 * CreateClusterRequest: BaseContainerConfig (no `registry`: "a bare `registry` on the cluster body is
 * rejected", today 5.4, so it is an unknown key, 422), the command arrays of today 5.1, and the
 * pod create's own fields the cluster body shares (dataCenterIds, mounts, startJupyter, startSsh,
 * templateId), with the pod create's validation.
 */
export const CreateClusterRequest = CreatePodRequest.pick({
  image: true,
  args: true,
  disk: true,
  env: true,
  ports: true,
  cmd: true,
  entrypoint: true,
  dataCenterIds: true,
  mounts: true,
  startJupyter: true,
  startSsh: true,
  templateId: true,
}).extend({ name: z.string().min(1), type: ClusterType, compute: ClusterCompute });
export type CreateClusterRequest = z.infer<typeof CreateClusterRequest>;

/** "Only the cluster name can be changed — this endpoint is a rename"; "requires at least one property" (today 5.4). */
export const UpdateClusterRequest = z
  .strictObject({ name: z.string().min(1).optional() })
  .refine((body) => body.name !== undefined, "send name (a PATCH renames; compute, type and container settings are fixed at creation)");
export type UpdateClusterRequest = z.infer<typeof UpdateClusterRequest>;

/** The cluster filter of GET /billing/clusters: a query text parameter like podId's. */
export const ClusterBillingQuery = BillingQuery.extend({ clusterId: PodBillingQuery.shape.podId });
export type ClusterBillingQuery = z.infer<typeof ClusterBillingQuery>;

// ---- answers ----

const dateTime = z.string().meta({ format: "date-time" });

export const Cluster = z.object({
  id: z.string(),
  name: z.string(),
  type: ClusterType,
  compute: z.object({ gpuTypeId: z.string(), gpuCountPerPod: z.int(), podCount: z.int() }),
  template: z.string().optional(),
  dataCenterId: z.string().optional(),
  pods: z.object({ total: z.int(), byStatus: z.record(z.string(), z.int()) }),
  network: z.object({ cidr: z.string(), vxlanId: z.int().optional(), vxlanPort: z.int().optional() }).optional(),
  primary: z.object({ podId: z.string(), status: PodStatus, sshEndpoint: z.string().optional() }).optional(),
  createdAt: dateTime,
});
export type Cluster = z.infer<typeof Cluster>;

export const ListClustersResponse = z.object({ clusters: z.array(Cluster) });
/** A cluster's member pods: the pod list's shape without `pagination` ("a bare list", today 1.2, 1.3). */
export const PodList = z.object({ pods: z.array(Pod) });

const clusterAmounts = { totalAmount: z.number(), gpuAmount: z.number(), diskAmount: z.number(), networkingAmount: z.number() };
export const ClusterBillingRecord = z.object({
  startTime: dateTime,
  endTime: dateTime,
  clusterId: z.string(),
  ...clusterAmounts,
});
export const ListClusterBillingResponse = z.object({
  records: z.array(ClusterBillingRecord),
  metadata: z.object({
    query: z.object({
      startTime: dateTime,
      endTime: dateTime,
      bucketSize: BillingBucketSize,
      clusterId: z.string().nullable().optional(),
    }),
    recordCount: z.int(),
    uniqueClusterCount: z.int(),
    totals: z.object(clusterAmounts),
  }),
});

/** The answers above by the reference's names (components.schemas of /api/v2/openapi.json). */
export const CLUSTER_RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  Cluster,
  ListClustersResponse,
  PodList,
  ListClusterBillingResponse,
};
