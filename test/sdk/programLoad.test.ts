// What a program's load of the SDK loads, in a fresh Node process on the compiled package (as every
// `pulumi preview` and `up` starts one): none of what only a call needs. The validators (zod), the
// transport's HTTP library (undici), the management clients and their wire schemas, the field tables
// and the job API's schemas load on the first call that needs them (scripts/bench-startup.ts
// measures the time this saves). Run after `npm run build`.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/repoRoot";
import { probeStartup } from "../../scripts/lib/startupProbe";

const root = repoRoot();

/** The package's modules only a call loads, by their path under dist/. */
const LOADED_BY_CALLS = [
  "client/management.js",
  "client/managementV2.js",
  "client/schemas.js",
  "client/schemasV2.js",
  "client/billing.js",
  "client/jobRecords.js",
  "client/jobRequest.js",
  "model/connection.js",
  "model/backend/openApi.js",
  "model/fields/fieldTable.js",
  "model/kinds/pod/podFields.js",
  "model/kinds/endpoint/endpointFields.js",
  "model/kinds/registry.js",
  "model/cost/estimate.js",
  "model/lookup/lookup.js",
  "sdk/lookupCall.js",
];

describe("a program's load of the SDK", () => {
  it("loads no validator, no HTTP library, no client, no field table: only what declaring resources needs", async () => {
    const { modules } = await probeStartup("program", root);
    const ours = modules
      .filter((file) => file.startsWith(path.join(root, "dist") + path.sep))
      .map((file) => path.relative(path.join(root, "dist"), file));
    // The probe loaded the SDK itself: the resource classes and the job API client are there.
    expect(ours).toEqual(expect.arrayContaining(["sdk/index.js", "sdk/endpoint.js", "client/jobClient.js"].map((f) => path.normalize(f))));
    expect(modules.filter((file) => /[\\/]node_modules[\\/](zod|undici)[\\/]/.test(file))).toEqual([]);
    expect(ours.filter((file) => LOADED_BY_CALLS.map((f) => path.normalize(f)).includes(file))).toEqual([]);
  });
});
