/**
 * A failing lookup through the real engine is one clear error: what was looked up, the id or name,
 * and the cause; no stack trace, no error object dump (HTTP headers), no unhandled-rejection
 * warnings. Both forms: the Output form exported, the Promise form awaited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack } from "../support/engineStack";
import { emulatorConfig, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

describe("a failing lookup is one clear error", { timeout: 300_000 }, () => {
  const tag = marker();
  const apiKey = `gpc_emu_lookup_failure_${tag}`;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  const cases = [
    {
      name: "getPodOutput of an id that does not exist",
      program: async () => ({ image: gpucloud.getPodOutput({ id: "nosuchpod123" }).imageName }),
      config: () => emulatorConfig(emulator, apiKey, "v2"),
      says: /getPod: no pod with id "nosuchpod123"/,
    },
    {
      name: "getTemplate by a name that does not exist",
      program: async () => ({ image: (await gpucloud.getTemplate({ name: `nope-${tag}` })).imageName }),
      config: () => emulatorConfig(emulator, apiKey, "v2"),
      says: new RegExp(`getTemplate: no template with name "nope-${tag}"`),
    },
    {
      name: "getEndpointOutput with a key the service refuses",
      program: async () => ({ workers: gpucloud.getEndpointOutput({ id: "someendpoint" }).workersMax }),
      config: () => emulatorConfig(emulator, "not-a-key-of-this-emulator", "v2"),
      says: /getEndpoint \{"id":"someendpoint"\}: .*(401|API key)/,
    },
  ];

  it.each(cases)("$name", async ({ program, config, says }) => {
    const engine = await createEngineStack({ projectName: `lookup-failures-${tag}`, config: config(), program });
    try {
      const error = await engine.stack.up().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      const text = engine.output();
      // The Diagnostics section: one error, the lookup's. (The automation API's inline-program
      // host logs a program's error and then reports it as the run's result: the same line twice.)
      const diagnostics = text.slice(text.indexOf("Diagnostics:"));
      const errors = new Set(
        diagnostics
          .split("\n")
          .filter((line) => /^\s*error: /.test(line))
          .map((line) => line.trim()),
      );
      expect([...errors], text).toEqual([expect.stringMatching(says)]);
      expect(text).not.toMatch(/PromiseRejectionHandledWarning|unhandled exception|\n\s+at [^\n]+:\d+:\d+\)?/);
      expect(text).not.toMatch(/\.ts:\d+/);
      expect(text).not.toMatch(/headers|authorization/i);
      expect(text).not.toContain(apiKey);
    } finally {
      await engine.dispose();
    }
  });
});
