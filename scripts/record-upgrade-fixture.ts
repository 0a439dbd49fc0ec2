/**
 * Records an upgrade fixture: the state that the package at a git ref writes, for the upgrade test
 * (test/engine/upgrade.test.ts) to replay with the current code.
 *
 *   npm run build && npx node dist/scripts/record-upgrade-fixture.js [REF]     (default REF: HEAD)
 *
 * It checks REF out into a temporary worktree, gives it this checkout's node_modules (hard links)
 * and builds it; packs that build and installs it into a project outside the repo, as a user's
 * project has it (so each resource's `__provider` in state is the bare
 * `require("pulumi-gpucloud/provider/shims/<kind>")` users have); starts REF's emulator with a
 * state file; deploys the representative program (test/engine/upgrade/stackProgram.js) as a v2 and a
 * v1 stack; and writes into test/engine/fixtures/upgrade/<version>-<commit>/: each stack's
 * `pulumi stack export` and settings file, the emulator's state file, the program, a manifest.
 *
 * Re-recording an existing version replaces its folder. Fixtures are the baseline users upgrade
 * from: record a released version once, and do not re-record it with later code.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulatorChild } from "./lib/emulatorCli";
import { automationOf, fileBackend, inlineStack, runPulumi } from "./lib/fileBackend";
import { installPackedCopy } from "./lib/packedInstall";
import { ensurePulumiCli } from "./lib/pulumiCli";
import { repoRoot } from "./lib/repoRoot";
import {
  FIXTURE_FILES,
  type FixtureManifest,
  type FixtureStack,
  type StackProgram,
  emulatorStackConfig,
  stackProgramSource,
  upgradeFixturesDir,
} from "./lib/upgradeFixture";

const PASSPHRASE = "upgrade-fixture-passphrase";
const API_KEY = "gpc_emu_upgrade_fixture_dev_key";
const PROJECT = "upgrade-fixture";
const TIME_SCALE = 0.01;
/** Fixed, below the ephemeral range, so that the replay can serve the same URLs (see FixtureManifest.emulatorPort). */
const EMULATOR_PORT = 28787;
const STACKS: readonly { name: string; api: "v1" | "v2" }[] = [
  { name: "v2", api: "v2" },
  { name: "v1", api: "v1" },
];
const PROGRAM_IN_WORDS =
  "RegistryAuth, NetworkVolume, Pod (on the volume, with the registry auth), Template, QUEUE Endpoint with a JobRunner smoke test, " +
  "on v2 also a LOAD_BALANCER Endpoint on its own Template, an EndpointRollout (version 1.0) and a CostReport; see stackProgram.js";

function git(args: readonly string[], cwd: string = repoRoot()): string {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function log(message: string): void {
  process.stderr.write(`[record-upgrade-fixture] ${message}\n`);
}

async function main(): Promise<void> {
  const ref = process.argv[2] ?? "HEAD";
  const root = repoRoot();
  const commit = git(["rev-parse", "--short", `${ref}^{commit}`]);
  const cli = ensurePulumiCli();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-record-"));
  const src = path.join(base, "src");
  log(`${ref} is ${commit}; working in ${base}`);
  git(["worktree", "add", "--detach", src, commit]);
  try {
    // Hard links: no copy of the bytes, and no npm install (no registry needed).
    execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(src, "node_modules")]);
    execFileSync(process.execPath, [path.join(src, "scripts", "link-self.js")], { cwd: src });
    log("building the ref");
    execFileSync(process.execPath, [path.join(src, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], {
      cwd: src,
      stdio: "inherit",
    });
    const packageVersion = (JSON.parse(fs.readFileSync(path.join(src, "package.json"), "utf8")) as { version: string }).version;
    const fixtureDir = path.join(upgradeFixturesDir(root), `${packageVersion}-${commit}`);
    fs.rmSync(fixtureDir, { recursive: true, force: true });
    fs.mkdirSync(fixtureDir, { recursive: true });
    fs.copyFileSync(stackProgramSource(root), path.join(fixtureDir, FIXTURE_FILES.program));

    log("packing the ref and installing it into a project");
    const { projectDir } = installPackedCopy(path.join(base, "packed"), src);
    const load = createRequire(path.join(projectDir, "index.js"));
    const gpucloud: unknown = load("pulumi-gpucloud");
    const pulumi: unknown = load("@pulumi/pulumi");
    const automation = automationOf(projectDir);
    const program = require(path.join(fixtureDir, FIXTURE_FILES.program)) as StackProgram;

    const statePath = path.join(base, "emulator-state.json");
    const emulator = await startEmulatorChild({ root: src, apiKeys: [API_KEY], statePath, timeScale: TIME_SCALE, port: EMULATOR_PORT });
    const backend = fileBackend(path.join(base, "backend"), cli, PASSPHRASE);
    const stacks: FixtureStack[] = [];
    try {
      for (const { name, api } of STACKS) {
        log(`deploying stack ${name} (${api})`);
        const stack = await inlineStack(backend, {
          automation,
          workDir: projectDir,
          projectName: PROJECT,
          stackName: name,
          program: async () => program(gpucloud, pulumi, { api }),
        });
        await stack.setAllConfig(emulatorStackConfig(emulator, api, API_KEY));
        const up = await stack.up({ onOutput: (o) => process.stderr.write(o) });
        if (up.summary.result !== "succeeded") throw new Error(`up of ${name} did not succeed: ${up.summary.result}`);
        const preview = await stack.preview({ expectNoChanges: true });
        log(`stack ${name}: ${JSON.stringify(up.summary.resourceChanges)}; preview right after: ${JSON.stringify(preview.changeSummary)}`);
        const exported = runPulumi(backend, projectDir, ["stack", "export", "--stack", name]);
        fs.writeFileSync(path.join(fixtureDir, FIXTURE_FILES.stackState(name)), exported);
        fs.copyFileSync(path.join(projectDir, FIXTURE_FILES.stackSettings(name)), path.join(fixtureDir, FIXTURE_FILES.stackSettings(name)));
        const resources = (JSON.parse(exported) as { deployment?: { resources?: { type: string }[] } }).deployment?.resources ?? [];
        const resourceTypes: Record<string, number> = {};
        for (const r of resources) resourceTypes[r.type] = (resourceTypes[r.type] ?? 0) + 1;
        stacks.push({ name, api, resourceTypes });
      }
    } finally {
      const code = await emulator.stop();
      if (code !== 0) log(`the emulator exited with ${code}:\n${emulator.output()}`);
    }
    fs.copyFileSync(statePath, path.join(fixtureDir, FIXTURE_FILES.emulatorState));
    const manifest: FixtureManifest = {
      ref,
      commit,
      packageVersion,
      recordedAt: new Date().toISOString(),
      pulumiCli: cli.version,
      passphrase: PASSPHRASE,
      apiKey: API_KEY,
      projectName: PROJECT,
      timeScale: TIME_SCALE,
      emulatorPort: EMULATOR_PORT,
      program: PROGRAM_IN_WORDS,
      stacks,
      config: {},
    };
    fs.writeFileSync(path.join(fixtureDir, FIXTURE_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    log(`wrote ${path.relative(root, fixtureDir)}`);
  } finally {
    git(["worktree", "remove", "--force", src]);
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
