/**
 * API keys and accounts. Each configured key is its own account: it sees only the resources it
 * created. The account id is derived from the key (a hash), so the same key finds the same
 * resources after a restart with --state, and the state file never contains the key itself.
 */
import { createHash } from "node:crypto";

/** The service's user id style ("user_..."), used for userId / consumerUserId on the wire. */
export function accountIdOf(apiKey: string): string {
  return `user_${createHash("sha256").update(apiKey).digest("hex").slice(0, 27)}`;
}

export class Accounts {
  private readonly byKey: ReadonlyMap<string, string>;

  constructor(
    readonly apiKeys: readonly string[],
    /** Scopes of the restricted keys; a key not in the map has every scope. */
    private readonly keyScopes: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {
    this.byKey = new Map(apiKeys.map((key) => [key, accountIdOf(key)]));
  }

  /** `Bearer <key>` (any case) or, as some clients send it, the bare key. */
  resolve(authorization: string | undefined): string | undefined {
    const key = keyOf(authorization);
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /** The scopes of the key in `authorization`; undefined for a key with every scope (or no key). */
  scopesOf(authorization: string | undefined): ReadonlySet<string> | undefined {
    const key = keyOf(authorization);
    return key === undefined ? undefined : this.keyScopes.get(key);
  }

  accountIdForKey(apiKey: string): string | undefined {
    return this.byKey.get(apiKey);
  }
}

function keyOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  let key = authorization.trim();
  const bearer = /^bearer\s+/i.exec(key);
  if (bearer) key = key.slice(bearer[0].length).trim();
  return key === "" ? undefined : key;
}
