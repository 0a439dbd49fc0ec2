// USD amounts as estimates and summaries give them. A module of its own with no imports: the cost
// summary (loaded with the SDK) rounds its sums without loading the estimator and the field tables.

/** Money to 1e-6 USD, as the service quotes it (0.69, not 0.6900000001). */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
