/** Deleting a serverless endpoint (v1 DELETE /endpoints/{id}, v2 deleteEndpoint). */
import type { AccountData, EndpointRecord } from "../../state/model";
import type { ManagementContext } from "../context";
import { conflict } from "../errors";
import { removeEndpoint } from "./records";
import type { EndpointRules } from "./rules";

/**
 * v1: "an endpoint with running workers may refuse deletion until workers are scaled to 0"
 * (NOTES.md section 1), so one that keeps workers (`workersMin > 0`) is a 409. v2: "DELETE terminates
 * workers itself" (NOTES.md section 6; deleteEndpoint: "all workers are terminated").
 */
export function deleteEndpoint(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord, rules: EndpointRules): void {
  if (rules === "v1" && endpoint.workersMin > 0) {
    throw conflict(
      `endpoint ${endpoint.id} still keeps workers running (workersMin is ${endpoint.workersMin}); ` +
        'scale workersMin to 0 first (PATCH {"workersMin": 0}), then delete it',
    );
  }
  removeEndpoint(ctx, account, endpoint);
}
