/**
 * A private image: registry credentials (RegistryAuth) whose password comes from secret stack
 * config, used by a serverless template and by a pod. The password is stored only as a secret in
 * state and never printed.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  const image = config.get("image") ?? "ghcr.io/acme/private-worker:1.0";

  const registry = new gpucloud.RegistryAuth("ghcr", {
    // Credentials have no update operation: a new password means new credentials. Put a version in
    // the name and bump it with the password, so the new ones exist before the old ones go.
    name: config.get("registryAuthName") ?? "ghcr-acme-v1",
    username: config.require("registryUsername"),
    password: config.requireSecret("registryPassword"),
  });

  const worker = new gpucloud.Template("worker", {
    name: `private-worker-${pulumi.getStack()}`,
    imageName: image,
    isServerless: true,
    containerRegistryAuthId: registry.id,
  });

  const endpoint = new gpucloud.Endpoint("inference", {
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: 0,
    workersMax: 1,
  });

  const devbox = new gpucloud.Pod("devbox", {
    imageName: image,
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
    // Set credentials when the pod is created: attaching them later delays image pulls by minutes.
    containerRegistryAuthId: registry.id,
    ports: ["22/tcp"],
  });

  return {
    registryAuthId: registry.id,
    templateId: worker.id,
    endpointId: endpoint.id,
    podId: devbox.id,
  };
}
