/**
 * /api/v2/clusters and /api/v2/billing/clusters: the cluster commands (management/clusters/) read
 * from v2 requests and answered in v2 shapes. Lists are bare ("`GET /v2/clusters`: **no**
 * [pagination] in SPEC-0922"; "`GET /v2/clusters/{id}/pods`: no, by design (bare list)",
 * management-api-v2-today.md 1.3).
 */
import { clusterReport } from "../../billing/clusterReport";
import type { Operation } from "../../http/router";
import { ClusterBillingQuery, CreateClusterRequest, UpdateClusterRequest } from "../../vocabulary/schemas/v2/clusters";
import { createCluster } from "../clusters/create";
import { clusterOf, deleteCluster, membersOf } from "../clusters/membership";
import type { V2Context } from "./operation";
import { v2ClusterView } from "./clusterView";
import { v2PodView } from "./podView";

export function v2ClusterOperations({ ctx, route }: V2Context): Operation[] {
  return [
    route(
      ["GET /clusters", "listClusters", "clusters:read", "List clusters"],
      { answer: [200, "ListClustersResponse"], errors: [] },
      ({ account }) => {
        // Newest first, as the paginated lists (assumption: the reference states no order for this one).
        const clusters = [...ctx.visibility.listed(account.clusters.values())].sort(
          (a, b) => b.createdAtMs - a.createdAtMs || (b.id > a.id ? 1 : -1),
        );
        return { status: 200, body: { clusters: clusters.map((cluster) => v2ClusterView(ctx, account, cluster)) } };
      },
    ),
    route(
      ["POST /clusters", "createCluster", "clusters:write", "Create a cluster"],
      // 402: the spend cap, as on a pod create (emulator README, account limits).
      { body: ["CreateClusterRequest", CreateClusterRequest], answer: [201, "Cluster"], errors: [400, 402, 422] },
      ({ account, body }) => ({ status: 201, body: v2ClusterView(ctx, account, createCluster(ctx, account, body)) }),
    ),
    route(
      ["GET /clusters/{id}", "getCluster", "clusters:read", "Get a cluster"],
      { answer: [200, "Cluster"], errors: [404] },
      ({ account, id }) => ({
        status: 200,
        body: v2ClusterView(ctx, account, clusterOf(account, id)),
      }),
    ),
    route(
      ["PATCH /clusters/{id}", "updateCluster", "clusters:write", "Rename a cluster"],
      { body: ["UpdateClusterRequest", UpdateClusterRequest], answer: [200, "Cluster"], errors: [400, 404, 422] },
      ({ account, id, body }) => {
        const cluster = clusterOf(account, id);
        if (body.name !== undefined) cluster.name = body.name;
        return { status: 200, body: v2ClusterView(ctx, account, cluster) };
      },
    ),
    route(
      ["DELETE /clusters/{id}", "deleteCluster", "clusters:write", "Delete a cluster"],
      { answer: [204, undefined, "Deleted"], errors: [404] },
      ({ account, id }) => {
        deleteCluster(ctx, account, clusterOf(account, id));
        return { status: 204 };
      },
    ),
    route(
      ["GET /clusters/{id}/pods", "listClusterPods", "clusters:read", "List a cluster's pods"],
      { answer: [200, "PodList"], errors: [404] },
      ({ account, id }) => ({ status: 200, body: { pods: membersOf(account, clusterOf(account, id)).map((pod) => v2PodView(ctx, pod)) } }),
    ),
    route(
      ["GET /billing/clusters", "listClusterBilling", "billing:read", "Get cluster billing history"],
      { query: ClusterBillingQuery, answer: [200, "ListClusterBillingResponse"], errors: [400] },
      ({ account, query }) => ({ status: 200, body: clusterReport(account, query, ctx.clock.now()) }),
    ),
  ];
}
