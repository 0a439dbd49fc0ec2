/**
 * A serverless endpoint rolled out through a canary: each `pulumi up` that changes the version runs
 * the smoke-test cases on a canary endpoint first, and moves the serving endpoint to the new version
 * only when every case passed. A failing case fails the up; the serving endpoint is not touched.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  const version = config.get("version") ?? "1.0";

  const rollout = new gpucloud.EndpointRollout("inference", {
    version, // names the version's template: rollout-model-<version>
    template: { name: "rollout-model", imageName: `example/rollout-model:${version}`, isServerless: true },
    endpoint: { gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"], workersMin: 1, workersMax: 2, idleTimeout: 5 },
    cases: [
      {
        name: "answers",
        input: { prompt: "hello" },
        expect: { outputPredicates: [{ path: "text", op: "contains", value: "hello" }] },
        timeoutSeconds: 120, // queue + the canary's cold start + run
      },
    ],
  });

  return {
    endpointId: rollout.endpointId,
    canaryEndpointId: rollout.canaryEndpointId,
    servingTemplateId: rollout.servingTemplateId,
    candidateResults: rollout.candidateResults.apply((results) => results.map((r) => ({ name: r.name, passed: r.passed, jobId: r.jobId, status: r.status }))),
  };
}
