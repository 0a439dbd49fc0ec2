/**
 * The examples as a user runs them: from the installed package, not the repository. For
 * examples/quickstart and examples/serverless-smoke-tests, in a fresh folder outside the repo: the
 * package from `npm pack` installed in place of the registry (its version must satisfy the range
 * the example's package.json names), the example's files copied in, and then the commands of its
 * README's "Run it against the local emulator" section, parsed from the README so that a README
 * that drifts fails here:
 *
 * - `npm install`: done by the packed install above (the machine has no registry);
 * - `npx gpucloud-emulator ARGS`: the installed package's bin, with ARGS as written plus a free port
 *   (parallel runs share the machine) and a faster clock; the URLs the README sets get that port;
 * - `pulumi login --local`, `pulumi stack init NAME`, `pulumi config set [--secret] KEY VALUE`:
 *   a local file backend, stack NAME, that config;
 * - `pulumi up`, `pulumi stack output NAME`: run by the project's own automation API. The machine
 *   has no Node.js language host for the CLI, so the program is the project's index.ts compiled
 *   with its own tsconfig (outDir bin), as test/engine/readme-project.test.ts does.
 *
 * Any other command fails the test: a README that gains a step this test cannot take must say so.
 * Needs a current dist/ (`npm run build`): that is what `npm pack` ships.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installPackedCopy } from "../../scripts/lib/packedInstall";
import { createEngineStack, type AutomationModule, type EngineStack } from "../support/engineStack";

const repoRoot = path.resolve(__dirname, "..", "..");
const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
const SECTION = "## Run it against the local emulator";

/** The shell commands of the README's run section, one per line, comments and continuations removed. */
function runCommands(readme: string): string[] {
  const start = readme.indexOf(SECTION);
  if (start < 0) throw new Error(`the README has no "${SECTION}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  return blocks
    .join("\n")
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s#\s.*$/, "").trim())
    .filter((line) => line !== "");
}

/** Whether `version` satisfies a caret range `^X.Y.Z` (the only form the examples use). */
function satisfiesCaret(range: string, version: string): boolean {
  const parse = (text: string) => text.split(".").map(Number);
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!match?.[1]) return false;
  const [major = 0, minor = 0, patch = 0] = parse(match[1]);
  const [vMajor = 0, vMinor = 0, vPatch = 0] = parse(version);
  if (major > 0) return vMajor === major && (vMinor > minor || (vMinor === minor && vPatch >= patch));
  return vMajor === 0 && vMinor === minor && vPatch >= patch;
}

const manifestSchema = z.object({ version: z.string(), bin: z.record(z.string(), z.string()) });
const examplePackageSchema = z.object({ dependencies: z.record(z.string(), z.string()) });

/** Starts the installed package's emulator bin with the README's arguments; resolves with its v2 URL. */
function startInstalledEmulator(projectDir: string, args: string[]): Promise<{ child: ChildProcess; apiUrlV2: string }> {
  const installed = path.join(projectDir, "node_modules", "pulumi-gpucloud");
  const manifest = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")));
  const bin = manifest.bin["gpucloud-emulator"];
  if (bin === undefined) throw new Error("the installed package has no gpucloud-emulator bin");
  const child = spawn(process.execPath, [path.join(installed, bin), ...args, "--port", "0", "--time-scale", "0.02"], {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let printed = "";
    const onData = (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /management API:\s+(\S+)/.exec(printed)?.[1];
      if (url) resolve({ child, apiUrlV2: url });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`the installed emulator exited (${code}) before listening:\n${printed}`)));
  });
}

interface ExampleRun {
  projectDir: string;
  apiUrlV2: string;
  apiKey: string;
  upOutputs: Record<string, unknown>;
  upChanges: Record<string, number> | undefined;
  stackOutputs: Record<string, unknown>;
  ran: string[];
}

/** Runs the README's commands in `projectDir`, in order; the emulator and the stack are left in `cleanup`. */
async function runReadme(
  projectDir: string,
  projectName: string,
  commands: string[],
  cleanup: (() => Promise<void>)[],
): Promise<ExampleRun> {
  const run: ExampleRun = { projectDir, apiUrlV2: "", apiKey: "", upOutputs: {}, upChanges: undefined, stackOutputs: {}, ran: [] };
  let port = "";
  let loggedIn = false;
  let stackName: string | undefined;
  const config: Record<string, { value: string; secret: boolean }> = {};
  let engine: EngineStack | undefined;

  const stack = async (): Promise<EngineStack> => {
    if (engine) return engine;
    if (!loggedIn || stackName === undefined)
      throw new Error("the README runs pulumi before `pulumi login --local` and `pulumi stack init`");
    execFileSync(process.execPath, [tsc, "-p", projectDir], { stdio: "pipe" });
    const load = createRequire(path.join(projectDir, "index.js"));
    const created = await createEngineStack({
      projectName,
      stackName,
      workDir: projectDir,
      automation: load("@pulumi/pulumi/automation") as AutomationModule,
      config,
      // Loaded afresh for each run, as the language host does: a cached module would register nothing.
      program: async () => {
        const program = path.join(projectDir, "bin", "index.js");
        delete load.cache[load.resolve(program)];
        return load(program) as Record<string, unknown>;
      },
    });
    engine = created;
    cleanup.push(() => created.dispose());
    return created;
  };

  for (const command of commands) {
    const words = command.split(/\s+/);
    const [tool, verb, ...rest] = words;
    if (command === "npm install") {
      // Done: the tarball is installed in place of the registry.
    } else if (tool === "npx" && verb === "gpucloud-emulator") {
      const emulator = await startInstalledEmulator(projectDir, rest);
      cleanup.push(async () => {
        emulator.child.kill("SIGTERM");
      });
      run.apiUrlV2 = emulator.apiUrlV2;
      port = new URL(emulator.apiUrlV2).port;
    } else if (command === "pulumi login --local") {
      loggedIn = true; // the harness's backend is a local file one
    } else if (tool === "pulumi" && verb === "stack" && rest[0] === "init" && rest.length === 2) {
      stackName = rest[1];
    } else if (tool === "pulumi" && verb === "config" && rest[0] === "set") {
      const secret = rest[1] === "--secret";
      const [key = "", value = ""] = rest.slice(secret ? 2 : 1);
      const fullKey = key.includes(":") ? key : `${projectName}:${key}`;
      // The README's URLs name the emulator's default port; this one listens on a free one.
      config[fullKey] = { value: value.replace(":8787", `:${port}`), secret };
      if (fullKey === "gpucloud:apiKey") run.apiKey = value;
    } else if (command === "pulumi up") {
      const up = await (await stack()).stack.up();
      expect(up.summary.result).toBe("succeeded");
      run.upChanges = up.summary.resourceChanges as Record<string, number> | undefined;
      run.upOutputs = Object.fromEntries(Object.entries(up.outputs).map(([key, output]) => [key, output.value]));
    } else if (tool === "pulumi" && verb === "stack" && rest[0] === "output" && rest.length === 2) {
      const outputs = await (await stack()).stack.outputs();
      const name = rest[1] ?? "";
      expect(outputs[name], `pulumi stack output ${name}`).toBeDefined();
      run.stackOutputs[name] = outputs[name]?.value;
    } else {
      throw new Error(`the README's command \`${command}\` is not one this test knows how to run: teach it, or change the README`);
    }
    run.ran.push(command);
  }
  return run;
}

/** A fresh folder with the packed package installed and the example's own files copied over it. */
function installExample(name: string, base: string): { projectDir: string; projectName: string; commands: string[] } {
  const exampleDir = path.join(repoRoot, "examples", name);
  const { projectDir } = installPackedCopy(base);
  // A clone where the example was run in place has its own node_modules and bin/: not the example's.
  const own = (source: string) => !/(^|[\\/])(node_modules|bin)([\\/]|$)/.test(path.relative(exampleDir, source));
  fs.cpSync(exampleDir, projectDir, { recursive: true, filter: own });
  const projectName = /^name: (\S+)$/m.exec(fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
  return { projectDir, projectName, commands: runCommands(fs.readFileSync(path.join(projectDir, "README.md"), "utf8")) };
}

/** What the installed emulator holds for the key, read over its management API. */
async function listOnEmulator(apiUrlV2: string, apiKey: string, collection: string): Promise<string> {
  const response = await fetch(`${apiUrlV2}/${collection}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe.each(["quickstart", "serverless-smoke-tests"])(
  "examples/%s, copied out of the repo and run from the installed package as its README says",
  { timeout: 300_000 },
  (name) => {
    let base: string;
    let run: ExampleRun;
    let installed: { projectDir: string; projectName: string; commands: string[] };
    const cleanup: (() => Promise<void>)[] = [];

    beforeAll(async () => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), `gpucloud-example-${name}-`));
      installed = installExample(name, base);
      run = await runReadme(installed.projectDir, installed.projectName, installed.commands, cleanup);
    });

    afterAll(async () => {
      for (const step of cleanup.reverse()) await step().catch(() => undefined);
      if (base) await fs.promises.rm(base, { recursive: true, force: true });
    });

    it("names the package by a registry range the packed version satisfies, and nothing in the repo", () => {
      const example = examplePackageSchema.parse(JSON.parse(fs.readFileSync(path.join(installed.projectDir, "package.json"), "utf8")));
      const range = example.dependencies["pulumi-gpucloud"] ?? "";
      const version = manifestSchema.parse(JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"))).version;
      expect(satisfiesCaret(range, version), `"pulumi-gpucloud": "${range}" against ${version}`).toBe(true);
      expect(fs.readFileSync(path.join(installed.projectDir, "README.md"), "utf8")).not.toMatch(
        /repository root|npm run emulator|\.\.\/\.\.\//,
      );
    });

    it("runs every command of the README's run section, the emulator started from the installed package", () => {
      expect(run.ran).toEqual(installed.commands);
      expect(run.ran).toContain("npm install");
      expect(run.ran.some((command) => command.startsWith("npx gpucloud-emulator"))).toBe(true);
      expect(run.ran).toContain("pulumi up");
      expect(run.apiKey).not.toBe("");
    });

    if (name === "quickstart") {
      it("deploys the volume, pod, template and endpoint on that emulator", async () => {
        expect(run.upChanges).toEqual({ create: 5 });
        const pods = await listOnEmulator(run.apiUrlV2, run.apiKey, "pods");
        expect(pods).toContain(String(run.upOutputs["podId"]));
        expect(pods).toContain("quickstart-dev-notebook");
        const endpoints = await listOnEmulator(run.apiUrlV2, run.apiKey, "serverless");
        expect(endpoints).toContain(String(run.upOutputs["endpointId"]));
      });
    } else {
      it("deploys, runs the three cases, and `pulumi stack output smokeTests` shows their verdicts", () => {
        const verdicts = z
          .array(z.object({ name: z.string(), passed: z.boolean(), status: z.string(), jobId: z.string() }))
          .parse(run.stackOutputs["smokeTests"]);
        expect(verdicts.map((v) => [v.name, v.passed, v.status])).toEqual([
          ["echo", true, "COMPLETED"],
          ["generate", true, "COMPLETED"],
          ["rejects-empty-prompt", true, "FAILED"],
        ]);
        expect(run.upOutputs["smokeTests"]).toEqual(run.stackOutputs["smokeTests"]);
      });
    }
  },
);
