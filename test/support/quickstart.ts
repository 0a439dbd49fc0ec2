/**
 * The quickstart stack used by the reliability tests: registry credentials, a serverless template
 * that pulls with them, a network volume, a GPU pod that mounts it, and an endpoint on the template.
 * Five resources, one of each management kind, with names unique per stack so that duplicates can be
 * counted by name in the emulator.
 */
import * as gpucloud from "../../sdk";

/** Registry password the program declares: scanned for in state, logs and errors. */
export const QUICKSTART_REGISTRY_PASSWORD = "quickstart-registry-password-7f3c9a";

/** The service-side names of the quickstart's resources, by kind. */
export interface QuickstartNames {
  registryAuth: string;
  template: string;
  networkVolume: string;
  pod: string;
  endpoint: string;
}

export function quickstartNames(prefix = "qs"): QuickstartNames {
  return {
    registryAuth: `${prefix}-registry`,
    template: `${prefix}-worker`,
    networkVolume: `${prefix}-models`,
    pod: `${prefix}-notebook`,
    endpoint: `${prefix}-inference`,
  };
}

export function quickstartProgram(names: QuickstartNames = quickstartNames()): Record<string, unknown> {
  const registry = new gpucloud.RegistryAuth("registry", {
    name: names.registryAuth,
    username: "ci-bot",
    password: QUICKSTART_REGISTRY_PASSWORD,
  });
  const template = new gpucloud.Template("worker", {
    name: names.template,
    imageName: "example/echo-worker:1.0",
    isServerless: true,
    containerRegistryAuthId: registry.id,
    env: { MODEL_NAME: "quickstart" },
  });
  const models = new gpucloud.NetworkVolume("models", {
    name: names.networkVolume,
    size: 20,
    dataCenterId: "EU-RO-1",
  });
  const pod = new gpucloud.Pod("notebook", {
    name: names.pod,
    imageName: "example/pytorch:2.1.0",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"], // one type: what a v2 pod takes
    gpuCount: 1,
    networkVolumeId: models.id,
    dataCenterIds: [models.dataCenterId],
    ports: ["8888/http", "22/tcp"],
  });
  const endpoint = new gpucloud.Endpoint("inference", {
    name: names.endpoint,
    templateId: template.id,
    gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L4"],
    workersMin: 0,
    workersMax: 2,
    idleTimeout: 5,
  });
  return {
    registryAuthId: registry.id,
    templateId: template.id,
    networkVolumeId: models.id,
    podId: pod.id,
    podPublicIp: pod.publicIp,
    endpointId: endpoint.id,
  };
}

/** How many quickstart resources the emulator holds per kind and name (all accounts). */
export type NameCounts = Record<keyof QuickstartNames, Record<string, number>>;
