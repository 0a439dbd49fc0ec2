/**
 * The emulator crashes in the middle of `pulumi up`: it runs as its own process
 * (`node dist/emulator/cli.js --state FILE --port P ...`), is SIGKILLed mid-run, and restarted with
 * the same --state and port. `pulumi up` again converges, and nothing is lost or duplicated: each
 * quickstart resource exists exactly once by name, and the stack's ids are the emulator's.
 *
 * 1. Killed once the first resource is on disk (creates in flight), restarted at once: the
 *    interrupted up may ride through on its retries; the next up converges.
 * 2. Killed while the pod boots (every create answered), restarted after the interrupted up has
 *    failed with a clear error: the next up converges.
 * 3. A create whose answer is lost in the crash, with the service down for longer than the
 *    provider's lookup retries (about 4-8 s), reproduced deterministically: the interrupted up fails
 *    clearly and records the pod as a pending create (a placeholder id in state, see
 *    provider/resources/partialCreate.ts); the next up adopts the pod the lost answer created
 *    instead of creating a second one, and converges.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import {
  type EmulatorProcess,
  freePort,
  resourcesInStateFile,
  type StateFileResource,
  startEmulatorProcess,
} from "../support/emulatorProcess";
import { QUICKSTART_REGISTRY_PASSWORD, type QuickstartNames, quickstartNames, quickstartProgram } from "../support/quickstart";
import { Diagnostics, findSecrets, rawBackendFiles, unclearErrors } from "../support/reliability";

const API_KEY = "reliability-crash-api-key-6a0c3e9d21b4";

/** Live resources as the restarted emulator lists them over HTTP: `kind:name` -> ids. */
async function listByName(apiUrl: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const collections = {
    pod: "pods",
    endpoint: "endpoints",
    template: "templates",
    networkVolume: "networkvolumes",
    registryAuth: "containerregistryauth",
  };
  for (const [kind, collection] of Object.entries(collections)) {
    const res = await fetch(`${apiUrl}/${collection}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.status, `GET /${collection}`).toBe(200);
    for (const r of (await res.json()) as { id: string; name: string }[])
      out[`${kind}:${r.name}`] = [...(out[`${kind}:${r.name}`] ?? []), r.id];
  }
  return out;
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Scenario {
  /** Service-side name prefix (unique per scenario). */
  prefix: string;
  /** Kill once this holds for the resources in the state file. */
  killWhen: (onDisk: StateFileResource[], names: QuickstartNames) => boolean;
  /** Real ms to wait between the trigger and the kill. */
  killDelayMs: number;
  /** Restart only once the interrupted up has ended (else at once). */
  restartAfterUpEnds: boolean;
  /** Extra CLI flags of the first emulator process only (e.g. --faults, --boot-delay-ms). */
  firstRunFlags?: string[];
}

interface CrashOutcome {
  names: QuickstartNames;
  statePath: string;
  apiUrl: string;
  atKill: StateFileResource[];
  first: { ok: true } | { ok: false; error: unknown };
  firstErrors: string[];
  diagnostics: Diagnostics;
  /** Live resources right after the restart, before the next up. */
  afterRestart: Record<string, string[]>;
  /** The next up succeeded. */
  againOk: boolean;
  live: Record<string, string[]>;
  stateIds: string[];
}

describe("the emulator is SIGKILLed in the middle of pulumi up", { timeout: 300_000 }, () => {
  let emulator: EmulatorProcess | undefined;
  let engine: EngineStack | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await emulator?.kill();
    await engine?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    emulator = undefined;
    engine = undefined;
  });

  async function crash(scenario: Scenario): Promise<CrashOutcome> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-crash-"));
    // The state file's directory does not exist yet: the emulator creates it.
    const statePath = path.join(dir, "emulator", "state", "state.json");
    const port = await freePort();
    const names = quickstartNames(scenario.prefix);
    emulator = await startEmulatorProcess({ port, statePath, apiKey: API_KEY, extra: scenario.firstRunFlags ?? [] });
    const apiUrl = emulator.apiUrl;
    engine = await createEngineStack({
      projectName: "reliability-crash",
      program: async () => quickstartProgram(names),
      config: {
        "gpucloud:apiUrl": { value: emulator.apiUrl },
        "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
        "gpucloud:apiKey": { value: API_KEY, secret: true },
        // The recovery lines these tests read are progress detail, printed with gpucloud:verbose.
        "gpucloud:verbose": { value: "true" },
        // The restarted emulator either holds a create or never will: 5 s of looking (not 2 min) tells.
        "gpucloud:createTimeoutSeconds": { value: "5" },
      },
    });
    const diagnostics = new Diagnostics();
    const interrupted = engine.stack.up({ onEvent: diagnostics.onEvent }).then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await waitUntil("the kill trigger", () => scenario.killWhen(resourcesInStateFile(statePath), names), 60_000);
    if (scenario.killDelayMs > 0) await new Promise((r) => setTimeout(r, scenario.killDelayMs));
    const atKill = resourcesInStateFile(statePath);
    await emulator.kill();
    console.log(
      `[reliability crash] ${scenario.prefix}: killed with ${atKill.length} resource(s) on disk: ${atKill.map((r) => `${r.kind}:${r.name}`).join(", ")}`,
    );

    let first: CrashOutcome["first"];
    if (scenario.restartAfterUpEnds) {
      first = await interrupted;
      emulator = await startEmulatorProcess({ port, statePath, apiKey: API_KEY });
    } else {
      emulator = await startEmulatorProcess({ port, statePath, apiKey: API_KEY });
      first = await interrupted;
    }
    const firstErrors = diagnostics.errors();
    console.log(
      `[reliability crash] ${scenario.prefix}: interrupted up ${first.ok ? "converged" : `failed: ${JSON.stringify(firstErrors)}`}`,
    );
    if (!first.ok) expect(unclearErrors(firstErrors), "the interrupted up's errors are clear").toEqual([]);
    // Everything that was on disk at the kill survived the restart (nothing lost).
    const afterRestart = await listByName(apiUrl);
    for (const r of atKill) expect(afterRestart[`${singular(r.kind)}:${r.name}`], `${r.kind} ${r.name} after the restart`).toContain(r.id);

    let againOk = true;
    try {
      await engine.stack.up({ onEvent: diagnostics.onEvent });
    } catch {
      againOk = false;
    }
    const live = await listByName(apiUrl);
    const stateIds = declaredResources(await engine.exportState()).map((r) => r.id ?? "");
    return { names, statePath, apiUrl, atKill, first, firstErrors, diagnostics, afterRestart, againOk, live, stateIds };
  }

  /** Converged: the next up succeeded, one live resource per name, the state's ids are the live ones. */
  function expectConverged(o: CrashOutcome): void {
    expect(o.againOk, `the next up converges; errors: ${JSON.stringify(o.diagnostics.errors())}`).toBe(true);
    const expected = Object.entries(o.names)
      .map(([kind, name]) => `${kind}:${name}`)
      .sort();
    expect(Object.keys(o.live).sort(), "exactly the quickstart's resources are live").toEqual(expected);
    for (const [key, ids] of Object.entries(o.live)) expect(ids, `${key}: exactly one (nothing duplicated)`).toHaveLength(1);
    expect([...o.stateIds].sort(), "the stack's ids are the live ones (nothing lost)").toEqual(Object.values(o.live).flat().sort());
  }

  /** A clean stop writes the same resources; no credential anywhere; destroy leaves nothing. */
  async function finish(o: CrashOutcome, extraToDelete: { collection: string; id: string }[] = []): Promise<void> {
    const current = emulator;
    const stack = engine;
    if (!current || !stack) throw new Error("no emulator or stack");
    expect(await current.stop()).toBe(0);
    expect(
      resourcesInStateFile(o.statePath)
        .map((r) => r.id)
        .sort(),
    ).toEqual(Object.values(o.live).flat().sort());
    // The emulator's own banner prints the key it was given, by design: only the password is looked for there.
    expect(findSecrets([{ where: "emulator output", text: current.output() }], [QUICKSTART_REGISTRY_PASSWORD])).toEqual([]);
    const sources = [
      { where: o.statePath, text: fs.readFileSync(o.statePath, "utf8") },
      ...rawBackendFiles(stack).map((f) => ({ where: f.file, text: f.text })),
      { where: "engine output", text: stack.output() },
      ...o.diagnostics.messages.map((m, i) => ({ where: `diagnostic #${i}`, text: m.message })),
      ...(o.first.ok ? [] : [{ where: "interrupted up's error", text: String(o.first.error) }]),
    ];
    expect(findSecrets(sources, [API_KEY, QUICKSTART_REGISTRY_PASSWORD])).toEqual([]);

    emulator = await startEmulatorProcess({ port: Number(new URL(o.apiUrl).port), statePath: o.statePath, apiKey: API_KEY });
    // Resources outside the stack (a duplicate) first: they may hold what the stack's hold (a volume).
    for (const { collection, id } of extraToDelete) {
      const res = await fetch(`${o.apiUrl}/${collection}/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${API_KEY}` } });
      expect(res.status).toBeLessThan(300);
    }
    expect((await stack.stack.destroy()).summary.result).toBe("succeeded");
    expect(await listByName(o.apiUrl)).toEqual({});
  }

  it("killed with creates in flight, restarted at once: the next up converges, nothing lost or duplicated", async () => {
    const o = await crash({ prefix: "crash-a", killWhen: (onDisk) => onDisk.length >= 1, killDelayMs: 0, restartAfterUpEnds: false });
    expectConverged(o);
    await finish(o);
  });

  it("killed while the pod boots, restarted after the interrupted up failed clearly: the next up converges", async () => {
    const o = await crash({
      prefix: "crash-b",
      // Every create has been answered (all five on disk, plus a moment); the up waits for the pod's boot.
      killWhen: (onDisk) => onDisk.length >= 5,
      killDelayMs: 300,
      restartAfterUpEnds: true,
      // 600 s of service time (6 s real) to boot: the kill lands in the readiness wait.
      firstRunFlags: ["--boot-delay-ms", "600000"],
    });
    expect(o.first.ok).toBe(false);
    expect(o.firstErrors.join("\n")).toMatch(
      /GetPod failed: (could not connect to the service|connection lost before the service answered)/,
    );
    expectConverged(o);
    await finish(o);
  });

  it("a create answered into the crash, service down past the lookup retries: the next up adopts it, nothing duplicated", async () => {
    const o = await crash({
      prefix: "crash-c",
      // The pod is created (and on disk) but its answer is lost; the kill lands before the provider's lookup.
      killWhen: (onDisk, names) => onDisk.some((r) => r.kind === "pods" && r.name === names.pod),
      killDelayMs: 0,
      restartAfterUpEnds: true,
      // The template create (concurrent with the pod's) is held back 2 s, so it cannot also land in the crash.
      firstRunFlags: ["--faults", "seed=1; CreatePod: lost=1; CreateTemplate: latency=1@2s"],
    });
    // The interrupted up says which create failed, and how, and that the next up resolves it.
    expect(o.first.ok).toBe(false);
    const firstErrors = o.firstErrors.join("\n");
    expect(firstErrors).toMatch(/CreatePod failed: connection lost before the service answered/);
    expect(firstErrors).toMatch(
      /It was not sent again\. .*the next `pulumi up` looks for the pod again and adopts it if the service made it/,
    );
    // Nothing lost: the pod of the lost answer survived the restart.
    const lostPod = o.atKill.find((r) => r.kind === "pods");
    expect(lostPod).toBeDefined();
    expect(o.afterRestart[`pod:${o.names.pod}`]).toEqual([lostPod?.id]);
    // The next up adopts that pod: exactly one pod of that name, and the stack holds it (no placeholder left).
    expectConverged(o);
    expect(o.live[`pod:${o.names.pod}`]).toEqual([lostPod?.id]);
    expect(o.stateIds).toContain(lostPod?.id);
    expect(o.stateIds.filter((id) => id.startsWith("pending-create-"))).toEqual([]);
    expect(engine?.output()).toContain(
      `an earlier, interrupted create of it did reach the service: adopting the pod it made (id ${lostPod?.id})`,
    );
    // The engine deleted the placeholder after its replacement resolved it: no service call, no warning.
    expect(engine?.output()).toContain("removed the pending-create record pending-create-pod-");
    expect(engine?.output()).not.toContain("a create whose outcome was never resolved");
    await finish(o);
  });
});

function singular(kind: string): string {
  return kind === "networkVolumes" ? "networkVolume" : kind === "registryAuths" ? "registryAuth" : kind.replace(/s$/, "");
}
