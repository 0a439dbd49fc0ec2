/** /api/v2/billing/pods, /serverless, /network-volumes: the per-resource reports (billing/resourceReports.ts). */
import { networkVolumeReport, podReport, serverlessReport } from "../../billing/resourceReports";
import type { Operation } from "../../http/router";
import { NetworkVolumeBillingQuery, PodBillingQuery, ServerlessBillingQuery } from "../../vocabulary/schemas/v2/requests";
import { workerUsageOf } from "../workerUsage";
import { type V2Context, v2Route } from "./operation";

export function v2BillingOperations(v: V2Context): Operation[] {
  const { ctx } = v;
  const account = (id: string) => ctx.store.account(id);
  return [
    v2Route("GET /billing/pods", "listPodBilling", "billing:read", "Get pod billing history",
      { query: PodBillingQuery, answer: [200, "ListPodBillingResponse"], errors: [400] },
      ({ accountId, query }) => ({ status: 200, body: podReport(account(accountId), query, ctx.clock.now()) })),
    v2Route("GET /billing/serverless", "listServerlessBilling", "billing:read", "Get serverless billing history",
      { query: ServerlessBillingQuery, answer: [200, "ListServerlessBillingResponse"], errors: [400] },
      ({ accountId, query }) => ({ status: 200, body: serverlessReport(workerUsageOf(ctx, accountId), query, ctx.clock.now()) })),
    v2Route("GET /billing/network-volumes", "listNetworkVolumeBilling", "billing:read", "Get network volume billing history",
      { query: NetworkVolumeBillingQuery, answer: [200, "ListNetworkVolumeBillingResponse"], errors: [400] },
      ({ accountId, query }) => ({ status: 200, body: networkVolumeReport(account(accountId), query, ctx.clock.now()) })),
  ];
}
