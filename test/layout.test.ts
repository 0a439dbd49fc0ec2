/**
 * The test tree mirrors the source: every test file sits under test/<wing>/, a wing being a
 * top-level source folder (those tsconfig.json compiles, and examples/, which
 * test/examples/examples.test.ts type-checks), or under one of the layers that cross wings:
 * engine/ (the real engine), soak/, support/ (shared helpers). Below a wing, every folder is a
 * folder of that wing (test/emulator/management/v2/ holds the tests of emulator/management/v2/;
 * the tests of the wing's own top-level files sit in test/<wing>/), but for the folders of files
 * tests load (fixtures/). No two test files share a name, so a name in a report or a document
 * points at one file. Only the repository is read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..");
const LAYERS = ["engine", "soak", "support"];
/** Folders below a wing's tests that hold what tests load (modules, servers, data), not tests of a folder of the wing. */
const HELPER_FOLDERS = new Set(["fixtures"]);
/** What the suite runs (vitest's *.test.ts) or checks (typecheck's type-level *.types.ts). */
const TEST_FILE = /\.(test|types)\.ts$/;

function sourceWings(): string[] {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(repoRoot, "tsconfig.json"), "utf8")) as { include: string[] };
  return [...tsconfig.include, "examples"].filter((dir) => fs.statSync(path.join(repoRoot, dir), { throwIfNoEntry: false })?.isDirectory());
}

/** Every folder below test/<wing>/ but helper folders and what they hold, relative to test/ with forward slashes. */
function wingTestFolders(wing: string): string[] {
  const folders: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(__dirname, relative), { withFileTypes: true })) {
      if (!entry.isDirectory() || HELPER_FOLDERS.has(entry.name)) continue;
      const folder = `${relative}/${entry.name}`;
      folders.push(folder);
      walk(folder);
    }
  };
  if (fs.existsSync(path.join(__dirname, wing))) walk(wing);
  return folders;
}

/** Every test file, as a path relative to test/ with forward slashes. */
const testFiles = fs
  .readdirSync(__dirname, { recursive: true, encoding: "utf8" })
  .filter((file) => TEST_FILE.test(file))
  .map((file) => file.split(path.sep).join("/"))
  .sort();

describe("the test tree", () => {
  it("has no two test files of the same name", () => {
    expect(testFiles.length).toBeGreaterThan(0);
    const byName = new Map<string, string[]>();
    for (const file of testFiles) {
      const name = path.posix.basename(file);
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const repeated = [...byName.values()].filter((files) => files.length > 1);
    expect(repeated, "rename one of each group after what it tests").toEqual([]);
  });

  it("keeps every test file under the source wing it tests, or under a layer", () => {
    const wings = sourceWings();
    expect(wings).toEqual(expect.arrayContaining(["sdk", "model", "provider", "client", "emulator", "examples", "scripts"]));
    const allowed = new Set([...wings, ...LAYERS]);
    const self = path.basename(__filename);
    const misplaced = testFiles.filter((file) => file !== self && !allowed.has(file.split("/")[0] ?? ""));
    expect(misplaced, `test/<wing>/ must name one of: ${[...allowed].join(", ")}`).toEqual([]);
  });

  it("names a folder of the wing in every folder of the wing's tests", () => {
    const folders = sourceWings().flatMap(wingTestFolders);
    expect(folders).toContain("emulator/management/v2");
    const strays = folders.filter((folder) => !fs.statSync(path.join(repoRoot, folder), { throwIfNoEntry: false })?.isDirectory());
    expect(strays, `test/<wing>/<area>/ must be a folder of <wing>/ (or one of: ${[...HELPER_FOLDERS].join(", ")})`).toEqual([]);
  });
});
