// Provider methods against a real emulator on port 0: the backend of the API version asked for (a
// ManagementClient on /v1, the v2 backend on /api/v2), a recording log, a fast poll schedule, and a
// record of every management call the providers made. `client` is always a v1 client: the two
// versions share the emulator's store, so tests inspect and disturb resources through it.
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../emulator/index";
import { ManagementClient } from "../../../client/management";
import { ManagementClientV2 } from "../../../client/managementV2";
import type { Backend } from "../../../provider/resources/fieldTable";
import { V2Backend } from "../../../provider/resources/v2Backend";
import type { ManagementApi, ProviderDeps } from "../../../provider/resources/deps";
import { buildResourceProviders } from "../../../provider/resources/registry";
import type { RecordingLog } from "../../unit/resources/fakes";

export interface Harness {
  emulator: RunningEmulator;
  client: ManagementClient;
  /** Method names the providers called, in order (e.g. "updateEndpoint", "deleteEndpoint"). */
  calls: string[];
  lines: RecordingLog;
  deps: ProviderDeps;
  providers: ReturnType<typeof buildResourceProviders>;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}, api: Backend = "v1"): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, timeScale: 0.001, ...options });
  const client = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey: emulator.apiKey, maxRetries: 1, sleep: async () => undefined });
  const v2 = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey, maxRetries: 1, sleep: async () => undefined });
  const backend: ManagementApi = api === "v2" ? new V2Backend(v2) : client;
  const calls: string[] = [];
  const recorded = new Proxy(backend, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ManagementApi;
  const lines: RecordingLog = { info: [], warn: [] };
  const deps: ProviderDeps = {
    client: () => recorded,
    backend: () => api,
    log: { info: (m) => void lines.info.push(m), warn: (m) => void lines.warn.push(m) },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    poll: { initialMs: 5, maxMs: 40, factor: 1.5, progressEveryMs: 1_000 },
  };
  return {
    emulator,
    client,
    calls,
    lines,
    deps,
    providers: buildResourceProviders(deps),
    async close() {
      await client.close();
      await v2.close();
      await emulator.close();
    },
  };
}

/** What the engine would do with a provider's check result before create/update. */
export async function checked(provider: { check?: (o: Record<string, unknown>, n: Record<string, unknown>) => Promise<{ inputs?: Record<string, unknown>; failures?: { property: string; reason: string }[] }> }, news: Record<string, unknown>, olds: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = await provider.check!(olds, news);
  if (result.failures && result.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs ?? news;
}
