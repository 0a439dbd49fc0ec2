/**
 * The field tables read COST_ESTIMATE while they load, and provider/cost reaches back into them
 * (a pod's default disk sizes): whichever module the provider process loads first, every priced
 * table must record its estimate row under "costEstimate", never under "undefined". Runs the
 * compiled package in fresh Node.js processes, as the provider process loads it.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const provider = path.resolve(__dirname, "..", "..", "..", "dist", "provider");
const FIRST = ["cost/attach", "cost/refresh", "cost/summary", "cost/estimate", "cost/summaryProvider", "resources/lifecycle", "resources/registry", "dispatch"];
const TABLES = [
  ["resources/podFields", "podTable"],
  ["resources/endpointFields", "endpointTable"],
  ["resources/networkVolumeFields", "networkVolumeTable"],
] as const;

describe("the cost modules and the field tables load in any order", () => {
  it.each(FIRST)("loading %s first leaves the estimate row under its name", (first) => {
    const script = [
      `require(${JSON.stringify(path.join(provider, first))});`,
      `const rows = ${JSON.stringify(TABLES)}.map(([file, name]) => Object.keys(require(${JSON.stringify(provider)} + "/" + file)[name].fields));`,
      "console.log(JSON.stringify(rows.map((keys) => [keys.includes('costEstimate'), keys.includes('undefined')])));",
    ].join("\n");
    const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(TABLES.map(() => [true, false]));
  });
});
