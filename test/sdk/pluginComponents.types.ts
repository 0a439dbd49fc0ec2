/**
 * Type-level test (checked by `tsc -p tsconfig.test.json`): the components take the resources of
 * either path. A program that declares its resources with the typed classes over the plugin
 * (`pulumi-gpucloud/plugin`) hands them to JobRunner, EndpointRollout and CostReport as it would
 * the package's own classes; a mismatch fails the type check.
 */
import type * as typed from "pulumi-gpucloud/plugin";
import type { CostReportArgs, EndpointRolloutArgs, JobRunnerArgs } from "../../sdk/index";

declare const endpoint: typed.Endpoint;
declare const template: typed.Template;
declare const volume: typed.NetworkVolume;
declare const registry: typed.RegistryAuth;
declare const pod: typed.Pod;
declare const secret: typed.Secret;

export const runner: JobRunnerArgs = { endpoint, template, cases: [{ name: "ok", input: {} }] };

export const rollout: EndpointRolloutArgs = {
  template: { imageName: "ghcr.io/acme/model:1", isServerless: true, containerRegistryAuthId: registry.id, env: { TOKEN: secret.name } },
  endpoint: { gpuTypeIds: ["NVIDIA L4"], networkVolumeId: volume.id },
  cases: [{ name: "ok", input: {} }],
};

export const report: CostReportArgs = { resources: [pod, endpoint, volume] };
