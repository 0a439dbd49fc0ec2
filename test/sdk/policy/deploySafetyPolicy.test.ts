import { describe, expect, it } from "vitest";
import { deploySafetyPolicy } from "../../../sdk/policy";
import { SMOKE_TEST_TOKEN, ROLLOUT_STEP_TOKENS } from "../../../sdk/policy/resources";
import { DECLARATIONS, runStackPolicy, typeOf } from "../../support/policyHarness";

describe.each(DECLARATIONS)("gpucloud-deploy-safety, endpoints declared as %s resources", (via) => {
  const endpoint = (name: string, props: Record<string, unknown> = {}, parent?: string) => ({
    type: typeOf("endpoint", via),
    name,
    props,
    ...(parent ? { parent } : {}),
  });

  it("passes an endpoint a JobRunner tests (by dependency or by id) and one an EndpointRollout rolls out", () => {
    const resources = [
      endpoint("tested"),
      { type: SMOKE_TEST_TOKEN, name: "smoke-run", props: {}, propertyDependencies: { endpointId: ["tested"] } },
      endpoint("by-id", { id: "ep-123" }),
      { type: SMOKE_TEST_TOKEN, name: "smoke-by-id", props: { endpointId: "ep-123" } },
      { type: "gpucloud:index:EndpointRollout", name: "rollout", props: {} },
      endpoint("serving", { type: "LOAD_BALANCER" }, "rollout"),
      endpoint("switched"),
      { type: ROLLOUT_STEP_TOKENS[1] as string, name: "switch", props: {}, propertyDependencies: { endpointId: ["switched"] } },
    ];
    expect(runStackPolicy(deploySafetyPolicy, resources)).toEqual([]);
  });

  it("reports an endpoint nothing tests, unless exempt", () => {
    const resources = [endpoint("lonely", { type: "LOAD_BALANCER" }), endpoint("other")];
    expect(runStackPolicy(deploySafetyPolicy, resources, { exemptEndpoints: ["other"] })).toEqual([
      'Endpoint "lonely": type "LOAD_BALANCER" is deployed with no smoke test: no JobRunner tests it and no EndpointRollout rolls it out; add new gpucloud.JobRunner("...", { endpoint, cases: [...] }), or deploy it through gpucloud.EndpointRollout, or add "lonely" to exemptEndpoints in the policy config',
    ]);
  });
});
