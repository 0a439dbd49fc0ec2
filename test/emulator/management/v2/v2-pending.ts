/**
 * What the live API gained since the August v2 description (test/support/fixtures/v2-wire.json, "today §N") that
 * the emulator does not serve yet. The conformance test and the answer check list each difference
 * this causes with one of these reasons; an entry goes once the emulator serves what it names.
 */
export const NOT_YET_SERVED: Readonly<Record<string, string>> = {
  // Nothing pending: endpoints took cmd[] and entrypoint[] last (today §5.1).
};

/** `{ key: reason }` for each key. */
export const each = (keys: readonly string[], reason: string): Record<string, string> =>
  Object.fromEntries(keys.map((key) => [key, reason]));
