/**
 * scripts/build.js, which `npm run build`, `prepare` and `npm test` run: it compiles into an empty
 * dist/ and stamps it; with --if-stale it skips the compile while the sources match the stamp, and
 * compiles again (dropping what a deleted source left) when they do not. Run on a small project in
 * a temporary folder (the script, a tsconfig, two sources, this checkout's TypeScript), so that
 * the checkout's own dist/ is left alone.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..", "..");
const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-build-script-"));

function write(relative: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
  fs.writeFileSync(path.join(base, relative), text);
}

function build(...args: string[]): { status: number | null; out: string } {
  const result = spawnSync(process.execPath, [path.join(base, "scripts", "build.js"), ...args], { cwd: base, encoding: "utf8" });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

write("scripts/build.js", fs.readFileSync(path.join(repoRoot, "scripts", "build.js"), "utf8"));
write(
  "tsconfig.json",
  JSON.stringify({ compilerOptions: { outDir: "dist", rootDir: ".", module: "commonjs", strict: true, types: [] }, include: ["sdk"] }),
);
write("sdk/index.ts", "export const a = 1;\n");
write("sdk/extra.ts", "export const b = 2;\n");
fs.mkdirSync(path.join(base, "node_modules"));
fs.symlinkSync(path.join(repoRoot, "node_modules", "typescript"), path.join(base, "node_modules", "typescript"), "dir");

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("scripts/build.js", { timeout: 60_000 }, () => {
  const index = path.join(base, "dist", "sdk", "index.js");
  const stamp = path.join(base, "dist", ".sources-sha256");

  it("compiles and stamps dist/ with the sources' digest", () => {
    expect(build().status).toBe(0);
    expect(fs.readFileSync(index, "utf8")).toContain("exports.a = 1");
    expect(fs.readFileSync(stamp, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it("with --if-stale, leaves a current dist/ as it is", () => {
    const before = fs.statSync(index).mtimeMs;
    const result = build("--if-stale");
    expect(result).toEqual({ status: 0, out: "build: dist/ is current (the sources have not changed since it was built)\n" });
    expect(fs.statSync(index).mtimeMs).toBe(before);
  });

  it("with --if-stale, compiles again from an empty dist/ once a source changed or went away", () => {
    write("sdk/index.ts", "export const a = 3;\n");
    fs.rmSync(path.join(base, "sdk", "extra.ts"));
    expect(build("--if-stale").status).toBe(0);
    expect(fs.readFileSync(index, "utf8")).toContain("exports.a = 3");
    expect(fs.existsSync(path.join(base, "dist", "sdk", "extra.js"))).toBe(false);
  });

  it("without --if-stale, always compiles", () => {
    const before = fs.readFileSync(stamp, "utf8");
    fs.writeFileSync(index, "tampered");
    expect(build().status).toBe(0);
    expect(fs.readFileSync(index, "utf8")).toContain("exports.a = 3");
    expect(fs.readFileSync(stamp, "utf8")).toBe(before);
  });

  it("fails on a compile error, leaving no stamp, and refuses an unknown argument", () => {
    write("sdk/index.ts", "export const a: number = 'x';\n");
    const failed = build("--if-stale");
    expect(failed.status).not.toBe(0);
    expect(failed.out).toContain("build: tsc -p tsconfig.json failed");
    expect(fs.existsSync(stamp)).toBe(false);
    expect(build("--watch")).toMatchObject({ status: 2, out: expect.stringContaining('build: unknown argument "--watch"') });
  });
});
