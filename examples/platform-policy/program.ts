/**
 * A stack a platform team's rules allow: a network volume, a GPU pod that mounts it in the same
 * data center with its token in an account Secret, and a serverless endpoint smoke-tested by a
 * JobRunner, all on allowed GPU types in allowed data centers, with pinned images. With the stack
 * config `violations` set to true, the same stack breaks five mandatory rules (and one advisory),
 * and `pulumi preview --policy-pack` fails with one message per rule.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  const violations = config.getBoolean("violations") ?? false;
  const prefix = config.get("namePrefix") ?? `platform-${pulumi.getStack()}`;
  const dataCenterId = "EU-RO-1";

  const hfToken = new gpucloud.Secret("hf-token", {
    name: `${prefix.replace(/-/g, "_")}_HF_TOKEN`,
    value: config.getSecret("hfToken") ?? pulumi.secret("hf-token-for-the-example"),
  });

  const models = new gpucloud.NetworkVolume("models", { name: `${prefix}-models`, size: 20, dataCenterId });

  const notebook = new gpucloud.Pod("notebook", {
    name: `${prefix}-notebook`,
    // Violation 1 (gpucloud-images): the tag latest.
    imageName: violations ? "example/pytorch:latest" : "example/pytorch:2.4.0-cuda12.4-runtime",
    gpuTypeIds: ["NVIDIA L4"],
    gpuCount: 1,
    cloudType: "SECURE",
    dataCenterIds: [dataCenterId],
    networkVolumeId: models.id,
    // Violation 2 (gpucloud-exposure): a public TCP port other than SSH's.
    ports: violations ? ["8888/http", "22/tcp", "6006/tcp"] : ["8888/http", "22/tcp"],
    env: {
      PUBLIC_KEY: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOnlyForTheExample platform@example",
      // Violation 3 (gpucloud-secrets): a token as a plain env value instead of the Secret's reference.
      HF_TOKEN: violations ? "hf_exampleTokenThatLooksRealEnough123" : hfToken.ref,
    },
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
    // Violation 4 (gpucloud-placement): a GPU type the platform does not allow.
    gpuTypeIds: violations ? ["NVIDIA H100 80GB HBM3"] : ["NVIDIA L4"],
    dataCenterIds: [dataCenterId],
    // Violation 5 (gpucloud-scale): more always-on workers than maxWorkersMin.
    workersMin: violations ? 3 : 0,
    workersMax: 4,
  });

  // Without it (violations), gpucloud-deploy-safety warns: an advisory rule.
  if (!violations) {
    new gpucloud.JobRunner("smoke", {
      endpoint: inference,
      template: worker,
      cases: [{ name: "echo", input: { prompt: "hello" }, expect: { outputSubset: { prompt: "hello" } } }],
    });
  }

  return { podId: notebook.id, endpointId: inference.id, volumeId: models.id };
}
