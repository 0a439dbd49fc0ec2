/**
 * An API token kept as an account secret, used by a pod and by an endpoint's workers through the
 * placeholder `secret.ref`: the service configuration never holds the token, and the stack's state
 * holds it encrypted only. A rotation (`pulumi config set --secret hfToken <new>` then `pulumi up`)
 * restarts the pod and rolls the workers, because both are tied to `valueLastUpdatedAt`. A
 * CostReport, declared last, holds the stack against the account's spend cap and worker quota
 * before anything is created.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  // Secret names are unique per account: a prefix keeps several stacks apart.
  const prefix = config.get("namePrefix") ?? `secrets-${pulumi.getStack()}`;

  const hfToken = new gpucloud.Secret("hf-token", {
    name: `${prefix}-HF_TOKEN`,
    value: config.requireSecret("hfToken"),
    description: "model hub read token",
  });

  // The pod receives the value when it boots; restartTrigger restarts it when the value rotates, so
  // the new value is in force after the same `pulumi up`.
  const notebook = new gpucloud.Pod("notebook", {
    name: `${prefix}-notebook`,
    imageName: "example/pytorch:2.4.0-cuda12.4-runtime",
    gpuTypeIds: ["NVIDIA L4"],
    dataCenterIds: ["EU-RO-1"],
    env: { HF_TOKEN: hfToken.ref },
    restartTrigger: hfToken.valueLastUpdatedAt,
  });

  // Workers receive it when they boot. SECRET_VERSION changes the template when the value rotates,
  // which rolls the endpoint's workers (a new release) onto the new value.
  const worker = new gpucloud.Template("worker", {
    name: `${prefix}-worker`,
    imageName: config.get("workerImage") ?? "example/secret-worker:1.0",
    isServerless: true,
    env: { HF_TOKEN: hfToken.ref, SECRET_VERSION: hfToken.valueLastUpdatedAt },
  });

  const inference = new gpucloud.Endpoint("inference", {
    name: `${prefix}-inference`,
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: config.getNumber("workersMin") ?? 0,
    workersMax: config.getNumber("workersMax") ?? 2,
  });

  // Declared last: sums the stack's cost and, before anything is created, fails the preview if the
  // stack would not fit the account's hourly spend cap or its serverless worker quota.
  const cost = new gpucloud.CostReport("cost");

  return {
    secretId: hfToken.id,
    secretRef: hfToken.ref,
    valueLastUpdatedAt: hfToken.valueLastUpdatedAt,
    podId: notebook.id,
    endpointId: inference.id,
    alwaysOnPerHour: cost.perHour,
  };
}
