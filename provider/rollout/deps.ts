/**
 * What the rollout's providers need from the outside world, in one object so that tests can hand in
 * fakes: the resource providers' dependencies (management client, log, clock, waits), the Endpoint
 * kind's provider that makes and deletes canaries, and the job API client that runs the cases.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { JobClient } from "../../client/jobClient";
import { connectionFailures, jobClient } from "../../model/connection";
import { defaultDeps, type ProviderDeps } from "../resources/deps";
import { endpointProvider } from "../resources/registry";
import type { Props } from "../../model/fields/values";

/** The Endpoint kind's operations a canary goes through. */
export interface CanaryEndpoints {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  /** Lost-create handling and readiness included; a created endpoint that failed later throws a ResourceInitError. */
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  /** Scales to 0 first where the API needs it; a 404 counts as done. */
  delete(id: string, props: Props): Promise<void>;
}

export interface RolloutDeps {
  provider: ProviderDeps;
  canaryEndpoints: CanaryEndpoints;
  /** The job API client, loaded on first use. */
  jobs(): Promise<JobClient>;
  /** What is wrong with the settings a rollout needs (both APIs), for check (absent: nothing checked). */
  connectionFailures?(): { property: string; reason: string }[];
}

export function defaultRolloutDeps(): RolloutDeps {
  const provider = defaultDeps();
  const endpoints = endpointProvider(provider);
  // The canary's settings are the serving endpoint's: its check warned about them already.
  const quiet = endpointProvider({ ...provider, log: { info: provider.log.info, warn: () => undefined } });
  return {
    provider,
    canaryEndpoints: {
      // The generic lifecycle (resources/lifecycle.ts) defines every method of a resource kind.
      check: (olds, news) => quiet.check(olds, news),
      create: (inputs) => endpoints.create(inputs),
      delete: (id, props) => endpoints.delete(id, props),
    },
    jobs: jobClient,
    connectionFailures: () => connectionFailures("required"),
  };
}
