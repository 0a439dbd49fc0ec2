/** GET /billing/pods, /billing/endpoints, /billing/networkvolumes. */
import type { Clock } from "../clock";
import { badRequest } from "../http/errors";
import { type Operation, defineOperation } from "../http/router";
import type { ManagementStore, WorkerUsageInterval } from "../state/model";
import { EndpointBillingQuery, NetworkVolumeBillingQuery, PodBillingQuery } from "../vocabulary/schemas/billing";
import { isoSeconds } from "./buckets";
import { type BillingWindow, endpointBilling, networkVolumeBilling, podBilling } from "./reports";

/** What the reports read: the accounts' ledgers, their workers' usage so far, and service time. */
export interface BillingContext {
  store: Pick<ManagementStore, "account">;
  clock: Clock;
  /** Every worker interval of the account, the ones of workers still up counted to now. */
  workerUsage(accountId: string): Iterable<WorkerUsageInterval>;
}

/** Default window when startTime is not given: the 30 days before endTime. */
const DEFAULT_WINDOW_MS = 30 * 86_400_000;

function billingWindow(ctx: BillingContext, query: NetworkVolumeBillingQuery): BillingWindow {
  const nowMs = ctx.clock.now();
  const endMs = query.endTime ?? nowMs;
  const startMs = query.startTime ?? endMs - DEFAULT_WINDOW_MS;
  if (startMs > endMs) {
    throw badRequest(`invalid query parameter startTime: startTime (${isoSeconds(startMs)}) is after endTime (${isoSeconds(endMs)})`);
  }
  return { startMs, endMs, bucketSize: query.bucketSize, nowMs };
}

export function billingOperations(ctx: BillingContext): Operation[] {
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
        const window = billingWindow(ctx, query);
        return { status: 200, body: podBilling(ledger(accountId), { ...window, grouping: query.grouping, podId: query.podId, gpuTypeId: query.gpuTypeId }) };
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
        const window = billingWindow(ctx, query);
        return {
          status: 200,
          body: endpointBilling(ctx.workerUsage(accountId), {
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
        return { status: 200, body: networkVolumeBilling(ledger(accountId), billingWindow(ctx, query)) };
      },
    }),
  ];
}
