// Pulumi's closure serializer, which stores each dynamic resource's provider in the state, loads
// every built-in module of Node.js once to recognise module exports. On Node 22 to 24 one of them,
// node:sqlite, is experimental and prints an ExperimentalWarning when first loaded, so every
// program using a dynamic resource printed it, though nothing uses SQLite. Loading it here first,
// with only that one warning held back, keeps the output to what matters; every other warning
// (including other ExperimentalWarnings) is emitted as usual.

let done = false;

export function preloadSqliteQuietly(): void {
  if (done) return;
  done = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(text)) return;
    (emitWarning as (w: string | Error, ...r: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    require("node:sqlite");
  } catch {
    // Not built in on this Node.js: the serializer will not load it either.
  } finally {
    process.emitWarning = emitWarning;
  }
}
