// The management API of the provider process, made before it is needed and opened on its first
// call: the clients, the transport (undici) and the v2 wire schemas load then (openApi.ts), so a
// process that never calls the service (a preview of unchanged resources) never loads them. Every
// call of the port is async, so each forwards once the backend is open: one loop over the port's
// collections and calls (PORT_CALLS). What is not a call is known from the API version alone: v2
// has the account's secrets and reads, and its deletes terminate an endpoint's workers; v1 has
// neither. test/model/backend/lazyApi.test.ts holds these equal to the backends'.

import type { ApiVersion } from "../../client/config";
import type { TransportOptions } from "../../client/transport";
import type { OpenedApi, Sharing } from "./openApi";
import { PORT_CALLS, type ManagementApi } from "./port";

/** Opens the backend on the first call, once; a failure to open fails that call (and is tried again by the next). */
function opener(open: () => Promise<OpenedApi>): { api(): Promise<ManagementApi>; close(): Promise<void> } {
  let opened: Promise<OpenedApi> | undefined;
  const openOnce = (): Promise<OpenedApi> => {
    opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    api: async () => (await openOnce()).api,
    close: async () => {
      const open = opened;
      opened = undefined;
      // An open that failed has nothing to close (its error reached the call that started it).
      if (open)
        await open.then(
          (o) => o.close(),
          () => undefined,
        );
    },
  };
}

type Part = keyof typeof PORT_CALLS;
type Call = (...args: unknown[]) => Promise<unknown>;

/** One part of the port (a collection, the secrets, the account) whose calls forward to the opened backend's. */
function forwarding(part: Part, api: () => Promise<ManagementApi>): Record<string, Call> {
  const calls: Record<string, Call> = {};
  for (const name of PORT_CALLS[part]) {
    calls[name] = async (...args) => {
      const target = (await api())[part] as unknown as Record<string, Call> | undefined;
      const call = target?.[name];
      if (call === undefined) throw new Error(`the opened management API has no ${part}.${name}`);
      return call.apply(target, args);
    };
  }
  return calls;
}

/** The parts each version has: v1 lacks the account's secrets and reads. */
const V1_LACKS: ReadonlySet<Part> = new Set(["secrets", "account"]);

/** The management API of `version` for these settings, opened on its first call. */
export function lazyManagementApi(options: TransportOptions, version: ApiVersion, sharing: Sharing = {}): OpenedApi {
  const backend = opener(async () => {
    const open = await import("./openApi");
    return version === "v2" ? open.openV2(options, sharing) : open.openV1(options, sharing);
  });
  const parts: Record<string, unknown> = {};
  for (const part of Object.keys(PORT_CALLS) as Part[]) {
    if (version === "v1" && V1_LACKS.has(part)) continue;
    parts[part] = forwarding(part, backend.api);
  }
  Object.assign(parts["endpoints"] as object, { deleteTerminatesWorkers: version === "v2" });
  // Every part of the port, each with every call PORT_CALLS lists for it (the port's type holds the
  // list complete, port.ts); the signatures are the backend's, to which each call forwards as is.
  return { api: parts as unknown as ManagementApi, close: backend.close };
}
