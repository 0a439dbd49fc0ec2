// A management API for one connection, by its URL's version: v1 as is, or v2 mapped to the same
// calls. The clients, the transport and the wire schemas load with this module: the SDK's lookups
// and the provider process (through lazyApi.ts) load it on their first call to the service.

import { apiVersionOf, type ApiVersion } from "../../client/config";
import { ManagementClientV2 } from "../../client/managementV2";
import type { TransportOptions } from "../../client/transport";
import type { ManagementApi } from "./port";
import type { SharingOptions } from "./sharedReads";
import { V1Backend } from "./v1Backend";
import { V2Backend } from "./v2Backend";

/** How reads share list calls: `shareReads` for a long-lived connection serving many resources at once. */
export interface Sharing {
  shareReads?: SharingOptions | false;
}

export interface OpenedApi<Api extends ManagementApi = ManagementApi> {
  api: Api;
  close(): Promise<void>;
}

export function openV1(options: TransportOptions, sharing: Sharing = {}): OpenedApi<V1Backend> {
  const v1 = new V1Backend(options, { shareReads: sharing.shareReads ?? false });
  return { api: v1, close: () => v1.close() };
}

export function openV2(options: TransportOptions, sharing: Sharing = {}): OpenedApi<V2Backend> {
  const v2 = new ManagementClientV2(options);
  return { api: new V2Backend(v2, { shareReads: sharing.shareReads ?? false }), close: () => v2.close() };
}

export function openManagementApi(options: TransportOptions, sharing: Sharing = {}): OpenedApi & { backend: ApiVersion } {
  return apiVersionOf(options.baseUrl) === "v2"
    ? { ...openV2(options, sharing), backend: "v2" }
    : { ...openV1(options, sharing), backend: "v1" };
}
