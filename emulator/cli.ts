#!/usr/bin/env node
/** gpucloud-emulator: runs the emulator until SIGINT/SIGTERM. */
import "./cliGuard";
import { type CliCommand, USAGE, UsageError, parseCliArgs } from "./cliArgs";
import { formatFaultSpec, toFaultPlan } from "./faults/spec";
import { type RunningEmulator, startEmulator } from "./index";
import { defaultWorkerLogDir } from "./serverless/options";

async function main(): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`gpucloud-emulator: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.options.workers && command.options.serverless?.workerLogDir === undefined) {
    // Chosen here so the banner can print it.
    command.options.serverless = { ...command.options.serverless, workerLogDir: defaultWorkerLogDir() };
  }
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(command.options);
  } catch (error) {
    // Bad option values (RangeError) and a busy port are the user's to fix: no stack trace.
    process.stderr.write(`gpucloud-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof RangeError ? 2 : 1;
  }
  const keys = emulator.apiKeys.map((key) => `  API key:         ${key}   (gpucloud:apiKey)`).join("\n");
  process.stdout.write(
    // Today's URLs first, as the settings take them; the v1 URL is the earlier API's, kept for
    // programs written against it.
    `gpucloud-emulator listening\n` +
      `  management API:  ${emulator.apiUrlV2}   (gpucloud:apiUrl)\n` +
      `  job API:         ${emulator.serverlessUrl}   (gpucloud:serverlessUrl)\n` +
      `${keys}\n` +
      `  earlier API v1:  ${emulator.apiUrl}   (the management API's earlier version)\n` +
      (command.options.statePath ? `  state file:      ${command.options.statePath}\n` : "") +
      (Object.keys(command.options.workers ?? {}).length > 0
        ? `  worker logs:     ${command.options.serverless?.workerLogDir ?? ""}\n`
        : "") +
      (command.options.faults ? `  faults:          ${formatFaultSpec(toFaultPlan(command.options.faults))}\n` : "") +
      `\nexport GPUCLOUD_API_URL=${emulator.apiUrlV2} GPUCLOUD_SERVERLESS_URL=${emulator.serverlessUrl} GPUCLOUD_API_KEY=${emulator.apiKey}\n`,
  );
  emulator.onStateStatus((status) => {
    process.stderr.write(
      status.saving
        ? `gpucloud-emulator: state is being saved again to ${status.path}\n`
        : `gpucloud-emulator: state is NOT being saved to ${status.path}: ${status.error ?? "unknown error"}; ` +
            "changes are answered 503 until a write succeeds (retried every second)\n",
    );
  });
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`gpucloud-emulator: ${signal} again, exiting without waiting\n`);
        process.exit(1);
      }
      stopping = true;
      process.stdout.write(`gpucloud-emulator: ${signal}, shutting down\n`);
      if (command.options.faults) {
        const stats = emulator.faultStats();
        const counts = Object.entries(stats.injected)
          .map(([kind, n]) => `${kind}=${n}`)
          .join(" ");
        process.stdout.write(`gpucloud-emulator: faults injected over ${stats.requests} requests: ${counts}\n`);
      }
      emulator.close().then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`gpucloud-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
          resolve(1);
        },
      );
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

main().then(
  (code) => {
    process.exitCode = code;
    // Everything is closed; if a stray handle still holds the loop, do not hang the terminal.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`gpucloud-emulator: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
