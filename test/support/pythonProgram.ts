/**
 * Runs a Python script that drives the engine (e.g. test/engine/plugin_python_program.py) and
 * talks with the test in lines: each step it reports as `@@report <json>` on stdout (with a
 * `step` name), and where it waits for the test it reads a line from stdin. Everything else it
 * prints is kept for the failure message.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import * as readline from "node:readline";

const REPORT = "@@report ";

export interface PythonRun {
  /** The report of a step, once the script has made it; rejects if the script ends without it. */
  report<T extends object>(step: string): Promise<T & { step: string }>;
  /** Lets the script go on past the point where it waits for the test. */
  proceed(): void;
  /** Resolves when the script has ended with status 0; rejects with its output otherwise. */
  finished(): Promise<void>;
  /** Ends the script (when a test fails half-way). */
  stop(): void;
  /** Everything the script printed besides its reports. */
  output(): string;
}

export function runPythonProgram(python: string, args: string[], env: NodeJS.ProcessEnv): PythonRun {
  const child: ChildProcessWithoutNullStreams = spawn(python, args, { env: { ...env, PYTHONUNBUFFERED: "1" } });
  const reports = new Map<string, Record<string, unknown>>();
  const waiting = new Map<string, Array<() => void>>();
  let printed = "";
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const onExit: Array<() => void> = [];

  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    if (!line.startsWith(REPORT)) {
      printed += `${line}\n`;
      return;
    }
    const report = JSON.parse(line.slice(REPORT.length)) as { step: string };
    reports.set(report.step, report);
    for (const wake of waiting.get(report.step) ?? []) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    printed += chunk.toString("utf8");
  });
  const ended = new Promise<void>((resolve) => {
    child.on("error", (error) => {
      printed += `could not start ${python}: ${error.message}\n`;
      exit = { code: null, signal: null };
      resolve();
    });
    child.on("close", (code, signal) => {
      exit ??= { code, signal };
      resolve();
    });
  }).then(() => {
    for (const wake of onExit) wake();
  });
  const failure = (what: string) =>
    new Error(`${what}; the script ended with ${exit?.signal ?? `status ${exit?.code}`}. What it printed:\n${printed.slice(-20_000)}`);

  return {
    report<T extends object>(step: string) {
      return new Promise<T & { step: string }>((resolve, reject) => {
        const settle = () => {
          const found = reports.get(step);
          if (found) resolve(found as T & { step: string });
          else if (exit) reject(failure(`the Python program did not report "${step}"`));
        };
        waiting.set(step, [...(waiting.get(step) ?? []), settle]);
        onExit.push(settle);
        settle();
      });
    },
    proceed() {
      child.stdin.write("go\n");
    },
    async finished() {
      await ended;
      if (exit?.code !== 0) throw failure("the Python program failed");
    },
    stop() {
      if (!exit) child.kill("SIGKILL");
    },
    output: () => printed,
  };
}
