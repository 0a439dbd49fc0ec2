// readPodLog / readWorkerLog (sdk/logs.ts) against the emulator: the connection from the options,
// the v1 API refused with the fix, the lines as the client reads them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ConfigError, readPodLog, readWorkerLog } from "../../sdk/index";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ timeScale: 0.01 });
});
afterAll(() => emu.close());

describe("readPodLog and readWorkerLog", () => {
  it("read a pod's last lines through the v2 API named in the options", async () => {
    const res = await fetch(`${emu.apiUrlV2}/pods`, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "p", image: "example/app:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } }),
    });
    const pod = (await res.json()) as { id: string };
    emu.writePodLog(pod.id, "serving on :8000");
    const log = await readPodLog(pod.id, { apiUrl: emu.apiUrlV2, apiKey: emu.apiKey, lines: 1, source: "container" });
    expect(log.lines.map((l) => l.line)).toEqual(["serving on :8000"]);
    expect(log.url).toBe(`${emu.apiUrlV2}/pods/${pod.id}/logs`);
  });

  it("refuse the v1 API, naming the setting and the fix, before sending anything", async () => {
    const error = await readWorkerLog("ep", "w", { apiUrl: emu.apiUrl, apiKey: emu.apiKey }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).setting).toBe("gpucloud:apiUrl");
    expect((error as Error).message).toMatch(/management API v2.*is the v1 API: give the \/v2 URL/);
  });
});
