/**
 * Watches an inline program from inside the test process, where the automation API runs it: for
 * each run, whether it ran in a run of its own (the runtime's per-run store, which holds the
 * engine's address), which resources it constructed, and how it ended. A preview that plans
 * deleting what the program declares can then tell "the program declared nothing" from "it
 * declared them but the registrations never reached this run's engine" (the runtime sends the
 * registrations of a resource constructed outside its run's store nowhere, silently).
 *
 * Reads two internals of `@pulumi/pulumi`'s runtime (`globalThis.asyncLocalStorage` and the fields
 * below), for diagnostics only: when they are missing the notes say so and nothing else changes.
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";

/** The parts of the runtime's per-run store (runtime/state.js LocalStore) read here. */
interface RuntimeStore {
  settings?: { options?: { monitorAddr?: string; engineAddr?: string; dryRun?: boolean } };
  terminated?: boolean;
  logErrorCount?: number;
}

function runtimeStore(): RuntimeStore | undefined {
  const storage = (globalThis as { asyncLocalStorage?: AsyncLocalStorage<RuntimeStore> }).asyncLocalStorage;
  return storage?.getStore();
}

/**
 * The engine and resource monitor addresses the runs of this process were given, each with the run
 * it was given to: a later run given one of them again shares grpc-js's connection to it (see
 * runtimeConnections.ts).
 */
const addressesOfRuns = new Map<string, string>();

/** Which earlier run of this process (if any) was given this address. */
export function earlierRunAt(address: string): string | undefined {
  return addressesOfRuns.get(address);
}

export interface ProgramProbeOptions {
  /** Names the program in the notes of other stacks (e.g. the project's name). */
  label: string;
  /** Receives one line per event. */
  note: (line: string) => void;
  /**
   * Lists the resources each run constructs (a stack transformation of this checkout's runtime);
   * off for programs whose resources come from another copy of `@pulumi/pulumi`.
   */
  listResources: boolean;
}

export interface ProgramProbe {
  /** The program, wrapped so that each of its runs is noted. */
  program: PulumiFn;
  /** How many runs of the program have started so far. */
  runsStarted(): number;
}

export function probeProgram(program: PulumiFn, options: ProgramProbeOptions): ProgramProbe {
  let runs = 0;
  const probed: PulumiFn = async () => {
    const run = ++runs;
    const started = Date.now();
    const store = runtimeStore();
    const { monitorAddr, engineAddr } = store?.settings?.options ?? {};
    for (const [role, address] of [
      ["resource monitor", monitorAddr],
      ["engine", engineAddr],
    ] as const) {
      if (address) addressesOfRuns.set(address, `the ${role} of run ${run} of ${options.label} (${new Date().toISOString()})`);
    }
    options.note(
      `program run ${run} started: ${pulumi.runtime.isDryRun() ? "preview" : "update"}, ` +
        (store === undefined
          ? "NO run store (its registrations go nowhere)"
          : `run store with resource monitor ${monitorAddr ?? "NONE"}, engine ${engineAddr ?? "NONE"}`) +
        // Each run of the in-process language server listens until it ends: more than this run's one are runs still going.
        `; unhandledRejection listeners: ${process.listenerCount("unhandledRejection")}`,
    );
    const constructed: string[] = [];
    const astray: string[] = [];
    if (options.listResources && store !== undefined) {
      pulumi.runtime.registerStackTransformation((args) => {
        const label = `${args.type}::${args.name}`;
        constructed.push(label);
        // Constructed under another run's store, or none: its registration does not reach this run's engine.
        if (runtimeStore() !== store) astray.push(label);
        return undefined;
      });
    }
    const ended = (how: string): void => {
      const end = runtimeStore();
      options.note(
        `program run ${run} ${how} after ${Date.now() - started} ms; ` +
          (options.listResources ? `constructed ${constructed.length}: ${constructed.join(", ") || "none"}; ` : "") +
          (astray.length > 0 ? `OUTSIDE this run's store: ${astray.join(", ")}; ` : "") +
          `run store now: ${end === store ? "same" : end === undefined ? "NONE" : "ANOTHER"}, terminated=${String(end?.terminated)}, logged errors=${String(end?.logErrorCount)}`,
      );
    };
    try {
      const outputs = await program();
      ended("returned");
      return outputs;
    } catch (error) {
      ended(`threw ${describeError(error)}`);
      throw error;
    }
  };
  return { program: probed, runsStarted: () => runs };
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return JSON.stringify(String(error));
  const code = (error as { code?: unknown }).code;
  return `${error.name}${code !== undefined ? ` (code ${String(code)})` : ""}: ${JSON.stringify(error.message.slice(0, 500))}`;
}
