/**
 * The scopes an account's API key may be restricted to (management v2). The live service names a
 * scope per operation, but only `account:read` (GET /account/limits) is documented; the rest of
 * this list is the emulator's assumption (emulator README, "API key scopes"): `<area>:read` for
 * GETs, `<area>:write` for changes. Each v2 route-table entry names its scope (in its head,
 * management/v2/operation.ts), so this file holds only the names; the router refuses an operation
 * outside the key's scopes with a 403.
 */
export const SCOPES = [
  "pods:read",
  "pods:write",
  "serverless:read",
  "serverless:write",
  "templates:read",
  "templates:write",
  "network-volumes:read",
  "network-volumes:write",
  "registries:read",
  "registries:write",
  "global-volumes:read",
  "global-volumes:write",
  "catalog:read",
  "billing:read",
  "account:read",
  "account:write",
  "secrets:read",
  "secrets:write",
  "clusters:read",
  "clusters:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
