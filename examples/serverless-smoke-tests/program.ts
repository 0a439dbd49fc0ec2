/**
 * A serverless endpoint gated by smoke tests. After every `pulumi up` that changes the endpoint, its
 * template (image, env), the cases or the trigger, the JobRunner sends each case as a real job and
 * checks the result; a case that fails fails the deploy. Cases never run during `pulumi preview`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  const imageTag = config.get("imageTag") ?? "1.0";

  const worker = new gpucloud.Template("worker", {
    name: `smoke-tests-worker-${pulumi.getStack()}`,
    imageName: `example/echo-worker:${imageTag}`,
    isServerless: true,
    env: { MODEL_NAME: config.get("modelName") ?? "echo" },
  });

  const endpoint = new gpucloud.Endpoint("inference", {
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: 0,
    workersMax: 2,
    idleTimeout: 5,
  });

  // The emulator's built-in worker does what the job input says (`output`, `delayMs`, `error`, ...);
  // against a real image, write inputs your handler understands and expectations it must meet.
  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint,
    template: worker, // templates change in place: pass it so a new image or env re-runs the cases
    cases: [
      {
        name: "echo",
        input: { prompt: "hello" },
        expect: { outputSubset: { prompt: "hello" } },
      },
      {
        name: "generate",
        input: { output: { text: "a GPU cloud, as code", tokens: 6 }, delayMs: 500 },
        expect: {
          outputPredicates: [
            { path: "text", op: "contains", value: "as code" },
            { path: "tokens", op: "gt", value: 0 },
          ],
        },
        policy: { executionTimeout: 60_000 }, // ms the job may run before the service times it out
        timeoutSeconds: 120, // queue + cold start + run, from the deploy's point of view
      },
      {
        // A case can expect a failure, e.g. that bad input is rejected.
        name: "rejects-empty-prompt",
        input: { error: "prompt must not be empty" },
        expect: { status: "FAILED", errorContains: "must not be empty" },
      },
      // `pulumi config set failWithLog true`: a case the worker fails after logging, to see what a
      // failed case shows on v2: its error ends with the worker's last log lines (secrets redacted)
      // and the request that reads more.
      ...(config.getBoolean("failWithLog")
        ? [
            {
              name: "load-model",
              input: { log: ["loading weights from /models/llama-8b", "RuntimeError: CUDA out of memory"], error: "CUDA out of memory" },
              expect: { outputSubset: { loaded: true } },
            },
          ]
        : []),
    ],
    // Any string: changing it re-runs the cases with nothing else changed (e.g. a release tag).
    trigger: config.get("smokeTrigger") ?? "",
  });

  return {
    endpointId: endpoint.id,
    smokeTestsRanAt: smoke.ranAt,
    smokeTests: smoke.results.apply((results) =>
      results.map((r) => ({ name: r.name, passed: r.passed, jobId: r.jobId, status: r.status, executionTime: r.executionTime })),
    ),
  };
}
