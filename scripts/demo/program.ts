/**
 * The demo stack: what a platform team's first GPU stack looks like. A network volume for model
 * weights, a GPU pod that mounts it, a serverless endpoint on a template with smoke tests after each
 * deploy, a second endpoint rolled out through a gate (scripts/demo/rollout.ts), and a cost report
 * that prints the estimate in every preview. It runs against the local emulator (see scripts/demo.ts), or against the
 * service when the gpucloud:* stack config points there.
 */
import * as gpucloud from "../../sdk";
import { demoRollout } from "./rollout";

/** The image the demo's workers run; the emulator's built-in handler serves any image. */
const WORKER_IMAGE = "example/echo-worker:1.0";

export function demoProgram(options: { rolloutVersion?: string } = {}): Record<string, unknown> {
  const models = new gpucloud.NetworkVolume("models", {
    name: "demo-models",
    size: 50,
    dataCenterId: "EU-RO-1",
  });

  const notebook = new gpucloud.Pod("notebook", {
    name: "demo-notebook",
    imageName: "example/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"], // one type: a v2 pod takes one (a v1 pod also takes a priority list)
    gpuCount: 1,
    networkVolumeId: models.id,
    dataCenterIds: [models.dataCenterId],
    ports: ["8888/http", "22/tcp"],
    env: { JUPYTER_TOKEN: "demo" },
  });

  const workerTemplate = new gpucloud.Template("worker", {
    name: "demo-worker",
    imageName: WORKER_IMAGE,
    isServerless: true,
    env: { MODEL_NAME: "demo-echo" },
  });

  const inference = new gpucloud.Endpoint("inference", {
    name: "demo-inference",
    templateId: workerTemplate.id,
    gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L4"],
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 5,
  });

  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint: inference,
    template: workerTemplate,
    cases: [
      { name: "echo", input: { prompt: "hello" }, expect: { outputSubset: { prompt: "hello" } } },
      {
        name: "generate",
        input: { output: { text: "a GPU cloud, as code" }, delayMs: 500 },
        expect: { outputPredicates: [{ path: "text", op: "contains", value: "as code" }] },
        timeoutSeconds: 60,
      },
    ],
  });

  const chat = demoRollout(options.rolloutVersion ?? "1.0");

  // Declared last: it sums every priced resource declared before it.
  new gpucloud.CostReport("cost");

  return {
    networkVolumeId: models.id,
    podId: notebook.id,
    podPublicIp: notebook.publicIp,
    podPortMappings: notebook.portMappings,
    podCostPerHr: notebook.costPerHr,
    templateId: workerTemplate.id,
    endpointId: inference.id,
    smokeTests: smoke.results,
    ...chat,
  };
}
