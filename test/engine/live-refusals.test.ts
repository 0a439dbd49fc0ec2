/**
 * The live service's refusals through the real engine, each failing `up` with a message that says
 * what to do, not a stack trace: the retired REST v1 API (emulator --v1-retired: 410 from every
 * /v1 call), an API key without the operation's scope (403), and the account's hourly spend cap (402).
 */
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();
const L4 = "NVIDIA L4";

/** No provider stack frames in what the user sees. */
function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/\n\s+at .+\((\/|node:).+:\d+:\d+\)/);
}

describe("the live service's refusals through the real engine", { timeout: 300_000 }, () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  async function stackFor(projectName: string, config: ReturnType<typeof emulatorConfig>): Promise<EngineStack> {
    const engine = await createEngineStack({
      projectName,
      config,
      program: async () => {
        const pod = new gpucloud.Pod("refused", { imageName: "example/app:1", gpuTypeIds: [L4], dataCenterIds: ["EU-RO-1"] });
        return { podId: pod.id };
      },
    });
    cleanup.push(() => engine.dispose());
    return engine;
  }

  it("a provider pointed at a retired /v1 fails up saying v1 is retired and how to set gpucloud:apiUrl to /v2", async () => {
    const emulator = await startEmulator({ port: 0, timeScale: 0.01, v1Retired: true });
    cleanup.push(() => emulator.close());
    const engine = await stackFor("v1-retired", emulatorConfig(emulator));
    await expect(engine.stack.up()).rejects.toThrow(/REST v1 API is retired/);
    const output = engine.output();
    expect(output).toMatch(/410 Gone/);
    expect(output).toContain("pulumi config set gpucloud:apiUrl https://<api host>/v2");
    expect(output).toContain(`use the management API v2 at ${emulator.apiUrlV2}`);
    expectNoStackTrace(output);
    expect(accountOf(emulator).pods).toEqual([]);
  });

  it("on v2, a key without pods:write fails up naming the operation and the scope; the spend cap fails it naming the cap", async () => {
    const emulator = await startEmulator({
      port: 0,
      timeScale: 0.01,
      spendCapPerHour: 0.2,
      apiKeys: ["full-key", { key: "read-only-key", scopes: ["pods:read", "catalog:read", "templates:read", "account:read"] }],
    });
    cleanup.push(() => emulator.close());

    const readOnly = await stackFor("scope-refused", emulatorConfig(emulator, "read-only-key", "v2"));
    await expect(readOnly.stack.up()).rejects.toThrow(/needs the API key scope "pods:write"/);
    expect(readOnly.output()).toContain('The API key lacks the scope "pods:write" that');
    expectNoStackTrace(readOnly.output());

    const capped = await stackFor("spend-capped", emulatorConfig(emulator, "full-key", "v2"));
    await expect(capped.stack.up()).rejects.toThrow(/spend cap/);
    expect(capped.output()).toMatch(/402 Payment Required/);
    expect(capped.output()).toContain("its hourly spend cap of $0.20/hour");
    expectNoStackTrace(capped.output());
    expect(accountOf(emulator, "full-key").pods).toEqual([]);
  });
});
