// The catalog lookups read v2's /catalog and refuse the v1 API with the fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ConfigError } from "../../client/config";
import { getCpuTypes, getDataCenters, getGpuTypes } from "../../sdk/catalog";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.001 });
});
afterAll(() => emulator.close());

describe("catalog lookups", () => {
  it("list GPU types with their serverless pools, CPU flavors and data centers on v2", async () => {
    const options = { apiUrl: emulator.apiUrlV2, apiKey: emulator.apiKey };
    const gpus = await getGpuTypes(options);
    expect(gpus.find((g) => g.id === "NVIDIA L4")).toMatchObject({ id: "NVIDIA L4", pool: expect.any(String) });
    expect((await getCpuTypes(options)).map((c) => c.id)).toContain("cpu3c");
    expect((await getDataCenters(options)).map((d) => d.id)).toContain("EU-RO-1");
  });

  it("need the v2 API: on a /v1 URL they fail naming the setting and the fix", async () => {
    const error = await getGpuTypes({ apiUrl: emulator.apiUrl, apiKey: emulator.apiKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "getGpuTypes needs the service's v2 API, but the management URL ends in /v1: set gpucloud:apiUrl (or the apiUrl of the lookup or of its provider) to the /v2 URL.",
    );
  });
});
