// The Endpoint's specifics: found again by name and template; the service ignores flashboot: false
// on create (NOTES section 1), so it is set right after; an update is a rolling release; ready once
// workersMin workers are up; deleted after scaling to 0.

import { ApiError, isNotFound } from "../../client/errors";
import type { EndpointTypeInput } from "../../client/management";
import type { Endpoint, EndpointCreateInput } from "../../client/schemas";

import type { EndpointArgs } from "../../model/kinds/endpoint/endpointFields";
import { endpointReader } from "../../model/kinds/endpoint/endpointReader";
import { waitForEndpoint, waitForNoWorkers } from "./endpointReadiness";
import { readyTimeoutOf } from "../../model/fields/fieldTable";
import { deleteIgnoringMissing, type ResourceSpec } from "./lifecycle";
import { estimateEndpoint } from "../../model/cost/estimate";
import { markerInEnv } from "./ownership";

export const endpointSpec: ResourceSpec<EndpointArgs, Endpoint, EndpointCreateInput & EndpointTypeInput> = {
  ...endpointReader,
  // v2 answers carry no templateId (it is a snapshot there): the name must do, or a create whose
  // answer was lost would never find the endpoint it made and would make a second one.
  matches: (e, args) => e.name === args.name && (e.templateId === undefined || e.templateId === args.templateId),
  create: (client, body) => client.endpoints.create(body),
  // On v2 an endpoint has an env of its own, which carries its owner's marker (ownership.ts).
  ownerMarker: (e) => markerInEnv(e.env),
  markedOn: ["v2"],
  estimate: estimateEndpoint,
  async afterCreate(op) {
    if (op.args.flashboot === false && op.live?.flashboot !== false) {
      op.live = await op.client.endpoints.update(op.id, { flashboot: false });
    }
  },
  updateBody: ({ body, changed }, args) => {
    // An EndpointRollout's switch moves the template once the new version passed its checks.
    if (args.templateAppliedBy === "rollout") {
      const { templateId: _appliedByTheRollout, ...rest } = body;
      return rest;
    }
    // A new template revision re-applies the template (v2 copies it only at create).
    return changed.has("templateRevision") && args.templateRevision && body["templateId"] === undefined
      ? { ...body, templateId: args.templateId }
      : body;
  },
  // The type is fixed; the client needs it only to keep it on a renamed endpoint.
  update: (client, id, body, args) => client.endpoints.update(id, { ...body, type: args.type ?? "QUEUE" }),
  updateNote: "a rolling release of the workers",
  // A new endpoint has one release, which every worker it starts runs: there is no rollout to
  // follow, and reading its releases on every poll would spend a call of the rate limit for nothing.
  // Without minimum workers it is ready as the create answered it.
  ready: (op) =>
    waitForEndpoint(op.deps, op.id, op.subject, op.args.workersMin ?? 0, readyTimeoutOf(op.args.readyTimeoutSeconds), {
      rollout: !op.created,
      known: op.live,
    }),
  adoptRemedy:
    "computeType can only be set when an endpoint is created: declare the live value to adopt it, or remove adoptId to create a new endpoint.",
  /**
   * Scale to 0 first (the v1 service may refuse to delete an endpoint with running workers; a v2
   * delete terminates them itself), then delete; if it still refuses, wait for the workers to go
   * and try once more.
   */
  async delete({ deps, client, id, subject }, props) {
    try {
      if (!client.endpoints.deleteTerminatesWorkers) await client.endpoints.update(id, { workersMin: 0, workersMax: 0 });
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    try {
      await deleteIgnoringMissing(() => client.endpoints.delete(id));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === undefined || error.status >= 500) throw error;
      deps.log.info(`${subject}: the service refused the delete (${error.message}); waiting for the workers to stop`);
      const timeout = typeof props["readyTimeoutSeconds"] === "number" ? props["readyTimeoutSeconds"] : readyTimeoutOf(undefined);
      try {
        await waitForNoWorkers(deps, id, subject, timeout);
      } catch (waitError) {
        if (isNotFound(waitError)) return;
        throw waitError;
      }
      await deleteIgnoringMissing(() => client.endpoints.delete(id));
    }
  },
};
