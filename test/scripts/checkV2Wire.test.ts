/**
 * scripts/check-v2-wire.ts reads the operations the addendum on today's API names (it is prose and
 * tables, not a description): every `METHOD /v2/path` in backquotes, without wildcards and without
 * the areas the addendum puts out of scope. The text below is the project's own sample of those
 * forms, not the reference.
 */
import { describe, expect, it } from "vitest";
import { readTodayOperations } from "../../scripts/check-v2-wire";

const SAMPLE = [
  "| `GET /v2/global-volumes` | query `cursor`, `limit` | `200` |",
  "| `POST /v2/global-volumes` | body `{name}` | `201` `GlobalVolume` |",
  "new `GET /v2/serverless/{id}/builds` (paginated) and `GET /v2/serverless/{id}/builds/{buildId}` (any build)",
  "| `GET /v2/billing*` | no cursor |",
  "| `GET /v2/catalog/*` | no |",
  "for an organisation member [...] read from `GET /v2/organization`; `/v2/sandboxes/*` exist",
  "the v2 worker list (`GET /v2/serverless/{id}/workers`) is the truthful source; `/v2/tags` answers 404",
  "a repeated mention: `GET /v2/global-volumes`",
].join("\n");

describe("readTodayOperations", () => {
  it("names each operation once, by method and path without /v2, leaving out wildcards, out-of-scope areas and bare paths", () => {
    expect([...readTodayOperations(SAMPLE)].sort()).toEqual([
      "GET /global-volumes",
      "GET /serverless/{id}/builds",
      "GET /serverless/{id}/builds/{buildId}",
      "GET /serverless/{id}/workers",
      "POST /global-volumes",
    ]);
  });
});
