// The one output name every priced kind records its cost estimate under. A module of its own with
// no imports: the field tables read it while they load (their `costEstimate` row), and the cost
// code (model/cost) reads the tables, never the other way round.

/** The output (and checked input) every priced resource records its estimate under. */
export const COST_ESTIMATE = "costEstimate";
