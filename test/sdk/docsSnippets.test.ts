/**
 * The TypeScript in the user's documentation compiles: every ```ts block of README.md and docs/
 * that is a whole module (it starts with an import) type-checks against the SDK's source with the
 * repository's strict options, each block a module of its own. Fragments (no import: a few lines
 * of a larger program) are left out. The job client's example is also run (jobClientExample.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "..", "..");

/** Each whole-module TypeScript block of the documentation, named after its file and place. */
function snippets(): { name: string; code: string }[] {
  const docs = fs
    .readdirSync(path.join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file));
  return ["README.md", ...docs].flatMap((file) =>
    [...fs.readFileSync(path.join(repoRoot, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m, i) => ({ name: `${file.replace(/[/\\.]/g, "_")}_${i + 1}.ts`, code: m[1] ?? "" }))
      .filter((snippet) => /^(\/\/.*\n)*import /.test(snippet.code)),
  );
}

describe("the documentation's TypeScript", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-doc-snippets-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("type-checks against the SDK, block by block", { timeout: 180_000 }, () => {
    const found = snippets();
    expect(found.map((s) => s.name)).toEqual(
      expect.arrayContaining(["docs_job-client_md_1.ts", "docs_rollouts_md_1.ts", "README_md_1.ts"]),
    );
    for (const { name, code } of found) fs.writeFileSync(path.join(dir, name), code);
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(repoRoot, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error("tsconfig.json could not be read");
    // The snippets lie outside the repository, so its rootDir does not hold.
    const { rootDir: _rootDir, ...options } = config.options;
    const program = ts.createProgram(
      found.map((s) => path.join(dir, s.name)),
      {
        ...options,
        noEmit: true,
        declaration: false,
        sourceMap: false,
        types: ["node"],
        typeRoots: [path.join(repoRoot, "node_modules", "@types")],
        baseUrl: repoRoot,
        // The package by name, as its source; what the snippets import besides, from the repository's node_modules.
        paths: {
          "pulumi-gpucloud": ["./sdk/index.ts"],
          "pulumi-gpucloud/policy": ["./sdk/policy/index.ts"],
          // Generated code, compiled with its own settings (sdks/tsconfig.nodejs.json): its declarations.
          "pulumi-gpucloud/plugin": ["./dist/sdks/nodejs/index.d.ts"],
          "*": ["./node_modules/*"],
        },
      },
    );
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${path.basename(d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
  });
});
