// The provider process's management API, opened on its first call (model/backend/lazyApi.ts): it has
// the synchronous members of the backend it stands for, opens nothing before a call, and answers
// every call as that backend does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiVersion } from "../../../client/config";
import { GpuCloudError } from "../../../client/gpuCloudError";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { lazyManagementApi } from "../../../model/backend/lazyApi";
import { openManagementApi, type OpenedApi } from "../../../model/backend/openApi";
import type { ManagementApi } from "../../../model/backend/port";

const kindOf = (value: unknown): string => (typeof value === "function" ? "function" : (JSON.stringify(value) ?? "undefined"));

describe.each<ApiVersion>(["v1", "v2"])("the lazy management API on %s", (version) => {
  let emulator: RunningEmulator;
  let lazy: OpenedApi;
  let real: OpenedApi;

  beforeAll(async () => {
    emulator = await startEmulator({
      port: 0,
      timeScale: 0.001,
      rateLimit: { perMinute: 100_000, perHour: 1_000_000, perDay: 10_000_000 },
    });
    const options = { baseUrl: version === "v2" ? emulator.apiUrlV2 : emulator.apiUrl, apiKey: emulator.apiKey, maxRetries: 0 };
    lazy = lazyManagementApi(options, version, { shareReads: {} });
    real = openManagementApi(options, { shareReads: {} });
  });

  afterAll(async () => {
    await lazy?.close();
    await real?.close();
    await emulator?.close();
  });

  it("has the backend's parts, each with the same calls and flags", () => {
    const shape = (api: ManagementApi) =>
      Object.fromEntries(
        Object.entries(api)
          .filter(([, part]) => typeof part === "object" && part !== null)
          .map(([name, part]) => [
            name,
            Object.fromEntries(
              Object.entries(part as object)
                .map(([k, v]) => [k, kindOf(v)])
                .sort(),
            ),
          ]),
      );
    expect(shape(lazy.api)).toEqual(shape(real.api));
    expect(Object.keys(shape(real.api)).sort()).toEqual(
      version === "v2"
        ? ["account", "endpoints", "networkVolumes", "pods", "registryAuths", "secrets", "templates"]
        : ["endpoints", "networkVolumes", "pods", "registryAuths", "templates"],
    );
    expect(lazy.api.endpoints.deleteTerminatesWorkers).toBe(version === "v2");
  });

  it("answers each call as the backend does", async () => {
    const template = await lazy.api.templates.create({ name: `lazy-${version}`, imageName: "example/echo-worker:1.0", isServerless: true });
    expect(await real.api.templates.get(template.id)).toEqual(template);
    expect(await lazy.api.templates.list()).toEqual(await real.api.templates.list());
    expect(await lazy.api.templates.get(template.id)).toEqual(await real.api.templates.get(template.id));
    if (version === "v2") {
      expect(await lazy.api.account?.catalogLists()).toEqual(await real.api.account?.catalogLists());
      const secret = await lazy.api.secrets?.create({ name: "LAZY_SECRET", value: "s3cret" });
      expect(secret?.name).toBe("LAZY_SECRET");
      expect(await lazy.api.secrets?.list()).toEqual(await real.api.secrets?.list());
    }
    await lazy.api.templates.delete(template.id);
    await expect(real.api.templates.get(template.id)).rejects.toThrow();
  });

  it("opens the backend on its first call, not before: settings no client takes fail that call, not the making", async () => {
    const unusable = lazyManagementApi({ baseUrl: "http://127.0.0.1:1/v2", apiKey: "" }, version);
    const failed = unusable.api.endpoints.list();
    await expect(failed).rejects.toBeInstanceOf(GpuCloudError);
    await expect(failed).rejects.toThrow("apiKey is empty");
    // Not remembered: the next call tries again.
    await expect(unusable.api.endpoints.get("abc")).rejects.toThrow("apiKey is empty");
    await unusable.close();
  });
});
