/**
 * examples/gated-rollout through the real engine against the emulator, as its README runs it: the
 * example's own program and worker handlers, through the management API v2; version 1.0 serves,
 * version 2.0 fails its candidate check, version 3.0 passes it but fails after the switch and is
 * moved back; declaring 1.0 again settles it; destroy leaves nothing.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program } from "../../examples/gated-rollout/program";
import { JobClient } from "../../client/jobClient";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, countsOf, emulatorConfig } from "./provider-support";

const HANDLERS = path.join(__dirname, "..", "..", "examples", "gated-rollout", "handlers");

describe("examples/gated-rollout, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: JobClient;

  beforeAll(async () => {
    emu = await startEmulator({
      timeScale: 0.02,
      handlers: Object.fromEntries(["1.0", "2.0", "3.0"].map((v) => [`example/rollout-model:${v}`, path.join(HANDLERS, `model-${v}.cjs`)])),
    });
    jobs = new JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: "gpucloud-gated-rollout",
      stackName: "dev",
      program: async () => program(),
      config: emulatorConfig(emu, emu.apiKey, "v2"),
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await jobs?.close();
    await emu?.close();
  });

  const useVersion = (version: string) => engine.stack.setConfig("gpucloud-gated-rollout:version", { value: version });
  const failedUp = async (): Promise<string> => {
    const thrown = await engine.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown, "pulumi up should have failed").toBeInstanceOf(Error);
    return (thrown as Error).message;
  };
  async function answer(): Promise<unknown> {
    const endpoint = accountOf(emu).endpoints.find((e) => e.name === "inference");
    const job = await jobs.runSync(endpoint!.id, { input: { prompt: "hello" } });
    return job.output;
  }

  it("serves version 1.0, refuses 2.0 at the canary, moves back from 3.0, and settles on 1.0", async () => {
    const first = await engine.stack.up();
    expect(first.outputs["servingVersion"]?.value).toBe("1.0");
    expect(await answer()).toEqual({ version: "1.0", text: "echo: hello" });

    await useVersion("2.0");
    expect(await failedUp()).toContain("version 2.0 failed its candidate check, so the serving endpoint was not touched");
    expect(await answer()).toEqual({ version: "1.0", text: "echo: hello" });

    await useVersion("3.0");
    expect(await failedUp()).toContain(
      "version 3.0 failed its check on the serving endpoint after the switch, so the endpoint was moved back to version 1.0",
    );
    expect(await answer()).toEqual({ version: "1.0", text: "echo: hello" });

    await useVersion("1.0");
    const settled = await engine.stack.up();
    expect(settled.outputs["servingVersion"]?.value).toBe("1.0");
    // The versions that failed are gone; only the serving one is left (beside the endpoint's own v2 copy).
    expect(
      accountOf(emu)
        .templates.map((t) => t.name)
        .filter((n) => n.startsWith("rollout-model-")),
    ).toEqual(["rollout-model-1.0"]);
  });

  it("leaves nothing behind after destroy", async () => {
    await engine.stack.destroy();
    expect(countsOf(accountOf(emu))).toMatchObject({ endpoints: 0, templates: 0 });
  });
});
