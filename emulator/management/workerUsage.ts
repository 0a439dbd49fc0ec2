/**
 * An account's serverless worker usage as the billing reports read it: the closed intervals the job
 * side records when a worker stops, and the workers still up, counted to now. The service bills by
 * the second, so a bill read while an endpoint keeps an always-on worker includes the time so far.
 */
import type { ManagementContext } from "./context";
import type { WorkerUsageInterval } from "../state/model";

export function* workerUsageOf(
  ctx: Pick<ManagementContext, "store" | "clock" | "serverless">,
  accountId: string,
): Iterable<WorkerUsageInterval> {
  const account = ctx.store.account(accountId);
  yield* account.ledger.workers;
  const nowMs = ctx.clock.now();
  for (const endpoint of account.endpoints.values()) {
    for (const worker of ctx.serverless.workers(endpoint.id)) {
      // A stopped (or crashed) worker shows as unhealthy for a moment: its usage is in the ledger already.
      if (worker.status === "unhealthy") continue;
      yield {
        endpointId: endpoint.id,
        workerId: worker.id,
        templateId: endpoint.templateId,
        imageName: account.templates.get(endpoint.templateId)?.imageName ?? "",
        gpuTypeId: worker.gpuTypeId,
        dataCenterId: worker.dataCenterId,
        costPerHr: worker.costPerHr,
        startMs: worker.createdAtMs,
        endMs: Math.max(worker.createdAtMs, nowMs),
      };
    }
  }
}
