/**
 * The README's minimal project works when copied: its four files (read from the README's code
 * blocks, so the two cannot drift apart) in a folder outside the repo, the package installed from
 * `npm pack` into it, `pulumi preview` and `pulumi up` against the emulator with the settings the
 * README gives. The machine has no Node.js language host for the CLI, so the program is the
 * project's own compiled index.ts (its tsconfig, `outDir` bin), run by the project's automation API
 * with the project as the work dir. Before that, `tsc --noEmit` with the README's tsconfig (Pulumi's
 * stock one: no skipLibCheck, node10 resolution) must report nothing, for the package's three entry
 * points.
 *
 * Needs a current dist/ (`npx tsc -p tsconfig.json`): that is what `npm pack` ships.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { installPackedCopy } from "../../scripts/lib/packedInstall";
import { createEngineStack, type AutomationModule, type EngineStack } from "../support/engineStack";
import { accountOf } from "./provider-support";

const repoRoot = path.resolve(__dirname, "..", "..");
const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");

/** The diagnostics of `tsc --noEmit -p <project>`, one line each (none: it type-checks). */
function typeCheck(project: string): string[] {
  try {
    execFileSync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", project], { stdio: "pipe", encoding: "utf8" });
    return [];
  } catch (error) {
    const out = String((error as { stdout?: unknown }).stdout ?? "") + String((error as { stderr?: unknown }).stderr ?? "");
    const lines = out.split("\n").filter((line) => line.trim() !== "");
    return lines.length > 0 ? lines : [String(error)];
  }
}

/** The code blocks of the README's "A complete minimal project" section, by the file each follows. */
function readmeProject(readme: string): Record<"Pulumi.yaml" | "package.json" | "tsconfig.json" | "index.ts", string> {
  const start = readme.indexOf("## A complete minimal project");
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end);
  const files: Record<string, string> = {};
  for (const m of section.matchAll(/`([^`\s]+)`[^`\n]*:\n\n```\w+\n([\s\S]*?)```/g)) files[m[1] ?? ""] = m[2] ?? "";
  for (const name of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts"]) {
    if (files[name] === undefined) throw new Error(`the README's minimal project has no ${name} block`);
  }
  return files as ReturnType<typeof readmeProject>;
}

describe("the README's minimal project, copied into a fresh folder", { timeout: 300_000 }, () => {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  let base: string;
  let projectDir: string;
  let emulator: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-readme-"));
    ({ projectDir } = installPackedCopy(base));
    for (const [name, text] of Object.entries(readmeProject(readme))) fs.writeFileSync(path.join(projectDir, name), text);
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: ["dev-key"] });
    // The settings exactly as the README sets them, on the emulator's port.
    const config = [...readme.matchAll(/pulumi config set (--secret )?(gpucloud:\w+) (\S+)/g)].slice(0, 3);
    expect(config.map((m) => m[2])).toEqual(["gpucloud:apiUrl", "gpucloud:serverlessUrl", "gpucloud:apiKey"]);
    const port = new URL(emulator.apiUrlV2).port;
    engine = await createEngineStack({
      projectName: "gpucloud-minimal",
      workDir: projectDir,
      automation: createRequire(path.join(projectDir, "index.js"))("@pulumi/pulumi/automation") as AutomationModule,
      config: Object.fromEntries(
        config.map((m) => [m[2] ?? "", { value: (m[3] ?? "").replace(":8787", `:${port}`), secret: m[1] !== undefined }]),
      ),
      // Loaded afresh for each run, as the language host does: a cached module would register nothing.
      program: async () => {
        const load = createRequire(path.join(projectDir, "index.js"));
        const program = path.join(projectDir, "bin", "index.js");
        delete load.cache[load.resolve(program)];
        return load(program) as Record<string, unknown>;
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && accountOf(emulator, "dev-key").networkVolumes.length > 0) await engine.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await emulator?.close();
      if (base) await fs.promises.rm(base, { recursive: true, force: true });
    }
  });

  it("type-checks with its tsconfig (Pulumi's stock one, no skipLibCheck), the emulator and provider entry points included", () => {
    // The package's public declarations are checked as a user's `tsc` checks them: every .d.ts they
    // reach, zod's included if they named its types (63 errors inside zod under this tsconfig).
    const uses = path.join(projectDir, "entryPoints.ts");
    fs.writeFileSync(
      uses,
      'import { startEmulator } from "pulumi-gpucloud/emulator";\nimport * as provider from "pulumi-gpucloud/provider";\nexport { startEmulator, provider };\n',
    );
    const config = path.join(projectDir, "tsconfig.entryPoints.json");
    fs.writeFileSync(config, JSON.stringify({ extends: "./tsconfig.json", files: ["index.ts", "entryPoints.ts"] }));
    try {
      for (const project of [projectDir, config]) expect(typeCheck(project)).toEqual([]);
    } finally {
      fs.rmSync(uses);
      fs.rmSync(config);
    }
  });

  it("compiles with its tsconfig into bin/, previews and deploys on the emulator", async () => {
    execFileSync(process.execPath, [tsc, "-p", projectDir], { stdio: "pipe" });
    expect(fs.existsSync(path.join(projectDir, "bin", "index.js"))).toBe(true);

    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toMatchObject({ create: 2 });
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const volumes = accountOf(emulator, "dev-key").networkVolumes;
    expect(volumes.map((v) => [v.id, v.name, v.size])).toEqual([[up.outputs["volumeId"]?.value, "models", 10]]);
  });
});
