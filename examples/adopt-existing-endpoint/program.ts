/**
 * Bring an existing serverless endpoint, and the template it runs, under Pulumi's management. The
 * first `up` reads them (no new endpoint is created), checks the fields that can only be set at
 * create, and updates the rest to what is declared here. From then on they are managed like any
 * other resource.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  // While the migration is being tried out, keep the live endpoint if the stack is destroyed.
  // Set retainOnDelete to false once Pulumi is the only owner.
  const retainOnDelete = config.getBoolean("retainOnDelete") ?? true;

  const worker = new gpucloud.Template(
    "worker",
    {
      adoptId: config.require("templateId"),
      name: config.get("templateName") ?? "legacy-worker",
      imageName: config.get("imageName") ?? "example/echo-worker:1.0",
      isServerless: true, // must match the live template: it can only be set at create
      env: { MODEL_NAME: "echo" }, // declared keys are written; keys you do not declare are left alone
    },
    { retainOnDelete },
  );

  const endpoint = new gpucloud.Endpoint(
    "inference",
    {
      adoptId: config.require("endpointId"),
      name: config.get("endpointName") ?? "legacy-inference",
      templateId: worker.id,
      computeType: "GPU", // must match the live endpoint: it can only be set at create
      gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
      workersMin: 0,
      workersMax: config.getNumber("workersMax") ?? 3,
      idleTimeout: 5,
    },
    { retainOnDelete },
  );

  return { templateId: worker.id, endpointId: endpoint.id, workersMax: endpoint.workersMax };
}
