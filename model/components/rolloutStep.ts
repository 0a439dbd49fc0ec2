// What an EndpointRollout records of each step (its `history` output): the provider's rollout
// steps write it (provider/rollout), the SDK's public declarations name it.

/**
 * The record of a rollout: what each step did, in order, as the rollout's `history` output shows
 * it. The candidate check and the switch each keep the steps of their last run.
 */
export type RolloutStepKind =
  /** The candidate (canary) endpoint was created on the new version. */
  | "canary"
  /** The smoke-test cases ran against the canary. */
  | "candidate"
  /** The canary was deleted. */
  | "cleanup"
  /** The serving endpoint's templateId was moved to the new version. */
  | "switch"
  /** Every worker of the serving endpoint runs the version it was moved to. */
  | "rolledOut"
  /** The cases ran again against the serving endpoint, after the switch. */
  | "verify"
  /** The serving endpoint was moved back to the previous version. */
  | "rollback";

export interface RolloutStep {
  /** When the step ended (ISO 8601). */
  at: string;
  step: RolloutStepKind;
  /** The version the step concerns. */
  version: string;
  /** "passed"/"failed" for the cases, "done" for the other steps (or "failed" when they failed). */
  outcome: "passed" | "failed" | "done";
  /** The endpoint the step acted on. */
  endpointId?: string;
  /** The template the step moved to or ran. */
  templateId?: string;
  /** A few words: the cases' verdict, the workers on the release, the error. */
  detail?: string;
}
