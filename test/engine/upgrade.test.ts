/**
 * Upgrades never touch a running stack. For each recorded fixture (test/engine/fixtures/upgrade/
 * <version>/, written by scripts/record-upgrade-fixture.ts with the package at that version): the
 * recorded Pulumi state is imported into a fresh file backend, the current emulator starts on a copy
 * of the recorded emulator state file, and the CURRENT package, installed from `npm pack` as a
 * user's project has it (each resource's `__provider` in the recorded state is a bare
 * `require("pulumi-gpucloud/provider/shims/<kind>")`, which now loads this code), runs the fixture's
 * own copy of the program:
 *   1. `preview --expect-no-changes`: nothing to update or replace;
 *   2. `refresh`: no drift; every output the recorded version stored is read back, with the same
 *      value (a restarted pod's address and ports excepted), and the preview after it is clean;
 *   3. an `up` that changes one field (the queue endpoint's workersMax): an update in place;
 *   4. `destroy`: the emulator holds nothing afterwards.
 *
 * Output-only changes: the engine (Pulumi CLI 3.259, default refresh diff) shows neither at preview
 * nor at refresh what the provider's diff does not report, and the diff compares arguments, so an
 * output that code adds, drops or renames passes steps 1 and 2's engine checks silently. Step 2
 * therefore compares the outputs itself (a new output is allowed: it breaks no reader).
 *
 * The emulator restarts with service time after the recording (its clock never runs backwards over
 * a saved state: emulator/index.ts), so recorded timestamps are in the past, as they would be.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmulatorChild, type EmulatorChild, type EmulatorChildOptions } from "../../scripts/lib/emulatorCli";
import { automationOf, fileBackend, inlineStack, runPulumi, type FileBackend } from "../../scripts/lib/fileBackend";
import { installPackedCopy } from "../../scripts/lib/packedInstall";
import { FIXTURE_FILES, emulatorStackConfig, readManifest, recordedFixtures, type StackProgram } from "../../scripts/lib/upgradeFixture";
import { resourcesInStateFile } from "../support/emulatorProcess";

const fixtures = recordedFixtures();

/** How long a replay waits for the recorded port while another checkout's replay holds it. */
const PORT_WAIT_MS = 15 * 60_000;

/**
 * The emulator on the recording's port. The port is fixed (the state's URLs and the smoke tests'
 * revisions, which hash them, name it), so two checkouts running the suite on one machine take
 * turns: while another replay holds the port, this one waits for it rather than failing.
 */
async function startOnRecordedPort(options: EmulatorChildOptions & { port: number }): Promise<EmulatorChild> {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    try {
      return await startEmulatorChild(options);
    } catch (err) {
      if (!String(err).includes("EADDRINUSE") || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/** Change kinds that mean a resource was (or would be) touched. */
const CHANGE_KINDS = ["create", "update", "delete", "replace", "create-replacement", "delete-replaced", "import"];

/** The change counts of a summary other than `same`. */
function changesOf(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [kind, count] of Object.entries(summary ?? {})) if (kind !== "same" && count) out[kind] = count;
  return out;
}

interface StateResource {
  urn: string;
  outputs?: Record<string, unknown>;
}

/**
 * Outputs whose value is the service's reading of the moment, not a shape: they may differ after a
 * refresh with any version. Each entry: resource type suffix, output path, why.
 */
const ALLOWED_DIFFERENCES: readonly { type: string; path: string; why: string }[] = [
  // The emulator boots RUNNING pods again when it restarts on a state file (the service's pods get
  // a new address when they restart too): the reading changes, not its shape.
  { type: "Pod", path: "publicIp", why: "a restarted pod's new address" },
  { type: "Pod", path: "portMappings", why: "a restarted pod's new public ports" },
  // A defect of 0.1.0 itself, not of an upgrade: create stores costPerHr, read (refresh) does not
  // carry it, on v1 and v2 alike, though the service's GET has it. Remove this entry with the fix.
  { type: "Pod", path: "costPerHr", why: "0.1.0's refresh drops it (known defect)" },
];

function isAllowed(urn: string, at: string): boolean {
  return ALLOWED_DIFFERENCES.some((v) => urn.includes(`gpucloud:${v.type}::`) && (at === v.path || at.startsWith(`${v.path}.`)));
}

/** Pulumi's marker of a secret in an exported state (the ciphertext differs on every write). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A state's values with each secret replaced by "[secret]": a secret must stay one, whatever its ciphertext. */
function withSecretsMarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSecretsMarked);
  if (typeof value !== "object" || value === null) return value;
  if (SECRET_SIG in value) return "[secret]";
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSecretsMarked(v)]));
}

/**
 * What changed between the recorded outputs and the ones the current code wrote for the same
 * resources: a recorded output that is gone (renamed or dropped) or holds another value (reshaped),
 * as `urn: path: recorded -> now`. An output that is new is not a difference: adding one breaks no
 * program reading the old ones.
 */
function outputDifferences(recorded: readonly StateResource[], now: readonly StateResource[]): string[] {
  const out: string[] = [];
  const nowByUrn = new Map(now.map((r) => [r.urn, r]));
  const walk = (urn: string, at: string, before: unknown, after: unknown): void => {
    if (isAllowed(urn, at)) return;
    if (
      typeof before === "object" &&
      before !== null &&
      typeof after === "object" &&
      after !== null &&
      Array.isArray(before) === Array.isArray(after)
    ) {
      for (const key of Object.keys(before)) {
        const next = (after as Record<string, unknown>)[key];
        const prev = (before as Record<string, unknown>)[key];
        const child = at ? `${at}.${key}` : key;
        if (!(key in after)) {
          if (!isAllowed(urn, child)) out.push(`${urn}: ${child}: ${JSON.stringify(prev)} -> (gone)`);
        } else walk(urn, child, prev, next);
      }
      return;
    }
    if (JSON.stringify(before) !== JSON.stringify(after)) out.push(`${urn}: ${at}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
  };
  for (const resource of recorded) {
    if (!resource.outputs || resource.urn.includes("pulumi:providers:")) continue;
    const current = nowByUrn.get(resource.urn);
    if (!current) out.push(`${resource.urn}: (gone from the state)`);
    else walk(resource.urn, "", withSecretsMarked(resource.outputs), withSecretsMarked(current.outputs ?? {}));
  }
  return out;
}

it("has at least one recorded fixture", () => {
  expect(fixtures.map((f) => path.basename(f))).toContain("0.1.0-b72936d");
});

describe.each(fixtures.map((dir) => [path.basename(dir), dir] as const))(
  "upgrading from %s",
  { timeout: 600_000 },
  (_version, fixtureDir) => {
    const manifest = readManifest(fixtureDir);
    let base: string;
    let projectDir: string;
    let emulator: EmulatorChild;
    let statePath: string;
    let backend: FileBackend;
    let log = "";
    const stacks = new Map<string, { stack: Stack; change: boolean }>();

    beforeAll(async () => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-upgrade-"));
      ({ projectDir } = installPackedCopy(path.join(base, "packed")));
      statePath = path.join(base, "emulator-state.json");
      fs.copyFileSync(path.join(fixtureDir, FIXTURE_FILES.emulatorState), statePath);
      // The recorded URLs (the state holds them: endpoints' requestUrls, the provider's config).
      emulator = await startOnRecordedPort({ apiKeys: [manifest.apiKey], statePath, timeScale: 0.01, port: manifest.emulatorPort });
      backend = fileBackend(path.join(base, "backend"), inject("pulumiCli"), manifest.passphrase);

      const load = createRequire(path.join(projectDir, "index.js"));
      const gpucloud: unknown = load("pulumi-gpucloud");
      const pulumi: unknown = load("@pulumi/pulumi");
      const program = require(path.join(fixtureDir, FIXTURE_FILES.program)) as StackProgram;
      for (const recorded of manifest.stacks) {
        // The recorded settings file carries the stack's encryption salt: the state's ciphertext needs it.
        fs.copyFileSync(
          path.join(fixtureDir, FIXTURE_FILES.stackSettings(recorded.name)),
          path.join(projectDir, FIXTURE_FILES.stackSettings(recorded.name)),
        );
        const entry = { stack: undefined as unknown as Stack, change: false };
        entry.stack = await inlineStack(backend, {
          automation: automationOf(projectDir),
          workDir: projectDir,
          projectName: manifest.projectName,
          stackName: recorded.name,
          program: async () => program(gpucloud, pulumi, { api: recorded.api, change: entry.change }),
        });
        await entry.stack.setAllConfig(emulatorStackConfig(emulator, recorded.api, manifest.apiKey));
        runPulumi(backend, projectDir, [
          "stack",
          "import",
          "--stack",
          recorded.name,
          "--file",
          path.join(fixtureDir, FIXTURE_FILES.stackState(recorded.name)),
        ]);
        stacks.set(recorded.name, entry);
      }
    }, PORT_WAIT_MS + 120_000);

    afterAll(async () => {
      try {
        // A failed step must not leave the stacks' resources behind in the emulator's work.
        for (const { stack } of stacks.values()) await stack.destroy().catch(() => undefined);
      } finally {
        await emulator?.stop();
        if (base) await fs.promises.rm(base, { recursive: true, force: true });
      }
    });

    const append = (out: string): void => {
      log += out;
    };
    const record = { onOutput: append, onError: append };
    const stackOf = (name: string): { stack: Stack; change: boolean } => {
      const entry = stacks.get(name);
      if (!entry) throw new Error(`stack ${name} was not imported`);
      return entry;
    };

    it("imported every recorded resource", async () => {
      for (const recorded of manifest.stacks) {
        const deployment = await stackOf(recorded.name).stack.exportStack();
        const resources = (deployment.deployment as { resources?: { type: string }[] }).resources ?? [];
        const types: Record<string, number> = {};
        for (const r of resources) types[r.type] = (types[r.type] ?? 0) + 1;
        expect(types, `stack ${recorded.name}`).toEqual(recorded.resourceTypes);
      }
    });

    it.each(manifest.stacks.map((s) => [s.name]))("stack %s: the current code plans no change", async (name) => {
      const preview = await stackOf(name).stack.preview({ expectNoChanges: true, diff: true, ...record });
      expect(changesOf(preview.changeSummary), log).toEqual({});
    });

    it.each(manifest.stacks.map((s) => [s.name]))(
      "stack %s: refresh finds no drift, reads back every recorded output, and the plan stays empty",
      async (name) => {
        const { stack } = stackOf(name);
        const refresh = await stack.refresh(record);
        expect(changesOf(refresh.summary.resourceChanges), log).toEqual({});
        // The engine's refresh reports only what the provider's diff sees (changes against the
        // program), so a renamed or reshaped output would pass it: compare what read wrote with
        // what the recorded version stored.
        const recorded = JSON.parse(fs.readFileSync(path.join(fixtureDir, FIXTURE_FILES.stackState(name)), "utf8")) as {
          deployment: { resources: StateResource[] };
        };
        // Exported by the CLI as the recording was: secrets as ciphertext, not decrypted.
        const now = (
          JSON.parse(runPulumi(backend, projectDir, ["stack", "export", "--stack", name])) as { deployment: { resources: StateResource[] } }
        ).deployment;
        expect(outputDifferences(recorded.deployment.resources, now.resources)).toEqual([]);
        const preview = await stack.preview({ expectNoChanges: true, ...record });
        expect(changesOf(preview.changeSummary), log).toEqual({});
      },
    );

    it.each(manifest.stacks.map((s) => [s.name]))("stack %s: one changed field is updated in place", async (name) => {
      const entry = stackOf(name);
      entry.change = true;
      const ops = new Map<string, string>();
      const up = await entry.stack.up({
        ...record,
        onEvent: (event) => {
          const meta = event.resOutputsEvent?.metadata;
          if (meta && meta.op !== "same") ops.set(meta.urn, meta.op);
        },
      });
      expect(up.summary.result).toBe("succeeded");
      const changes = changesOf(up.summary.resourceChanges);
      for (const kind of CHANGE_KINDS.filter((k) => k !== "update"))
        expect(changes[kind], `${kind} in ${JSON.stringify(changes)}\n${log}`).toBeUndefined();
      expect([...ops.entries()].filter(([urn]) => urn.endsWith("::queue"))).toEqual([
        [expect.stringMatching(/gpucloud:Endpoint::queue$/), "update"],
      ]);
      const after = await entry.stack.preview({ expectNoChanges: true, ...record });
      expect(changesOf(after.changeSummary), log).toEqual({});
    });

    it("destroy removes everything the stacks held from the emulator", async () => {
      for (const recorded of manifest.stacks) {
        const destroy = await stackOf(recorded.name).stack.destroy(record);
        expect(destroy.summary.result).toBe("succeeded");
        expect(Object.keys(changesOf(destroy.summary.resourceChanges))).toEqual(["delete"]);
      }
      // A clean stop writes the state file once more: it is what the emulator held last.
      expect(await emulator.stop()).toBe(0);
      expect(resourcesInStateFile(statePath)).toEqual([]);
    });
  },
);
