/**
 * One program for every environment: the stack's config (Pulumi.<stack>.yaml, reviewed in pull
 * requests) says which image, which GPUs and how many workers. A smoke test gates each rollout.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  const stack = pulumi.getStack();
  const imageTag = config.require("imageTag");
  const gpuTypeIds = config.requireObject<string[]>("gpuTypeIds");
  const workersMin = config.getNumber("workersMin", { min: 0 }) ?? 0;
  const workersMax = config.requireNumber("workersMax", { min: 1 });

  const worker = new gpucloud.Template("worker", {
    name: `inference-${stack}`,
    imageName: `example/echo-worker:${imageTag}`,
    isServerless: true,
    env: { DEPLOY_ENV: stack },
  });

  const endpoint = new gpucloud.Endpoint("inference", {
    name: `inference-${stack}`,
    templateId: worker.id,
    gpuTypeIds,
    workersMin,
    workersMax,
    idleTimeout: 30,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
  });

  // A new imageTag updates the template in place, which re-runs the smoke test; a failing smoke
  // test fails the pipeline's `pulumi up`.
  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint,
    template: worker,
    cases: [{ name: "echo", input: { prompt: "ping" }, expect: { outputSubset: { prompt: "ping" } }, timeoutSeconds: 300 }],
  });

  return {
    endpointId: endpoint.id,
    imageTag,
    gpuTypeIds: endpoint.gpuTypeIds,
    workersMax: endpoint.workersMax,
    smokeTestPassed: smoke.results.apply((results) => results.every((r) => r.passed)),
  };
}
