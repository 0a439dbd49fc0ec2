// The rollout's two providers as dispatch.ts routes shim calls to them, built on first use in the
// provider process (most stacks have no rollout).
import type * as pulumi from "@pulumi/pulumi";
import { rolloutCandidateProvider } from "./candidate";
import { defaultRolloutDeps } from "./deps";
import { rolloutSwitchProvider } from "./switch";

type RolloutKind = "rolloutCandidate" | "rolloutSwitch";

let built: Record<RolloutKind, pulumi.dynamic.ResourceProvider> | undefined;

export function rolloutProviders(): Record<RolloutKind, pulumi.dynamic.ResourceProvider> {
  if (!built) {
    const deps = defaultRolloutDeps();
    built = { rolloutCandidate: rolloutCandidateProvider(deps), rolloutSwitch: rolloutSwitchProvider(deps) };
  }
  return built;
}
