/**
 * What the live API gained since the August v2 description (fixtures/v2-wire.json, "today §N") that
 * the emulator does not serve yet. The conformance test and the answer check list each difference
 * this causes with one of these reasons; an entry goes once the emulator serves what it names.
 */
export const NOT_YET_SERVED = {
  command: "not yet served on endpoints: cmd[] and entrypoint[] on an endpoint's container config (today §5.1); pods and templates take them",
} as const;

/** `{ key: reason }` for each key. */
export const each = (keys: readonly string[], reason: string): Record<string, string> => Object.fromEntries(keys.map((key) => [key, reason]));
