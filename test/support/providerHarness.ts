// Provider methods against a real emulator on port 0: the backend of the API version asked for, as
// the provider process builds it (the v1 client on /v1, the v2 backend on /api/v2, both sharing
// list calls between reads), a recording log, a fast poll schedule, and a record of every
// management call the providers made, by method name (`calls`) and as HTTP requests through a
// counting proxy (`http`). `client` is always a plain v1 client: the two versions share the
// emulator's store, so tests inspect and disturb resources through it.
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator/index";
import { ManagementClient } from "../../client/management";
import { openManagementApi } from "../../model/backend/openApi";
import type { Backend } from "../../model/fields/fieldTable";
import type { ManagementApi } from "../../model/backend/port";
import type { ProviderDeps } from "../../provider/resources/deps";
import { buildResourceProviders } from "../../provider/resources/registry";
import { countingProxy, type CountingProxy } from "../../scripts/lib/countingProxy";
import type { RecordingLog } from "./recordingDeps";

export interface Harness {
  emulator: RunningEmulator;
  client: ManagementClient;
  /** Method names the providers called, in order (e.g. "endpoints.update", "endpoints.delete"). */
  calls: string[];
  /** The HTTP requests the providers' backend sent (`http.take()`). */
  http: CountingProxy;
  lines: RecordingLog;
  deps: ProviderDeps;
  providers: ReturnType<typeof buildResourceProviders>;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}, api: Backend = "v1"): Promise<Harness> {
  // The harness's transports do not sleep (waits are no-ops), so they cannot pace themselves by the
  // RateLimit headers: the per-minute quota is raised far above what a test file sends. The limits'
  // own tests are in test/emulator/management/account/v2-ratelimit.test.ts and test/client/managementV2.test.ts.
  const emulator = await startEmulator({
    port: 0,
    timeScale: 0.001,
    rateLimit: { perMinute: 100_000, perHour: 1_000_000, perDay: 10_000_000 },
    ...options,
  });
  const client = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey: emulator.apiKey, maxRetries: 1, sleep: async () => undefined });
  const http = await countingProxy(emulator.apiUrl, undefined, { keepBodies: true });
  const apiPath = new URL(api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl).pathname;
  const opened = openManagementApi(
    { baseUrl: `${http.url}${apiPath}`, apiKey: emulator.apiKey, maxRetries: 1, sleep: async () => undefined },
    { shareReads: {} },
  );
  const backend: ManagementApi = opened.api;
  const calls: string[] = [];
  // Each call of the port is recorded as "<part>.<call>" ("pods.create", "account.limits").
  const recordPart = (part: string, target: object): object =>
    new Proxy(target, {
      get(inner, property, receiver) {
        const value: unknown = Reflect.get(inner, property, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(`${part}.${String(property)}`);
          return (value as (...a: unknown[]) => unknown).apply(inner, args);
        };
      },
    });
  const recorded = Object.fromEntries(
    Object.entries(backend).map(([part, value]) => [part, typeof value === "object" && value !== null ? recordPart(part, value) : value]),
  ) as unknown as ManagementApi;
  const lines: RecordingLog = { info: [], warn: [] };
  const deps: ProviderDeps = {
    client: () => recorded,
    backend: () => api,
    log: { info: (m) => void lines.info.push(m), warn: (m) => void lines.warn.push(m) },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    poll: { initialMs: 5, maxMs: 40, factor: 1.5, progressEveryMs: 1_000 },
    // A create without an answer is looked for this long (real ms) before it is recorded as pending.
    createWindowMs: () => 3_000,
  };
  return {
    emulator,
    client,
    calls,
    http,
    lines,
    deps,
    providers: buildResourceProviders(deps),
    async close() {
      await client.close();
      await opened.close();
      await http.close();
      await emulator.close();
    },
  };
}

/** What the engine would do with a provider's check result before create/update. */
export async function checked(
  provider: {
    check?: (
      o: Record<string, unknown>,
      n: Record<string, unknown>,
    ) => Promise<{ inputs?: Record<string, unknown>; failures?: { property: string; reason: string }[] }>;
  },
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await provider.check!(olds, news);
  if (result.failures && result.failures.length > 0) throw new Error(`check failed: ${JSON.stringify(result.failures)}`);
  return result.inputs ?? news;
}

/** A serverless template for the endpoints of a harness (made through its v1 client). */
export async function serverlessTemplate(h: Harness): Promise<string> {
  return (await h.client.createTemplate({ name: `worker ${Math.random()}`, imageName: "example/worker:1", isServerless: true })).id;
}
