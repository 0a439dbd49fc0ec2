/** /v1/billing/pods, /billing/endpoints, /billing/networkvolumes: the three /v1 reports (billing/reports.ts). */
import { endpointBilling, networkVolumeBilling, podBilling, windowOf } from "../../billing/reports";
import { type Operation, defineOperation } from "../../http/router";
import { EndpointBillingQuery, NetworkVolumeBillingQuery, PodBillingQuery } from "../../vocabulary/schemas/billing";
import type { ManagementContext } from "../context";
import { workerUsageOf } from "../workerUsage";

export function billingOperations(ctx: ManagementContext): Operation[] {
  const ledger = (accountId: string) => ctx.store.account(accountId).ledger;
  return [
    defineOperation({
      method: "GET",
      path: "/billing/pods",
      operationId: "PodBilling",
      tag: "billing",
      summary: "Pod billing history (RUNNING time x costPerHr)",
      query: PodBillingQuery,
      response: { status: 200, description: "One record per bucket and group with usage.", schemaName: "BillingRecord", array: true },
      errors: [400],
      handle({ accountId, query }) {
        const window = windowOf(query, ctx.clock.now());
        return {
          status: 200,
          body: podBilling(ledger(accountId), { ...window, grouping: query.grouping, podId: query.podId, gpuTypeId: query.gpuTypeId }),
        };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/billing/endpoints",
      operationId: "EndpointBilling",
      tag: "billing",
      summary: "Serverless billing history (worker up time x price)",
      query: EndpointBillingQuery,
      response: { status: 200, description: "One record per bucket and group with usage.", schemaName: "BillingRecord", array: true },
      errors: [400],
      handle({ accountId, query }) {
        const window = windowOf(query, ctx.clock.now());
        return {
          status: 200,
          body: endpointBilling(workerUsageOf(ctx, accountId), {
            ...window,
            grouping: query.grouping,
            endpointId: query.endpointId,
            gpuTypeIds: query.gpuTypeId,
            dataCenterIds: query.dataCenterId,
            imageName: query.imageName,
            templateId: query.templateId,
          }),
        };
      },
    }),
    defineOperation({
      method: "GET",
      path: "/billing/networkvolumes",
      operationId: "NetworkVolumeBilling",
      tag: "billing",
      summary: "Network volume billing history (GB held x time)",
      query: NetworkVolumeBillingQuery,
      response: { status: 200, description: "One record per bucket with usage.", schemaName: "NetworkVolumeBillingRecord", array: true },
      errors: [400],
      handle({ accountId, query }) {
        return { status: 200, body: networkVolumeBilling(ledger(accountId), windowOf(query, ctx.clock.now())) };
      },
    }),
  ];
}
