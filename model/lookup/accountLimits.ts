// Apart from v2Lookups.ts (whose client's declarations name zod's types) because the SDK exports
// these: a user's type check of the SDK must not reach zod's types.

/** One limit of the account. */
export interface AccountLimit {
  /** The cap, when the service reports it. */
  limit?: number;
  /** The use now, when the service reports it. */
  current?: number;
}

/**
 * The account's limits as `GET /v2/account/limits` reports them. The service documents what each
 * limit means but not the fields inside each; `limit` and `current` are read where present.
 */
export interface AccountLimits {
  /**
   * The hourly spend cap, in USD per hour, over everything of the account that runs (pods and
   * serverless workers): a start that would take the running cost over it is refused (402).
   * $80/hour by default, raised on request.
   */
  spendRate: AccountLimit;
  /** The serverless worker quota: the most the sum of `workersMax` over all the account's endpoints may be. */
  serverlessWorkers: AccountLimit;
}
