/**
 * Shared by the reliability tests (test/engine/reliability-*.test.ts, test/soak/): the fault SPEC
 * of the seeded runs, a counter of creates per resource name (from the emulator's onReply seam),
 * engine diagnostics collection, the "clear error" rule, secret scans of the raw backend files, and
 * one faulted quickstart cycle (up, second up, destroy) with all its checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import type { AccountInspection, FaultKind, FaultStats, ReplyEvent, RunningEmulator } from "../../emulator";
import { declaredResources, type EngineStack } from "./engineStack";
import type { QuickstartNames } from "./quickstart";

/** The management API a reliability run deploys through (the apiUrl ending it configures). */
export type ManagementApiVersion = "v1" | "v2";

/** Each API's create operation ids per quickstart kind, and the path its deletes go to. */
const API_ROUTES: Readonly<Record<ManagementApiVersion, { creates: Readonly<Record<keyof QuickstartNames, string>>; deletes: string }>> = {
  v1: {
    creates: {
      pod: "CreatePod",
      endpoint: "CreateEndpoint",
      template: "CreateTemplate",
      networkVolume: "CreateNetworkVolume",
      registryAuth: "CreateContainerRegistryAuth",
    },
    deletes: "DELETE /v1/*/*",
  },
  v2: {
    creates: {
      pod: "createPod",
      endpoint: "createEndpoint",
      template: "createTemplate",
      networkVolume: "createNetworkVolume",
      registryAuth: "createRegistry",
    },
    deletes: "DELETE /api/v2/*/*",
  },
};

/**
 * The faults of a seeded run: every create may lose its answer (the create happened) or be reset
 * before it runs; every route sees 429 with a short Retry-After, 500, 503, resets and latency.
 * Small probabilities, so that a run mostly converges and retries stay short.
 */
export function soakFaultSpec(seed: number, api: ManagementApiVersion = "v1"): string {
  const { creates, deletes } = API_ROUTES[api];
  return [
    `seed=${seed}`,
    `${creates.pod}: lost=0.15, reset=0.05, 500=0.04`,
    `${creates.endpoint}: lost=0.15, 503=0.04`,
    `${creates.template}: lost=0.15`,
    `${creates.networkVolume}: lost=0.15`,
    `${creates.registryAuth}: lost=0.15`,
    `${deletes}: lost=0.1`,
    "*: 429=0.05@50ms, 500=0.03, 503=0.04@100ms, reset=0.03, latency=0.08@50ms",
  ].join("; ");
}

/** Create operation id (either API) -> quickstart kind. */
const CREATE_OPERATIONS: Readonly<Record<string, keyof QuickstartNames>> = Object.fromEntries(
  Object.values(API_ROUTES).flatMap(({ creates }) =>
    Object.entries(creates).map(([kind, operation]) => [operation, kind as keyof QuickstartNames]),
  ),
);

/** Counts creates the emulator carried out (answer sent or lost), per kind and name. */
export class CreateCounter {
  private readonly counts = new Map<string, number>();
  /** Creates whose answer the emulator destroyed (the "lost" fault). */
  lostAnswers = 0;

  readonly onReply = (event: ReplyEvent): void => {
    const kind = CREATE_OPERATIONS[event.operationId];
    if (!kind || event.status >= 300) return;
    const name = (event.body as { name?: unknown } | undefined)?.name;
    const key = `${kind}:${typeof name === "string" ? name : "(no name)"}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (event.lost) this.lostAnswers++;
  };

  /** `kind:name` -> creates since the last reset. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort());
  }

  reset(): void {
    this.counts.clear();
  }
}

/** `kind:name` -> 1 for each quickstart resource. */
export function oncePerName(names: QuickstartNames): Record<string, number> {
  return Object.fromEntries(
    (Object.entries(names) as [keyof QuickstartNames, string][]).map(([kind, name]) => [`${kind}:${name}`, 1] as const).sort(),
  );
}

const KIND_LISTS: Readonly<Record<keyof QuickstartNames, keyof Omit<AccountInspection, "accountId">>> = {
  pod: "pods",
  endpoint: "endpoints",
  template: "templates",
  networkVolume: "networkVolumes",
  registryAuth: "registryAuths",
};

/** Live resources per `kind:name` across all accounts, with their ids. */
export function liveByName(emulator: RunningEmulator): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const account of emulator.inspect()) {
    // An endpoint created through v2 owns a copy of its template ("<name> (endpoint <id>)"), deleted
    // with it and held by no state: part of the endpoint, not a resource of its own.
    const endpointCopies = new Set(account.endpoints.map((e) => `${e.name} (endpoint ${e.id})`));
    for (const [kind, list] of Object.entries(KIND_LISTS)) {
      for (const resource of account[list] as { id: string; name?: string | null }[]) {
        if (kind === "template" && endpointCopies.has(resource.name ?? "")) continue;
        const key = `${kind}:${resource.name ?? "(no name)"}`;
        out[key] = [...(out[key] ?? []), resource.id];
      }
    }
  }
  return out;
}

/** Every resource the emulator holds, as `kind:name (id)`; empty means no orphans. */
export function everythingLive(emulator: RunningEmulator): string[] {
  return Object.entries(liveByName(emulator)).flatMap(([key, ids]) => ids.map((id) => `${key} (${id})`));
}

/** Collects the engine's diagnostics (not debug) through the automation API's event stream. */
export class Diagnostics {
  readonly messages: { severity: string; urn: string | undefined; message: string }[] = [];
  readonly onEvent = (event: EngineEvent): void => {
    const d = event.diagnosticEvent;
    // The declared type omits "debug", but the engine does send debug diagnostics.
    if (!d || (d.severity as string) === "debug") return;
    this.messages.push({ severity: d.severity, urn: d.urn, message: d.message });
  };
  errors(): string[] {
    return this.messages.filter((m) => m.severity === "error").map((m) => m.message.trim());
  }
  /** "retry N of Operation" lines the provider logs for each transport retry. */
  retries(): number {
    return this.messages.filter((m) => /\bretry \d+ of \w+ in \d+ ms\b/.test(m.message)).length;
  }
  /** Ambiguous creates (never sent again): found by looking, or recorded as pending for the next up. */
  ambiguousCreates(): { adopted: number; pending: number } {
    const count = (pattern: RegExp) => this.messages.filter((m) => pattern.test(m.message)).length;
    return {
      adopted: count(/: the service did make it \(id [^)]+\): using it/),
      pending: count(/: the create sent at \S+ may or may not have been made: /),
    };
  }
  clear(): void {
    this.messages.length = 0;
  }
}

/** "CreatePod failed: 503 Service Unavailable: ..." (v2: "createPod ...") or "... failed: could not connect / connection lost ...". */
const CLEAR_ERROR =
  /\b[A-Za-z]+ failed: (\d{3} [A-Z][A-Za-z ]+|could not connect to the service|connection lost before the service answered|no complete answer within \d+ ms)/;

/**
 * A failed run must say which operation failed and how (HTTP status or connection failure), and
 * never fall back to "undefined", "[object Object]" or a bare stack trace. Returns the problems.
 */
export function unclearErrors(errors: readonly string[]): string[] {
  const problems: string[] = [];
  if (errors.length === 0) problems.push("the run failed without any error diagnostic");
  if (!errors.some((e) => CLEAR_ERROR.test(e)))
    problems.push(`no error names an operation and an HTTP status or connection failure: ${JSON.stringify(errors)}`);
  for (const e of errors) {
    if (/\bundefined\b|\[object Object\]/.test(e)) problems.push(`error text says undefined/[object Object]: ${e}`);
    const lines = e.split("\n").filter((l) => l.trim() !== "");
    if (lines.length > 0 && lines.every((l) => /^\s*at\s/.test(l) || /^\w*Error:?\s*$/.test(l.trim())))
      problems.push(`stack trace only: ${e}`);
  }
  return problems;
}

/** Every file under a directory (recursively; symlinks are not followed), as text. */
export function readTree(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) out.push(...readTree(full));
    else if (entry.isFile()) out.push({ file: full, text: fs.readFileSync(full, "latin1") });
  }
  return out;
}

/**
 * The raw files of an engine stack as the file backend wrote them (checkpoint, backups, history,
 * the stack's config file): read from disk, not through exportStack, which decrypts.
 */
export function rawBackendFiles(engine: EngineStack): { file: string; text: string }[] {
  const base = path.dirname(engine.workDir);
  const files = [
    ...readTree(path.join(base, "state")),
    ...readTree(engine.workDir),
    // The harness's own reader too (it also handles a gzipped checkpoint).
    { file: "checkpoint (engineStack.rawStateFile)", text: engine.rawStateFile() },
  ];
  expect(
    files.some((f) => /\.pulumi\/stacks\/.+\.json$/.test(f.file)),
    "the file backend's checkpoint should be among the scanned files",
  ).toBe(true);
  return files;
}

/** Places where any of `secrets` occurs (as given, or base64-encoded as some encoders would write it). */
export function findSecrets(sources: readonly { where: string; text: string }[], secrets: readonly string[]): string[] {
  const hits: string[] = [];
  for (const secret of secrets) {
    const forms = [secret, Buffer.from(secret).toString("base64")];
    for (const source of sources) {
      for (const form of forms)
        if (source.text.includes(form)) hits.push(`${source.where} contains ${form === secret ? "a secret" : "a base64 secret"}`);
    }
  }
  return hits;
}

export function faultDelta(before: FaultStats, after: FaultStats): Record<FaultKind, number> {
  const out = { ...after.injected };
  for (const kind of Object.keys(out) as FaultKind[]) out[kind] -= before.injected[kind];
  return out;
}

export function addCounts(total: Record<FaultKind, number>, add: Record<FaultKind, number>): void {
  for (const kind of Object.keys(add) as FaultKind[]) total[kind] = (total[kind] ?? 0) + add[kind];
}

/** Error text of an automation-API failure (CommandError), for the secret scans. */
function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export interface CycleReport {
  seed: number;
  /** The first up converged (else it failed with a clear error and the second up repaired it). */
  firstUpConverged: boolean;
  destroyFirstTry: boolean;
  /** Management API requests that went through the fault injector. */
  requests: number;
  faults: Record<FaultKind, number>;
  retries: number;
  adoptedAfterLostAnswer: number;
  recordedPendingAfterNoAnswer: number;
  lostCreateAnswers: number;
  /** Creates per `kind:name` during the cycle (must be 1 each). */
  creates: Record<string, number>;
  errors: string[];
  ms: number;
}

export interface CycleContext {
  emulator: RunningEmulator;
  engine: EngineStack;
  names: QuickstartNames;
  counter: CreateCounter;
  /** Every error message and diagnostic of the cycle is appended here, for the secret scans. */
  collected: string[];
  /** The API the stack's apiUrl points at, so the faults hit its routes. Default v1. */
  api?: ManagementApiVersion;
}

/** Ups a cycle may take, faults still on: a create answered 5xx is never sent again in its up (it may have been made). */
const MAX_UPS = 4;

/**
 * One seeded run with faults on: up (converges, or fails with a clear error), more ups until one
 * converges (at most MAX_UPS in all, each failure clear: a create answered 5xx is recorded as
 * pending, not sent again, so each such fault costs an up; a no-op when the first converged), checks (one live resource per name, state ids = live
 * ids, one create per name), then destroy (retried once if it fails, with a clear error) and the
 * emulator must be empty.
 */
export async function faultedCycle(ctx: CycleContext, seed: number): Promise<CycleReport> {
  const { emulator, engine, names, counter } = ctx;
  const started = Date.now();
  const diagnostics = new Diagnostics();
  const before = emulator.faultStats();
  const lostBefore = counter.lostAnswers;
  counter.reset();
  emulator.setFaults(soakFaultSpec(seed, ctx.api));
  const errors: string[] = [];
  try {
    let firstUpConverged = true;
    try {
      const up = await engine.stack.up({ onEvent: diagnostics.onEvent });
      expect(up.summary.result, `seed ${seed}: first up`).toBe("succeeded");
    } catch (error) {
      firstUpConverged = false;
      ctx.collected.push(errorText(error));
      const runErrors = diagnostics.errors();
      errors.push(...runErrors);
      expect(unclearErrors(runErrors), `seed ${seed}: the failed up's errors must be clear`).toEqual([]);
    }

    let second: Awaited<ReturnType<typeof engine.stack.up>> | undefined;
    for (let up = 2; second === undefined; up++) {
      try {
        second = await engine.stack.up({ onEvent: diagnostics.onEvent });
      } catch (error) {
        if (up >= MAX_UPS) throw error;
        ctx.collected.push(errorText(error));
        const runErrors = diagnostics.errors().filter((e) => !errors.includes(e));
        errors.push(...runErrors);
        expect(unclearErrors(runErrors), `seed ${seed}: up ${up}'s errors must be clear`).toEqual([]);
      }
    }
    expect(second.summary.result, `seed ${seed}: the converging up`).toBe("succeeded");
    if (firstUpConverged) {
      // Nothing left to do: no create, update, replace or delete on the second run.
      expect(Object.keys(second.summary.resourceChanges ?? {}), `seed ${seed}: second up after a converged first`).toEqual(["same"]);
    }

    const live = liveByName(emulator);
    const declared = declaredResources(await engine.exportState());
    for (const key of Object.keys(oncePerName(names))) {
      expect(live[key]?.length ?? 0, `seed ${seed}: live resources named ${key} (no duplicates)`).toBe(1);
    }
    expect(everythingLive(emulator).length, `seed ${seed}: nothing but the quickstart is live`).toBe(Object.keys(names).length);
    expect(declared.map((r) => r.id).sort(), `seed ${seed}: state ids are the live ids`).toEqual(Object.values(live).flat().sort());
    const creates = counter.snapshot();
    expect(creates, `seed ${seed}: each resource created exactly once`).toEqual(oncePerName(names));

    let destroyFirstTry = true;
    try {
      await engine.stack.destroy({ onEvent: diagnostics.onEvent });
    } catch (error) {
      destroyFirstTry = false;
      ctx.collected.push(errorText(error));
      const destroyErrors = diagnostics.errors().filter((e) => !errors.includes(e));
      errors.push(...destroyErrors);
      expect(unclearErrors(destroyErrors), `seed ${seed}: the failed destroy's errors must be clear`).toEqual([]);
      const again = await engine.stack.destroy({ onEvent: diagnostics.onEvent });
      expect(again.summary.result, `seed ${seed}: second destroy`).toBe("succeeded");
    }
    expect(everythingLive(emulator), `seed ${seed}: orphans after destroy`).toEqual([]);
    expect(declaredResources(await engine.exportState()), `seed ${seed}: state after destroy`).toEqual([]);

    const ambiguous = diagnostics.ambiguousCreates();
    return {
      seed,
      firstUpConverged,
      destroyFirstTry,
      requests: emulator.faultStats().requests - before.requests,
      faults: faultDelta(before, emulator.faultStats()),
      retries: diagnostics.retries(),
      adoptedAfterLostAnswer: ambiguous.adopted,
      recordedPendingAfterNoAnswer: ambiguous.pending,
      lostCreateAnswers: counter.lostAnswers - lostBefore,
      creates,
      errors,
      ms: Date.now() - started,
    };
  } finally {
    emulator.setFaults(undefined);
    ctx.collected.push(...diagnostics.messages.map((m) => m.message));
  }
}

/** Sums reports into the figures the tests print. */
export function summarize(reports: readonly CycleReport[]): Record<string, unknown> {
  const faults = {} as Record<FaultKind, number>;
  for (const r of reports) addCounts(faults, r.faults);
  return {
    runs: reports.length,
    firstUpConverged: reports.filter((r) => r.firstUpConverged).length,
    firstUpFailedClearly: reports.filter((r) => !r.firstUpConverged).length,
    destroyNeededSecondTry: reports.filter((r) => !r.destroyFirstTry).length,
    requests: reports.reduce((a, r) => a + r.requests, 0),
    faultsInjected: faults,
    faultsTotal: Object.values(faults).reduce((a, b) => a + b, 0),
    retriesLogged: reports.reduce((a, r) => a + r.retries, 0),
    lostCreateAnswers: reports.reduce((a, r) => a + r.lostCreateAnswers, 0),
    ambiguousCreatesAdopted: reports.reduce((a, r) => a + r.adoptedAfterLostAnswer, 0),
    ambiguousCreatesPending: reports.reduce((a, r) => a + r.recordedPendingAfterNoAnswer, 0),
    duplicates: reports.reduce((a, r) => a + Object.values(r.creates).filter((n) => n > 1).length, 0),
    orphans: 0, // asserted per run: the emulator is empty after every destroy
    totalSeconds: Math.round(reports.reduce((a, r) => a + r.ms, 0) / 1000),
  };
}
