/**
 * What an upgrade fixture is (test/engine/fixtures/upgrade/<version>/): the files the recorder
 * (scripts/record-upgrade-fixture.ts) writes and the upgrade test (test/engine/upgrade.test.ts)
 * reads. A fixture is self-describing: everything the test needs to replay it (passphrase, API key,
 * project and stack names, the program) is in its folder, so later changes here never reinterpret
 * an old recording.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./repoRoot";

/** Where the fixtures live, one folder per recorded version (`<package version>-<short commit>`). */
export function upgradeFixturesDir(root: string = repoRoot()): string {
  return path.join(root, "test", "engine", "fixtures", "upgrade");
}

/** The program every fixture deploys; copied into each fixture folder when it is recorded. */
export function stackProgramSource(root: string = repoRoot()): string {
  return path.join(root, "test", "engine", "upgrade", "stackProgram.js");
}

/** File names inside a fixture folder. */
export const FIXTURE_FILES = {
  manifest: "manifest.json",
  program: "stackProgram.js",
  emulatorState: "emulator-state.json",
  /** `pulumi stack export` of a stack (secrets as ciphertext). */
  stackState: (stack: string) => `stack-${stack}.json`,
  /** The stack's settings file (its encryption salt: the ciphertext above needs it). */
  stackSettings: (stack: string) => `Pulumi.${stack}.yaml`,
} as const;

/** One recorded stack: its name, the management API it ran on and the program's options. */
export interface FixtureStack {
  name: string;
  api: "v1" | "v2";
  /** The types (`pulumi-nodejs:dynamic/gpucloud:Pod`, `gpucloud:index:JobRunner`, ...) and counts its state holds. */
  resourceTypes: Record<string, number>;
}

export interface FixtureManifest {
  /** The git ref asked for, and the commit it was. */
  ref: string;
  commit: string;
  /** The package's version at that commit. */
  packageVersion: string;
  recordedAt: string;
  pulumiCli: string;
  /** A test stack's passphrase, not a secret: it only protects the fixture's own made-up secrets. */
  passphrase: string;
  /** The emulator's dev API key the stacks ran with (the saved emulator state's only account). */
  apiKey: string;
  projectName: string;
  /** Emulator time scale during the recording. */
  timeScale: number;
  /**
   * The emulator's port during the recording. The service's URLs are in the state (an endpoint's
   * `requestUrls`, the provider's config), so a replay serves the emulator at the same URLs: a
   * user's upgrade does not move the service either.
   */
  emulatorPort: number;
  /** What the program declared, in words. */
  program: string;
  stacks: FixtureStack[];
  /** Stack config, besides the emulator URLs and the API key (set per run). */
  config: Record<string, string>;
}

export function readManifest(fixtureDir: string): FixtureManifest {
  return JSON.parse(fs.readFileSync(path.join(fixtureDir, FIXTURE_FILES.manifest), "utf8")) as FixtureManifest;
}

/** The recorded fixture folders, oldest version first (by recording date). */
export function recordedFixtures(root: string = repoRoot()): string[] {
  const dir = upgradeFixturesDir(root);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((p) => fs.existsSync(path.join(p, FIXTURE_FILES.manifest)))
    .sort((a, b) => readManifest(a).recordedAt.localeCompare(readManifest(b).recordedAt));
}

/** Stack config pointing a stack at an emulator, for the automation API's setAllConfig. */
export function emulatorStackConfig(
  urls: { apiUrl: string; apiUrlV2: string; serverlessUrl: string },
  api: "v1" | "v2",
  apiKey: string,
): Record<string, { value: string; secret?: boolean }> {
  return {
    "gpucloud:apiUrl": { value: api === "v2" ? urls.apiUrlV2 : urls.apiUrl },
    "gpucloud:serverlessUrl": { value: urls.serverlessUrl },
    "gpucloud:apiKey": { value: apiKey, secret: true },
  };
}

/** The signature of a fixture's stackProgram.js. */
export type StackProgram = (gpucloud: unknown, pulumi: unknown, options: { api: "v1" | "v2"; change?: boolean }) => Record<string, unknown>;
