/**
 * The job API's route table, whole: the callers' operations (routes.ts), the worker pull protocol
 * (../external/workerRoutes.ts), load-balancing endpoints (../lb/lbRoutes.ts) and the description
 * of them all (openapi.ts).
 */
import { workerOperations } from "../external/workerRoutes";
import { lbOperation } from "../lb/lbRoutes";
import { jobApiDocumentOperation } from "./openapi";
import type { JobOperation } from "./operation";
import type { JobTable } from "./router";
import { type CallerContext, callerOperations } from "./routes";

export function jobApiTable(ctx: CallerContext): JobTable {
  const table: JobTable = {
    public: [jobApiDocumentOperation(() => jobApiOperations(table))],
    queue: [...callerOperations(ctx), ...workerOperations],
    lb: lbOperation,
  };
  return table;
}

/** Every operation of the table, in the order the description lists them. */
export function jobApiOperations(table: JobTable): JobOperation<unknown>[] {
  return [...table.public, ...table.queue, table.lb];
}
