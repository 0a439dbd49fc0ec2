/**
 * A cluster record in the v2 shape (Cluster): identity and shape, a summary of its members
 * ("total + count by status"; the pods themselves from GET /clusters/{id}/pods), its overlay network
 * and its primary node (rank 0), whose `sshEndpoint` "is omitted until that pod is RUNNING with SSH
 * exposed".
 */
import type { AccountData, ClusterRecord } from "../../state/model";
import type { Cluster } from "../../vocabulary/schemas/v2/clusters";
import { type ManagementContext, isoTime } from "../context";
import { membersOf } from "../clusters/membership";
import { podStatus } from "../pods/status";

export function v2ClusterView(ctx: ManagementContext, account: AccountData, cluster: ClusterRecord): Cluster {
  const members = membersOf(account, cluster);
  // ClusterPodsSummary.byStatus: "Statuses with no pods are omitted."
  const byStatus: Record<string, number> = {};
  for (const member of members) {
    const status = podStatus(ctx, member);
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  const view: Cluster = {
    id: cluster.id,
    name: cluster.name,
    type: cluster.type,
    compute: { gpuTypeId: cluster.gpuTypeId, gpuCountPerPod: cluster.gpuCountPerPod, podCount: cluster.podCount },
    ...(cluster.templateId === null ? {} : { template: cluster.templateId }),
    dataCenterId: cluster.dataCenterId,
    pods: { total: members.length, byStatus },
    network: { ...cluster.network },
    createdAt: isoTime(cluster.createdAtMs),
  };
  const primary = members.find((member) => member.cluster?.rank === 0);
  if (primary) {
    const status = podStatus(ctx, primary);
    const sshPort = primary.boot?.portMappings["22"];
    const publicIp = primary.boot?.publicIp;
    const ssh = status === "RUNNING" && primary.ports.includes("22/tcp") && publicIp && sshPort !== undefined;
    view.primary = { podId: primary.id, status, ...(ssh ? { sshEndpoint: `${publicIp}:${sshPort}` } : {}) };
  }
  return view;
}
