// Progress and warnings of the provider plugin go to the engine's log, attached to the resource
// being worked on: the CLI prints them under that resource (the dynamic resources cannot do this,
// see docs/limits.md). Which resource is known from the request being served, carried
// through its asynchronous work by forResource, with the values the request gave as secrets: a line
// that would quote one shows it redacted (redaction.ts).

import { AsyncLocalStorage } from "node:async_hooks";
import type { ProgressLog } from "../resources/deps";
import { redactText } from "../../client/redact";
import { enginePb, engineGrpc, grpc } from "./rpcModules";

const current = new AsyncLocalStorage<{ urn: string; secrets: readonly string[] }>();

/**
 * Runs `work` on behalf of the resource `urn`: what it logs is attached to it, with `secrets` (the
 * texts of values given as secrets, see redaction.ts) redacted.
 */
export function forResource<T>(urn: string, work: () => T, secrets: readonly string[] = []): T {
  return current.run({ urn, secrets }, work);
}

/** The URN of the resource being worked on, if any. */
export function currentResource(): string | undefined {
  return current.getStore()?.urn;
}

/** Where a line goes when there is no engine to send it to (or sending failed). */
export type LineSink = (severity: "info" | "warning", message: string) => void;

const toStderr: LineSink = (severity, message) => {
  process.stderr.write(`${severity}: ${message}\n`);
};

/** A log to the engine at `engineAddress`, in order; without an address, to `fallback`. */
export function engineLog(engineAddress: string | undefined, fallback: LineSink = toStderr): ProgressLog & { close(): void } {
  const client = engineAddress ? new engineGrpc.EngineClient(engineAddress, grpc.credentials.createInsecure()) : undefined;
  let last = Promise.resolve();
  const send = (severity: "info" | "warning", given: string): void => {
    const message = redactText(given, current.getStore()?.secrets ?? []);
    if (!client) {
      fallback(severity, message);
      return;
    }
    const request = new enginePb.LogRequest();
    request.setSeverity(severity === "info" ? enginePb.LogSeverity.INFO : enginePb.LogSeverity.WARNING);
    request.setMessage(message);
    request.setUrn(currentResource() ?? "");
    last = last.then(
      () =>
        new Promise<void>((resolve) => {
          try {
            client.log(request, (error) => {
              if (error) fallback(severity, message);
              resolve();
            });
          } catch {
            // The client is closed already (the engine is shutting the plugin down): stderr instead.
            fallback(severity, message);
            resolve();
          }
        }),
    );
  };
  return {
    info: (message) => send("info", message),
    warn: (message) => send("warning", message),
    close: () => client?.close(),
  };
}
