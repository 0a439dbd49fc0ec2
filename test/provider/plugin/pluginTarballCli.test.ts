/**
 * `gpucloud-plugin-tarball`'s command line: `--help`/`-h` prints the usage and exits 0, an option it
 * does not know fails naming it, and neither makes a folder of that name (it once made `--help/`).
 * The last test runs the compiled bin (dist/) as `npx` would; it needs a current dist/.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseTarballArgs, runTarballCli, TARBALL_USAGE } from "../../../provider/plugin/tarball";

const cwd = path.join(os.tmpdir(), "work");

describe("parseTarballArgs", () => {
  it("takes --help and -h wherever they are", () => {
    expect(parseTarballArgs(["--help"], cwd)).toEqual({ help: true });
    expect(parseTarballArgs(["-h"], cwd)).toEqual({ help: true });
    expect(parseTarballArgs(["out", "--help"], cwd)).toEqual({ help: true });
  });

  it("takes one directory, resolved against the working directory; none means the working directory", () => {
    expect(parseTarballArgs(["out"], cwd)).toEqual({ help: false, directory: path.join(cwd, "out") });
    expect(parseTarballArgs([], cwd)).toEqual({ help: false, directory: cwd });
  });

  it("after --, takes a directory whose name starts with -", () => {
    expect(parseTarballArgs(["--", "--help"], cwd)).toEqual({ help: false, directory: path.join(cwd, "--help") });
  });

  it("refuses an unknown option, naming it and the fix", () => {
    expect(() => parseTarballArgs(["--out", "dir"], cwd)).toThrow(
      'unknown option "--out"; the only option is --help (-h). For a directory whose name starts with "-", write: gpucloud-plugin-tarball -- --out',
    );
    expect(() => parseTarballArgs(["-x"], cwd)).toThrow('unknown option "-x"');
  });

  it("refuses two directories", () => {
    expect(() => parseTarballArgs(["a", "b"], cwd)).toThrow('expected at most one directory, got 2: "a" "b"; give one directory');
  });
});

describe("runTarballCli", () => {
  const run = (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = runTarballCli(
      argv,
      (text) => out.push(text),
      (text) => err.push(text),
    );
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  it("prints the usage for --help and exits 0", () => {
    expect(run(["--help"])).toEqual({ code: 0, out: TARBALL_USAGE, err: "" });
    expect(TARBALL_USAGE).toMatch(/^usage: gpucloud-plugin-tarball \[directory\]/);
  });

  it("fails with exit code 2 and the message on stderr for an unknown option", () => {
    const result = run(["--verbose"]);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toMatch(/^gpucloud-plugin-tarball: unknown option "--verbose"/);
  });
});

describe("the compiled bin", () => {
  const bin = path.resolve(__dirname, "..", "..", "..", "dist", "provider", "plugin", "tarball.js");

  it("prints the usage for --help and -h, exits 0 and makes no folder; refuses --nope with exit 2", () => {
    expect(fs.existsSync(bin), `${bin} is missing: run npm run build`).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-tarball-cli-"));
    try {
      for (const flag of ["--help", "-h"]) {
        const result = spawnSync(process.execPath, [bin, flag], { cwd: dir, encoding: "utf8" });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain("usage: gpucloud-plugin-tarball [directory]");
      }
      const refused = spawnSync(process.execPath, [bin, "--nope"], { cwd: dir, encoding: "utf8" });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('unknown option "--nope"');
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
