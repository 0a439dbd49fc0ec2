/**
 * The ready policy pack (policy-pack/) through the real engine, as `pulumi preview --policy-pack
 * <dir> --policy-pack-config <file>` runs it (the automation API's `policyPacks`): the example
 * examples/platform-policy, a TypeScript program, is previewed against the emulator (v2) with the
 * example's policy config. The compliant stack passes with no violation; with `violations` set,
 * the preview fails with the five mandatory rules' messages and warns for the advisory one; nothing
 * is created either way. With no Node.js language host on this machine, the engine runs the pack
 * through the package's `pulumi-analyzer-policy-nodejs` plugin, which the project names in its
 * Pulumi.yaml (`plugins.analyzers`, as docs/policy.md shows): found so, it runs with no warning.
 * (policy-pack-python.test.ts finds the same plugin on PATH instead, beside the CLI.)
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program } from "../../examples/platform-policy/program";
import { createEngineStack, type EngineStack } from "../support/engineStack";

const repoRoot = path.resolve(__dirname, "..", "..");
const POLICY_PACK = path.join(repoRoot, "policy-pack");
const POLICY_CONFIG = path.join(repoRoot, "examples", "platform-policy", "policy-config.json");

/** The five mandatory violations the example's `violations` setting makes, one line each. */
const EXAMPLE_VIOLATIONS = [
  /Pod "notebook": imageName "example\/pytorch:latest" uses the tag latest/,
  /Pod "notebook": ports "6006\/tcp" opens a public TCP port other than SSH's/,
  /Pod "notebook": env\.HF_TOKEN "hf_\.\.\." \(\d+ characters, the rest withheld\) looks like a Hugging Face token/,
  /Endpoint "inference": gpuTypeIds \["NVIDIA H100 80GB HBM3"\] names "NVIDIA H100 80GB HBM3", not an allowed GPU type/,
  /Endpoint "inference": workersMin 3 is more than maxWorkersMin \(1\)/,
];

describe("the policy pack on a TypeScript program, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.02 });
    engine = await createEngineStack({
      projectName: "gpucloud-platform-policy",
      stackName: "dev",
      program: async () => program(),
      projectSettings: { plugins: { analyzers: [{ name: "policy-nodejs", path: path.join(POLICY_PACK, "bin") }] } },
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrlV2 },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
      },
    });
  });

  afterAll(async () => {
    await engine?.dispose();
    await emu?.close();
  });

  const policyOptions = { policyPacks: [POLICY_PACK], policyPackConfigs: [POLICY_CONFIG] };

  it("a compliant stack passes the pack's preview; five violations fail it with their messages and an advisory one warns; nothing is created", async () => {
    const compliant = await engine.stack.preview(policyOptions);
    const compliantOutput = engine.lastStep();
    expect(compliant.changeSummary, compliantOutput).toMatchObject({ create: expect.any(Number) });
    // The pack ran (it is listed) and found nothing.
    expect(compliant.stdout, compliantOutput).toMatch(/Policies:\s+✅ gpucloud@v0\.2\.0/);
    expect(compliant.stdout).not.toMatch(/\[mandatory\]|\[advisory\]/);
    expect(compliantOutput).not.toMatch(/warning:/); // the plugin came from Pulumi.yaml, not from $PATH

    await engine.stack.setConfig("gpucloud-platform-policy:violations", { value: "true" });
    const failed = await engine.stack.preview(policyOptions).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed, engine.lastStep()).toBeInstanceOf(Error);
    // The failed command's output (the error's message carries it).
    const output = (failed as Error).message;
    for (const message of EXAMPLE_VIOLATIONS) expect(output, engine.lastStep()).toMatch(message);
    // One rule each (the message repeats the command's output, so each line is counted once).
    expect(new Set(output.match(/\[mandatory\]\s+\S+/g)).size, output).toBe(EXAMPLE_VIOLATIONS.length);
    expect(output).toMatch(/\[advisory\]\s+gpucloud-deploy-safety/);
    expect(output).toMatch(/Endpoint "inference": type "QUEUE" is deployed with no smoke test/);

    const [account] = emu.inspect();
    expect([account?.pods ?? [], account?.endpoints ?? [], account?.networkVolumes ?? [], account?.templates ?? []]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });
});
