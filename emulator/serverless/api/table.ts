/**
 * The job API's route table, whole: the callers' operations (routes.ts), the worker pull protocol
 * (../external/workerRoutes.ts), load-balancing endpoints (../lb/lbRoutes.ts) and the description
 * of them all (openapi.ts); and the same operations as fault-injection routes (emulator/faults).
 */
import type { FaultRoute } from "../../faults";
import { workerOperations } from "../external/workerRoutes";
import { lbOperation } from "../lb/lbRoutes";
import { sendJobJson } from "./answers";
import { JOB_API_BASE_PATH, jobApiDocumentOperation } from "./openapi";
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

/**
 * The operations as fault-injection routes: paths from the root (`/v2/{endpoint_id}/run`), so a
 * selector tells them from /v1's; chosen only by name (their id or METHOD PATH), not by `*`; an
 * injected status answered as the job API answers errors; late and lost@D hold their answers as
 * on the management API, land and hidden do not apply.
 */
export function jobFaultRoutes(table: JobTable): FaultRoute[] {
  return jobApiOperations(table).map((op) => ({
    operationId: op.operationId,
    method: op.methods[0],
    otherMethods: op.methods.slice(1),
    path: `${JOB_API_BASE_PATH}${op.path}`,
    wildcard: false,
    // Its operations run as they are read and answer no created resource: no land, no hidden.
    deferrable: false,
    sendError: (res, status, message, headers) => sendJobJson(res, status, { error: message }, headers),
  }));
}
