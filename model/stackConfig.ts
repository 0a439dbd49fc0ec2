/**
 * Stack configuration as the engine hands it to the provider process through `configure`.
 *
 * The dynamic provider host calls `configure` once per distinct provider text, before any other
 * method, with every stack config value under its full key (`gpucloud:apiKey`, ...). The values are
 * kept in this process's memory only and read at call time, never captured into state.
 */
let stackConfig: Readonly<Record<string, string>> = {};

/** Replaces the remembered stack configuration (called from the provider's `configure`). */
export function setStackConfig(config: Readonly<Record<string, string>>): void {
  stackConfig = { ...config };
}

/** The stack configuration the engine last provided; empty outside a provider process. */
export function getStackConfig(): Readonly<Record<string, string>> {
  return stackConfig;
}
