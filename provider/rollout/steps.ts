// The log a rollout step keeps of what it did, in order (the rollout's `history` output).
import type { RolloutStep } from "../../model/components/rolloutStep";

export class StepLog {
  readonly steps: RolloutStep[] = [];

  constructor(private readonly now: () => number) {}

  add(step: Omit<RolloutStep, "at">): RolloutStep {
    const entry = { at: new Date(this.now()).toISOString(), ...step };
    this.steps.push(entry);
    return entry;
  }
}
