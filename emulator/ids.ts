/** Resource ids: random lowercase alphanumerics with the lengths the service uses. */
import { randomFillSync } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export const ID_LENGTHS = {
  pod: 14,
  endpoint: 14,
  template: 10,
  networkVolume: 10,
  registryAuth: 25,
  machine: 12,
  secret: 12,
  cluster: 14,
  /** "gsb_" and 10 characters (the reference's example id is `gsb_abc`). */
  globalVolume: 14,
  registryDelegation: 12,
} as const;

/** Kinds whose ids the service spells with a fixed start. */
const PREFIXES: Partial<Record<keyof typeof ID_LENGTHS, string>> = {
  // Registry auth ids look like the service's (a "c" followed by 24 characters).
  registryAuth: "c",
  globalVolume: "gsb_",
};

// Random bytes are drawn from a pool refilled 4 KiB at a time: one randomFillSync per id would
// cost more than the rest of a create request.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

/** Character codes of ALPHABET, and a scratch buffer an id is spelled into before it becomes one string. */
const ALPHABET_CODES = Buffer.from(ALPHABET, "latin1");
const spelled = Buffer.alloc(64);

export function randomId(length: number): string {
  // Spelled into a buffer and read out once: one flat string instead of one string per character
  // (every create makes up to three ids, and each is hashed at once as a Map key).
  if (length > spelled.length) return randomId(spelled.length) + randomId(length - spelled.length);
  let n = 0;
  while (n < length) {
    // 256 % 36 != 0, so reject the top bytes to keep every character equally likely.
    const byte = randomByte();
    if (byte < 252) spelled[n++] = ALPHABET_CODES[byte % 36] as number;
  }
  return spelled.toString("latin1", 0, length);
}

/** A fresh id of a kind that `taken` does not already hold. */
export function newId(kind: keyof typeof ID_LENGTHS, taken: (id: string) => boolean): string {
  for (;;) {
    const prefix = PREFIXES[kind] ?? "";
    const id = `${prefix}${randomId(ID_LENGTHS[kind] - prefix.length)}`;
    if (!taken(id)) return id;
  }
}
