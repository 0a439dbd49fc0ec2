/**
 * The smallest useful stack: a network volume for model weights, a GPU pod that mounts it, and a
 * serverless endpoint whose workers run a template.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  // Resource names are unique per account: a prefix keeps several stacks apart.
  const prefix = config.get("namePrefix") ?? `quickstart-${pulumi.getStack()}`;
  const dataCenterId = config.get("dataCenterId") ?? "EU-RO-1";

  const models = new gpucloud.NetworkVolume("models", {
    name: `${prefix}-models`,
    size: 50, // GB; can grow later, never shrink
    dataCenterId,
  });

  const notebook = new gpucloud.Pod("notebook", {
    name: `${prefix}-notebook`,
    imageName: "example/pytorch:2.4.0-cuda12.4-runtime",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"], // one type on v2; v1 also takes a list in order of preference
    gpuCount: 1,
    networkVolumeId: models.id, // mounted at /workspace
    dataCenterIds: [dataCenterId], // a pod must run where its volume is
    ports: ["8888/http", "22/tcp"],
    env: { JUPYTER_TOKEN: config.getSecret("jupyterToken") ?? "change-me" },
  });

  const worker = new gpucloud.Template("worker", {
    name: `${prefix}-worker`,
    imageName: "example/echo-worker:1.0",
    isServerless: true,
    env: { MODEL_NAME: "echo" },
  });

  const inference = new gpucloud.Endpoint("inference", {
    name: `${prefix}-inference`,
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: 0, // scale to zero when idle
    workersMax: 2,
    idleTimeout: 5, // seconds
  });

  return {
    volumeId: models.id,
    podId: notebook.id,
    podCostPerHr: notebook.costPerHr,
    // A tcp port is published on the pod's public address; an http port (8888 here) is served
    // through the service's shared HTTP proxy instead, so it has no address of the pod's own.
    sshAddress: pulumi.interpolate`${notebook.publicIp}:${notebook.portMappings.apply((ports) => ports?.["22"])}`,
    sshPort: notebook.portMappings.apply((ports) => ports?.["22"]),
    templateId: worker.id,
    endpointId: inference.id,
  };
}
