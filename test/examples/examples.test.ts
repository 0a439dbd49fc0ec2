/**
 * The examples stay correct as the SDK changes: every examples/<name>/index.ts (and the program.ts it
 * imports) type-checks against the SDK source with the repository's strict compiler options, with
 * `pulumi-gpucloud` mapped to ./sdk/index.ts; and every example is a complete standalone Pulumi
 * project (Pulumi.yaml, package.json depending on this package's version by a registry range,
 * tsconfig.json, README.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..", "..");
const examplesDir = path.join(repoRoot, "examples");
const packageVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const examples = fs
  .readdirSync(examplesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const EXPECTED = [
  "adopt-existing-endpoint",
  "billing-report",
  "gated-rollout",
  "gitops",
  "load-balancing-endpoint",
  "platform-policy",
  "private-registry",
  "python-worker",
  "quickstart",
  "secrets",
  "serverless-smoke-tests",
];

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(repoRoot, "tsconfig.json");
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot, undefined, configPath);
  return {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    baseUrl: repoRoot,
    paths: { "pulumi-gpucloud": ["./sdk/index.ts"] },
  };
}

function format(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => repoRoot,
    getNewLine: () => "\n",
  });
}

describe("examples/", () => {
  it("has the eleven examples", () => {
    expect(examples).toEqual(EXPECTED);
  });

  it("type-check against the SDK with zero diagnostics", { timeout: 120_000 }, () => {
    const roots = examples.map((name) => path.join(examplesDir, name, "index.ts"));
    const program = ts.createProgram(roots, compilerOptions());
    const diagnostics = ts.getPreEmitDiagnostics(program);
    expect(format(diagnostics)).toBe("");
    // The mapping took effect: the examples were checked against the SDK source, not a build.
    const files = program.getSourceFiles().map((f) => path.relative(repoRoot, f.fileName));
    expect(files).toContain(path.join("sdk", "index.ts"));
    for (const name of examples) expect(files).toContain(path.join("examples", name, "program.ts"));
  });

  describe.each(examples)("%s", (name) => {
    const dir = path.join(examplesDir, name);
    const read = (file: string): string => fs.readFileSync(path.join(dir, file), "utf8");

    it("is a standalone Pulumi project on this package", () => {
      for (const file of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts", "program.ts", "README.md"]) {
        expect(fs.existsSync(path.join(dir, file)), `${name}/${file}`).toBe(true);
      }
      expect(read("Pulumi.yaml")).toMatch(/^runtime: nodejs$/m);
      expect(read("Pulumi.yaml")).toMatch(/^name: \S+$/m);
      const pkg = JSON.parse(read("package.json")) as { dependencies?: Record<string, string> };
      // A registry range, not a path into this repository: a copied example installs the package
      // (test/engine/examples-installed.test.ts runs two that way from the packed tarball).
      expect(pkg.dependencies?.["pulumi-gpucloud"]).toBe(`^${packageVersion}`);
      expect(pkg.dependencies?.["@pulumi/pulumi"]).toBeDefined();
      const tsconfig = JSON.parse(read("tsconfig.json")) as { compilerOptions?: { strict?: boolean } };
      expect(tsconfig.compilerOptions?.strict).toBe(true);
      // index.ts runs program(); the program imports the package by name, as a user's would.
      expect(read("index.ts")).toMatch(/import \{ program \} from "\.\/program";\s+export = program\(\);/);
      expect(read("program.ts")).toContain('import * as gpucloud from "pulumi-gpucloud";');
      expect(read("program.ts")).not.toMatch(/from "\.\.\//);
    });

    it("runs from the installed package: its README's commands need nothing from the repository", () => {
      const commands = [...read("README.md").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "").join("\n");
      expect(commands).toContain("npx gpucloud-emulator");
      // The repository's scripts, its root and paths through it are not in a copied example.
      expect(commands).not.toMatch(/npm ci|npm run emulator|\.\.\/\.\.\/|examples\//);
    });

    it("says how to run it against the emulator, through the management API v2", () => {
      const readme = read("README.md");
      expect(readme).toMatch(/npm run emulator|npx gpucloud-emulator/);
      expect(readme).toContain("pulumi up");
      // Either the stack config is set by hand, or the stack files carry it (gitops).
      const stackFiles = fs.readdirSync(dir).filter((f) => /^Pulumi\.[^.]+\.yaml$/.test(f));
      if (stackFiles.length === 0) {
        expect(readme).toMatch(/pulumi config set gpucloud:apiUrl \S+\/v2\b/);
        expect(readme).toContain("pulumi config set gpucloud:serverlessUrl");
        expect(readme).toContain("pulumi config set --secret gpucloud:apiKey");
      } else {
        // The stack files hold what differs per environment; where it deploys comes from the
        // environment (gitops: the emulator in CI, the service in production).
        expect(readme).toMatch(/GPUCLOUD_API_URL=\S+\/v2\b/);
        for (const file of stackFiles) expect(read(file)).not.toMatch(/gpucloud:apiKey/);
      }
    });
  });

  it("gitops: dev and prod stacks differ in workersMax and gpuTypeIds", () => {
    const dev = fs.readFileSync(path.join(examplesDir, "gitops", "Pulumi.dev.yaml"), "utf8");
    const prod = fs.readFileSync(path.join(examplesDir, "gitops", "Pulumi.prod.yaml"), "utf8");
    const workersMax = (text: string) => /gpucloud-gitops:workersMax: "(\d+)"/.exec(text)?.[1];
    const gpus = (text: string) => /gpucloud-gitops:gpuTypeIds:\n((?:\s+- .+\n)+)/.exec(text)?.[1]?.trim();
    expect(workersMax(dev)).toBeDefined();
    expect(workersMax(prod)).toBeDefined();
    expect(workersMax(dev)).not.toBe(workersMax(prod));
    expect(gpus(dev)).toBeDefined();
    expect(gpus(dev)).not.toBe(gpus(prod));
    expect(fs.readFileSync(path.join(examplesDir, "gitops", "README.md"), "utf8")).toContain(
      "pulumi preview --stack dev --expect-no-changes",
    );
  });
});
