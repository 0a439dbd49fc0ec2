/**
 * A serverless endpoint rolled out through smoke tests: each `pulumi up` that changes the version
 * checks it on a canary endpoint first, and moves the serving endpoint to it only when every case
 * passed; after the switch the cases run again on the serving endpoint, and a failure moves it back
 * to the previous version by itself. A failing case fails the up; the serving endpoint keeps
 * answering with the version that passed.
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
    verifyAfterSwitch: config.getBoolean("verifyAfterSwitch") ?? true,
  });

  return {
    endpointId: rollout.endpointId,
    servingVersion: rollout.servingVersion,
    candidateResults: rollout.candidateResults.apply((results) =>
      results.map((r) => ({ name: r.name, passed: r.passed, jobId: r.jobId, status: r.status })),
    ),
    history: rollout.history.apply((steps) => steps.map((s) => `${s.step} ${s.version}: ${s.outcome}${s.detail ? ` (${s.detail})` : ""}`)),
  };
}
