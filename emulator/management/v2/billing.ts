/**
 * /api/v2/billing (the account's aggregate) and /billing/endpoints (public endpoints):
 * billing/accountReports.ts; /billing/pods, /serverless, /network-volumes: the per-resource reports
 * (billing/resourceReports.ts).
 */
import { accountReport, publicEndpointReport } from "../../billing/accountReports";
import { networkVolumeReport, podReport, serverlessReport } from "../../billing/resourceReports";
import type { Operation } from "../../http/router";
import { BillingQuery, NetworkVolumeBillingQuery, PodBillingQuery, ServerlessBillingQuery } from "../../vocabulary/schemas/v2/requests";
import { workerUsageOf } from "../workerUsage";
import type { V2Context } from "./operation";

export function v2BillingOperations({ ctx, route }: V2Context): Operation[] {
  return [
    route(
      ["GET /billing", "listBilling", "billing:read", "Get aggregated billing history"],
      { query: BillingQuery, answer: [200, "ListBillingResponse"], errors: [400] },
      ({ account, accountId, query }) => ({
        status: 200,
        body: accountReport(account, workerUsageOf(ctx, accountId), query, ctx.clock.now()),
      }),
    ),
    route(
      ["GET /billing/pods", "listPodBilling", "billing:read", "Get pod billing history"],
      { query: PodBillingQuery, answer: [200, "ListPodBillingResponse"], errors: [400] },
      ({ account, query }) => ({ status: 200, body: podReport(account, query, ctx.clock.now()) }),
    ),
    route(
      ["GET /billing/serverless", "listServerlessBilling", "billing:read", "Get serverless billing history"],
      { query: ServerlessBillingQuery, answer: [200, "ListServerlessBillingResponse"], errors: [400] },
      ({ accountId, query }) => ({ status: 200, body: serverlessReport(workerUsageOf(ctx, accountId), query, ctx.clock.now()) }),
    ),
    route(
      ["GET /billing/network-volumes", "listNetworkVolumeBilling", "billing:read", "Get network volume billing history"],
      { query: NetworkVolumeBillingQuery, answer: [200, "ListNetworkVolumeBillingResponse"], errors: [400] },
      ({ account, query }) => ({ status: 200, body: networkVolumeReport(account, query, ctx.clock.now()) }),
    ),
    route(
      ["GET /billing/endpoints", "listEndpointBilling", "billing:read", "Get public endpoint billing history"],
      { query: BillingQuery, answer: [200, "ListEndpointBillingResponse"], errors: [400] },
      ({ query }) => ({ status: 200, body: publicEndpointReport(query, ctx.clock.now()) }),
    ),
  ];
}
