import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const dist = path.resolve(__dirname, "..", "..", "dist", "sdk", "quietSerializer.js");

/** Runs a snippet in a fresh Node.js process (this project's Node) and returns its stderr. */
function stderrOf(lines: string[]): string {
  const result = spawnSync(process.execPath, ["-e", lines.join("\n")], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
}

describe("the SQLite ExperimentalWarning is held back, and nothing else", () => {
  it("without the preload, this Node.js warns when node:sqlite is first loaded (the case exists here)", () => {
    expect(stderrOf(['require("node:sqlite");'])).toMatch(/ExperimentalWarning: SQLite/);
  });

  it("after the preload, loading node:sqlite prints nothing, and other warnings still print", () => {
    const stderr = stderrOf([
      `require(${JSON.stringify(dist)}).preloadSqliteQuietly();`,
      'require("node:sqlite");',
      'process.emitWarning("another experiment", "ExperimentalWarning");',
    ]);
    expect(stderr).not.toMatch(/SQLite/);
    expect(stderr).toMatch(/ExperimentalWarning: another experiment/);
  });
});
