// Deploy safety: a stack that deploys an endpoint also checks it. Every queue or load-balancing
// endpoint of the stack is the subject of a JobRunner (its smoke test depends on the endpoint) or is
// the serving endpoint of an EndpointRollout (its child), or is named as an exception.

import { z } from "zod";
import type { StackValidationPolicy } from "@pulumi/policy";
import { gpuStackPolicy, type StackResource, type StackViolation } from "./define";
import { gpuResourceOf, labelOf, ROLLOUT_STEP_TOKENS, SMOKE_TEST_TOKEN, stringOf } from "./resources";

/** Config of {@link deploySafetyPolicy} (`gpucloud-deploy-safety`). */
export interface DeploySafetyPolicyConfig {
  /** Endpoints (by their resource name in the program) that need no smoke test, e.g. a scratch endpoint. Default none. */
  exemptEndpoints?: string[];
}

const deploySafetyConfig: z.ZodType<Required<DeploySafetyPolicyConfig>> & z.ZodObject = z.object({
  exemptEndpoints: z.array(z.string()).default([]).describe("Endpoint resource names that need no smoke test. Default none."),
});

/** The EndpointRollout component's type token (its serving endpoint is its child). */
const ENDPOINT_ROLLOUT_TOKEN = "gpucloud:index:EndpointRollout";

/** Whether a check (a smoke test, a rollout step) is about this endpoint: it depends on it, or names its id. */
function checks(check: StackResource, endpoint: StackResource): boolean {
  if (check.dependencies.includes(endpoint.urn)) return true;
  if (Object.values(check.propertyDependencies).some((urns) => urns.includes(endpoint.urn))) return true;
  const id = stringOf(endpoint.props["id"]) ?? stringOf(endpoint.props["endpointId"]);
  return id !== undefined && stringOf(check.props["endpointId"]) === id;
}

/** Each endpoint smoke-tested by a JobRunner or rolled out by an EndpointRollout (a stack policy). */
export const deploySafetyPolicy: StackValidationPolicy = gpuStackPolicy({
  name: "gpucloud-deploy-safety",
  description: "Every queue or load-balancing endpoint of the stack is tested by a JobRunner or rolled out by an EndpointRollout.",
  enforcementLevel: "advisory",
  config: deploySafetyConfig,
  check: (resources, config) => {
    const smokeTests = resources.filter((r) => r.type === SMOKE_TEST_TOKEN);
    const rolloutSteps = resources.filter((r) => ROLLOUT_STEP_TOKENS.includes(r.type));
    const out: StackViolation[] = [];
    for (const r of resources) {
      const endpoint = gpuResourceOf(r);
      if (endpoint?.kind !== "endpoint" || config.exemptEndpoints.includes(r.name)) continue;
      if (r.parentType === ENDPOINT_ROLLOUT_TOKEN || rolloutSteps.some((s) => checks(s, r))) continue;
      if (smokeTests.some((t) => checks(t, r))) continue;
      out.push({
        urn: r.urn,
        message: `${labelOf(endpoint)}: type ${JSON.stringify(stringOf(r.props["type"]) ?? "QUEUE")} is deployed with no smoke test: no JobRunner tests it and no EndpointRollout rolls it out; add new gpucloud.JobRunner("...", { endpoint, cases: [...] }), or deploy it through gpucloud.EndpointRollout, or add "${r.name}" to exemptEndpoints in the policy config`,
      });
    }
    return out;
  },
});
