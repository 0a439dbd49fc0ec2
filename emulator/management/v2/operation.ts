/**
 * A v2 operation: the same route-table entry as v1's (method, path, schemas, docs, handler), with
 * v2 validation (422 problems listing every field) instead of v1's first-field 400.
 */
import type { Operation, OperationSpec } from "../../http/router";
import { parseV2 } from "./validation";

export function defineV2Operation<Q = undefined, B = undefined>(spec: OperationSpec<Q, B>): Operation {
  const { query, body, unknownFieldHints: _hints, handle, ...doc } = spec;
  return {
    ...doc,
    public: spec.public ?? false,
    querySchema: query,
    bodySchema: body,
    run(raw) {
      const parsedQuery = query ? parseV2(query, raw.query, "query parameter") : (undefined as Q);
      const parsedBody = body ? parseV2(body, raw.body, "request body") : (undefined as B);
      return handle({ accountId: raw.accountId, params: raw.params, query: parsedQuery, body: parsedBody });
    },
  };
}
