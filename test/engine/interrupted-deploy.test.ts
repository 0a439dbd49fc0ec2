/**
 * The deploying process dies in the middle of `pulumi up`, as a CI job does at its timeout or on a
 * killed runner: SIGKILL of everything the job started (the deploying Node process, the `pulumi`
 * CLI it started and the dynamic provider host under that), with creates in flight. The user then
 * reruns as the CLI directs: `pulumi up` refuses the locked stack and names `pulumi cancel`;
 * `pulumi cancel --yes`, then `pulumi up` (in one scenario with `pulumi refresh
 * --clear-pending-creates` between, the refresh the rerun's warning suggests). Every create that
 * reached the service must be found and adopted, not made a second time: afterwards the service
 * holds each declared name exactly once and nothing else of the stack, the plan is empty, and
 * `destroy` leaves nothing.
 *
 * The deploying process is test/support/deployDriver.mts, started detached (a session and process
 * group of its own; the CLI starts the provider host in another group of that session, so every
 * group of the session is signalled), on a `file://` backend. The emulator runs as its own process
 * with service time at half speed: a pod boots in 4 real seconds and an endpoint's one minimum
 * worker in 3, so a pod's and an endpoint's creates are in flight (made by the service, waited for
 * by the provider, not in the stack's checkpoint) for seconds. A kill point is a condition on what
 * the service holds (its v2 lists) and what the checkpoint holds: once it is seen, the deploy is
 * frozen (SIGSTOP), the condition is read again with nothing moving, and the deploy is killed (or
 * let go on, when the checkpoint caught up meanwhile). More kill points are one line each in
 * SCENARIOS. The rerun is on the same machine: the same project directory, PULUMI_HOME and package
 * cache directory (GPUCLOUD_CACHE_DIR, the test file's, where the provider's create journal is),
 * but for `newMachine` scenarios, whose rerun has a cache directory of its own (a new CI runner):
 * there only the owner marker the service keeps on pods, templates and v2 endpoints proves what
 * the killed run made.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type EmulatorProcess, freePort, startEmulatorProcess } from "../support/emulatorProcess";
import { hermeticEngineEnv } from "../support/hermeticEnv";
import {
  type CheckpointView,
  type DeclaredNames,
  type DriverArgs,
  type DriverRun,
  deployProcesses,
  halfWrittenBackendFiles,
  KIND_OF,
  type ProcessInfo,
  readCheckpoint,
  runDriver,
  runPulumi,
  type ServiceItem,
  serviceInventory,
  signalGroups,
  startDriver,
  survivors,
} from "../support/interruptedDeploy";
import { findSecrets, readTree, unclearErrors } from "../support/reliability";

const API_KEY = "interrupted-deploy-api-key-3f9b2c71e0";
const REGISTRY_PASSWORD = "interrupted-registry-password-5d1e8a";
const SECRET_VALUE = "interrupted-secret-value-c27f40b9";
const PROJECT = "interrupted-deploy";
const STACK = "ci";
const LOG = "[interrupted deploy]";

function namesFor(prefix: string): DeclaredNames {
  return {
    registry: `${prefix}-registry`,
    secret: `${prefix}-token`,
    networkVolume: `${prefix}-models`,
    podTemplate: `${prefix}-pod-template`,
    workerTemplate: `${prefix}-worker-template`,
    pod: `${prefix}-notebook`,
    endpoint: `${prefix}-inference`,
  };
}

function sshKeyFor(prefix: string): string {
  return `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKill ${prefix}@ci-runner`;
}

/** What the service and the stack's checkpoint hold at one moment. */
interface Moment {
  names: DeclaredNames;
  service: ServiceItem[];
  checkpoint: CheckpointView | undefined;
}

/** The declared resources of these kinds that the service has made and the checkpoint does not hold. */
function inFlight(m: Moment, ...which: (keyof DeclaredNames)[]): ServiceItem[] {
  const wanted = new Set(which.map((k) => `${KIND_OF[k]}:${m.names[k]}`));
  return m.service.filter((r) => wanted.has(`${r.kind}:${r.name}`) && !m.checkpoint?.ids.has(r.id));
}

const FIRST_LEVEL: (keyof DeclaredNames)[] = ["registry", "secret", "networkVolume", "podTemplate", "workerTemplate"];

interface Scenario {
  /** Service-side name prefix, unique per scenario. */
  prefix: string;
  /** Where the kill lands, for the test's name. */
  when: string;
  killWhen: (m: Moment) => boolean;
  /** Between `pulumi cancel` and `pulumi up`, `pulumi refresh --clear-pending-creates` (as the rerun's warning suggests a refresh). */
  clearPendingCreates?: boolean;
  /**
   * The rerun runs on another machine (a new CI runner): a cache directory of its own, so no create
   * journal of the killed run. Only what the service itself carries (the owner marker of pods,
   * templates and v2 endpoints) can prove what the killed run made.
   */
  newMachine?: boolean;
  /**
   * Emulator faults for the whole scenario: a create that needs no readiness wait is recorded
   * within milliseconds, so its kill point is held open by answering it late (`late`: the service
   * makes it at once and answers after the delay, well within the 10 s create timeout).
   */
  faults?: string;
}

/** The first-level creates answered 2 s late: made at once, recorded by the stack only after. */
const LATE_FIRST_LEVEL =
  "seed=1; createTemplate: late=1@2s; createNetworkVolume: late=1@2s; createRegistry: late=1@2s; createSecret: late=1@2s";

/** The kill points, one a line. */
const SCENARIOS: readonly Scenario[] = [
  { prefix: "kill-boot", when: "pod and endpoint made, waited for", killWhen: (m) => inFlight(m, "pod", "endpoint").length === 2 },
  {
    prefix: "kill-early",
    when: "a first-level resource made, not recorded",
    killWhen: (m) => inFlight(m, ...FIRST_LEVEL).length > 0,
    faults: LATE_FIRST_LEVEL,
  },
  {
    prefix: "kill-tmpl",
    when: "a template made, not recorded",
    killWhen: (m) => inFlight(m, "podTemplate", "workerTemplate").length > 0,
    faults: LATE_FIRST_LEVEL,
  },
  { prefix: "kill-clear", when: "the pod made, waited for", killWhen: (m) => inFlight(m, "pod").length === 1, clearPendingCreates: true },
  {
    prefix: "kill-runner",
    when: "pod and endpoint made, waited for",
    killWhen: (m) => inFlight(m, "pod", "endpoint").length === 2,
    newMachine: true,
  },
];

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function describeItems(items: readonly ServiceItem[]): string {
  return items.map((r) => `${r.kind}:${r.name} (${r.id})`).join(", ") || "nothing";
}

/** `kind:name` of the declared resources, and the SSH key, each once: what the service must hold. */
function expectedHoldings(prefix: string): string[] {
  const names = namesFor(prefix);
  return [...(Object.keys(names) as (keyof DeclaredNames)[]).map((k) => `${KIND_OF[k]}:${names[k]}`), `sshKey:${sshKeyFor(prefix)}`].sort();
}

/** `kind:name` of everything the service holds with the prefix, once per resource (a duplicate shows twice). */
function holdingsWithPrefix(service: readonly ServiceItem[], prefix: string): string[] {
  return service
    .filter((r) => r.name.startsWith(`${prefix}-`) || r.name.includes(` ${prefix}@`))
    .map((r) => `${r.kind}:${r.name}`)
    .sort();
}

function duplicatesOf(holdings: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const h of holdings) counts[h] = (counts[h] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 1));
}

describe("the deploying process is SIGKILLed mid-up, with creates in flight", { timeout: 240_000 }, () => {
  let emulator: EmulatorProcess | undefined;
  let driver: DriverRun | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (driver) signalGroups(deployProcesses(driver.pgid), "SIGKILL");
    await emulator?.kill();
    if (dir && process.env["GPUCLOUD_KEEP_ENGINE_DIRS"] !== "1") fs.rmSync(dir, { recursive: true, force: true });
    emulator = undefined;
    driver = undefined;
    dir = undefined;
  });

  for (const scenario of SCENARIOS) {
    const rerun = `${scenario.clearPendingCreates ? "cancel, refresh --clear-pending-creates, up" : "cancel, up"}${scenario.newMachine ? " on another machine" : ""}`;
    it(`killed: ${scenario.when}; rerun ${rerun}: each create made once`, async () => {
      const started = Date.now();
      const cli = inject("pulumiCli");
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-interrupted-"));
      dir = base;
      const stateDir = path.join(base, "state");
      const homeDir = path.join(base, "home");
      const workDir = path.join(base, "project");
      for (const d of [stateDir, homeDir, workDir]) fs.mkdirSync(d, { recursive: true });
      // The provider process resolves `pulumi-gpucloud` from the project directory, as in a user's project.
      fs.symlinkSync(path.resolve(__dirname, "..", "..", "node_modules"), path.join(workDir, "node_modules"), "dir");
      const env = hermeticEngineEnv(cli, { stateDir, homeDir });

      // Service time at half speed: a pod boots in 4 real seconds (2 service seconds), an endpoint's
      // minimum worker in 3 (its cold start, 1.5 service seconds). No rate limit: the test's own
      // polling shares the account.
      const service = await startEmulatorProcess({
        port: await freePort(),
        statePath: path.join(base, "emulator", "state.json"),
        apiKey: API_KEY,
        extra: [
          "--time-scale",
          "2",
          "--boot-delay-ms",
          "2000",
          "--rate-limit",
          "off",
          ...(scenario.faults ? ["--faults", scenario.faults] : []),
        ],
      });
      emulator = service;
      const apiUrlV2 = service.apiUrl.replace(/\/v1$/, "/api/v2");
      const names = namesFor(scenario.prefix);
      const args = (op: DriverArgs["op"]): DriverArgs => ({
        op,
        binDir: cli.binDir,
        workDir,
        env,
        backendUrl: `file://${stateDir}`,
        projectName: PROJECT,
        stackName: STACK,
        apiUrl: apiUrlV2,
        serverlessUrl: service.serverlessUrl,
        apiKey: API_KEY,
        registryPassword: REGISTRY_PASSWORD,
        secretValue: SECRET_VALUE,
        sshKey: sshKeyFor(scenario.prefix),
        names,
      });
      const outputs: { where: string; text: string }[] = [];
      const observe = async (): Promise<Moment> => {
        const service = await serviceInventory(apiUrlV2, API_KEY);
        return { names, service, checkpoint: readCheckpoint(stateDir, PROJECT, STACK) };
      };

      // 1. The deploy, killed at the scenario's point.
      const run = startDriver(args("up"));
      driver = run;
      const { atKill, members } = await until(
        `the kill point (${scenario.when})`,
        async () => {
          if (run.child.exitCode !== null) throw new Error(`the up ended before the kill point:\n${run.output()}`);
          if (!scenario.killWhen(await observe())) return undefined;
          // Freeze the deploy, then look again with nothing moving: kill only if the point still holds.
          await until(
            "the deploy's processes to stop",
            () => {
              const moving = deployProcesses(run.pgid).filter((p) => !/^[TtZ]$/.test(p.state));
              signalGroups(moving, "SIGSTOP");
              return moving.length === 0 ? true : undefined;
            },
            10_000,
            5,
          );
          const frozen = await observe();
          if (!scenario.killWhen(frozen) || halfWrittenBackendFiles(stateDir).length > 0) {
            signalGroups(deployProcesses(run.pgid), "SIGCONT");
            return undefined;
          }
          const group = deployProcesses(run.pgid);
          signalGroups(group, "SIGKILL");
          return { atKill: frozen, members: group };
        },
        120_000,
      );
      const ended = await run.exited;
      outputs.push({ where: "the killed up's output", text: run.output() });
      const madeNotRecorded = atKill.service.filter((r) => !atKill.checkpoint?.ids.has(r.id) && r.kind !== "sshKey");
      console.log(
        `${LOG} ${scenario.prefix}: killed after ${Date.now() - started} ms; the service had made, and the checkpoint did not hold: ${describeItems(madeNotRecorded)}; ` +
          `pending in the checkpoint: ${(atKill.checkpoint?.pending ?? []).map((p) => `${p.type} ${p.urn.split("::").pop()}`).join(", ") || "none"}`,
      );
      expect(ended.signal, "the driver was killed by the signal").toBe("SIGKILL");
      expect(atKill.checkpoint?.pending.length ?? 0, "creates in flight in the checkpoint at the kill").toBeGreaterThan(0);
      // The group held the whole deploy: the driver, the CLI and the provider host.
      const commands = members.map((p: ProcessInfo) => p.command);
      expect(members.map((p) => p.pid)).toContain(run.pgid);
      expect(
        commands.some((c) => /\/pulumi up\b/.test(c)),
        commands.join("\n"),
      ).toBe(true);
      expect(
        commands.some((c) => c.includes("dynamic-provider")),
        commands.join("\n"),
      ).toBe(true);
      // Nothing of it survives the kill.
      await until("every process of the group to be gone", () => (survivors(members).length === 0 ? true : undefined), 15_000).catch(
        () => undefined,
      );
      expect(survivors(members), "processes of the killed group still running").toEqual([]);
      expect(
        deployProcesses(run.pgid).filter((p) => p.state !== "Z"),
        "processes of the killed deploy's session",
      ).toEqual([]);
      driver = undefined;

      // 2. The rerun, as the CLI directs: `pulumi up` refuses the locked stack and names the fix.
      const locked = await runDriver(args("up"));
      outputs.push({ where: "the up on the locked stack", text: locked.output });
      expect(locked.result.ok, "an up on the stack the killed run locked").toBe(false);
      const lockMessage = locked.output.split("\n").find((l) => /locked/.test(l)) ?? "";
      console.log(`${LOG} ${scenario.prefix}: the up on the locked stack: ${lockMessage.trim()}`);
      expect(locked.output).toMatch(/locked/);
      expect(locked.output).toContain("pulumi cancel");
      const cancel = await runPulumi(cli.binDir, ["cancel", "--yes", "--stack", STACK], workDir, env);
      outputs.push({ where: "pulumi cancel", text: cancel.output });
      console.log(`${LOG} ${scenario.prefix}: pulumi cancel --yes: ${cancel.output.trim()}`);
      expect(cancel.code, cancel.output).toBe(0);
      if (scenario.clearPendingCreates) {
        const refresh = await runPulumi(cli.binDir, ["refresh", "--clear-pending-creates", "--yes", "--stack", STACK], workDir, env);
        outputs.push({ where: "pulumi refresh --clear-pending-creates", text: refresh.output });
        expect(refresh.code, refresh.output).toBe(0);
        expect(readCheckpoint(stateDir, PROJECT, STACK)?.pending, "pending operations after the refresh").toEqual([]);
      }
      const recovery = await runDriver(
        scenario.newMachine
          ? { ...args("up"), env: { ...env, GPUCLOUD_CACHE_DIR: fs.mkdtempSync(path.join(base, "other-machine-")) } }
          : args("up"),
      );
      outputs.push({ where: "the recovery up", text: recovery.output });
      const pendingLines = recovery.output.split("\n").filter((l) => /pending operation|interrupted while/i.test(l));
      console.log(`${LOG} ${scenario.prefix}: the recovery up said of pending operations:\n${pendingLines.join("\n") || "(nothing)"}`);
      if (!scenario.clearPendingCreates)
        expect(recovery.output, "the engine reports the interrupted creates").toMatch(/interrupted while creating/);
      if (!recovery.result.ok) expect.soft(unclearErrors(recovery.result.errors), "the recovery up's errors are clear").toEqual([]);
      expect.soft(recovery.output, "no unclear text in the recovery up's output").not.toMatch(/\bundefined\b|\[object Object\]/);
      expect.soft(recovery.result.ok, `the recovery up succeeds; errors: ${JSON.stringify(recovery.result.errors)}`).toBe(true);

      // 3. At the service: every declared name once, nothing else of the stack.
      const held = holdingsWithPrefix(await serviceInventory(apiUrlV2, API_KEY), scenario.prefix);
      const duplicated = duplicatesOf(held);
      console.log(
        `${LOG} ${scenario.prefix}: after the recovery up the service holds ${held.length} resources of the stack; ` +
          `duplicated: ${JSON.stringify(duplicated)}; recovery up ${recovery.result.ok ? "succeeded" : `failed: ${JSON.stringify(recovery.result.errors)}`}`,
      );
      expect.soft(duplicated, "names the service holds more than once").toEqual({});
      expect.soft(held, "what the service holds: each declared name exactly once, nothing else").toEqual(expectedHoldings(scenario.prefix));

      // 4. Converged: the plan is empty; destroy leaves nothing of the stack.
      const preview = await runDriver(args("preview"));
      outputs.push({ where: "the preview", text: preview.output });
      expect
        .soft(
          preview.result.ok && Object.keys(preview.result.changes).length === 0,
          `the plan after the recovery is empty:\n${preview.output}`,
        )
        .toBe(true);
      const destroy = await runDriver(args("destroy"));
      outputs.push({ where: "the destroy", text: destroy.output });
      expect.soft(destroy.result.ok, `destroy succeeds: ${JSON.stringify(destroy.result.errors)}`).toBe(true);
      expect
        .soft(holdingsWithPrefix(await serviceInventory(apiUrlV2, API_KEY), scenario.prefix), "what the service holds after destroy")
        .toEqual([]);

      // 5. No credential in any output or backend file (the emulator's own state keeps the secret's value by design: not scanned).
      const sources = [...outputs, ...readTree(stateDir), ...readTree(workDir), ...readTree(homeDir)].map((s) =>
        "file" in s ? { where: s.file, text: s.text } : s,
      );
      expect(
        sources.some((s) => /\.pulumi\/stacks\/.+\.json$/.test(s.where)),
        "the checkpoint is among the scanned files",
      ).toBe(true);
      expect(findSecrets(sources, [REGISTRY_PASSWORD, SECRET_VALUE, API_KEY])).toEqual([]);
      console.log(`${LOG} ${scenario.prefix}: ${Math.round((Date.now() - started) / 1000)} s`);
    });
  }
});
