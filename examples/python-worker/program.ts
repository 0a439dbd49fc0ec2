/**
 * A serverless endpoint whose image runs a real Python handler (handler.py), gated by smoke tests:
 * after every `pulumi up` that changes the endpoint or its template, the JobRunner sends each case
 * to the endpoint as a job, and the emulator runs it in the real handler (started with
 * `--worker IMAGE=COMMAND`). Only the handler's own output passes the cases.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();

  const worker = new gpucloud.Template("worker", {
    name: `python-worker-${pulumi.getStack()}`,
    imageName: `example/python-worker:${config.get("imageTag") ?? "1.0"}`,
    isServerless: true,
    // Read by handler.py: a model the image does not have makes the handler raise.
    env: { MODEL_NAME: config.get("modelName") ?? "wordcount" },
  });

  const endpoint = new gpucloud.Endpoint("wordcount", {
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: 0,
    workersMax: 2,
    idleTimeout: 30,
  });

  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint,
    template: worker,
    cases: [
      {
        name: "counts-words",
        input: { text: "a GPU cloud as code" },
        expect: { outputSubset: { words: 5, longest: "cloud", model: "wordcount" } },
        timeoutSeconds: 120, // the first job waits for a worker process to start
      },
      {
        name: "rejects-empty-text",
        input: { text: "" },
        expect: { status: "FAILED", errorContains: "input.text must be a non-empty string" },
        timeoutSeconds: 120,
      },
    ],
  });

  return {
    endpointId: endpoint.id,
    smokeTests: smoke.results.apply((results) =>
      results.map((r) => ({ name: r.name, passed: r.passed, jobId: r.jobId, status: r.status })),
    ),
  };
}
