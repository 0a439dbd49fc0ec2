/**
 * A cluster's member pods: PodRecords of the account that carry `cluster` (their cluster, rank,
 * role and overlay address). Pod.cluster: "Member pods are managed through `/v2/clusters/{id}` —
 * they are excluded from `GET /v2/pods` by default [...] and cannot be modified or deleted via the
 * pod endpoints" (management-api-v2-schemas.txt); deletePod: "Pods that belong to a Cluster cannot
 * be terminated here — delete the cluster via `DELETE /v2/clusters/{id}`".
 */
import type { AccountData, ClusterRecord, PodRecord } from "../../state/model";
import type { ManagementContext } from "../context";
import { conflict, notFound } from "../errors";
import { podOf } from "../lookup";
import { terminatePod } from "../pods/actions";

export function clusterOf(account: AccountData, id: string): ClusterRecord {
  const cluster = account.clusters.get(id);
  if (!cluster) throw notFound("cluster");
  return cluster;
}

/** The members that exist, in rank order. */
export function membersOf(account: AccountData, cluster: ClusterRecord): PodRecord[] {
  return cluster.memberIds.flatMap((id) => account.pods.get(id) ?? []);
}

/**
 * The pod `id` names, for a change through the pod routes (/v1 and /api/v2): a cluster member is
 * refused with 409, a status updatePod, deletePod and podAction document (assumption: the
 * reference names no status for this refusal; 409 is "conflict with the current state").
 */
export function standalonePodOf(account: AccountData, id: string, change: string): PodRecord {
  const pod = podOf(account, id);
  if (pod.cluster) {
    const clusterId = pod.cluster.id;
    throw conflict(
      `pod ${pod.id} is a member of cluster ${clusterId} and cannot be ${change} through the pod endpoints; ` +
        `manage it through its cluster (PATCH to rename, DELETE to delete it with all its members: /api/v2/clusters/${clusterId})`,
    );
  }
  return pod;
}

/** deleteCluster: "Permanently deletes a cluster and terminates all of its member pods." */
export function deleteCluster(ctx: ManagementContext, account: AccountData, cluster: ClusterRecord): void {
  for (const member of membersOf(account, cluster)) terminatePod(ctx, account, member);
  account.clusters.delete(cluster.id);
}
