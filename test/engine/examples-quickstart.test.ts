/**
 * examples/quickstart through the real engine against the emulator: the example's own program
 * (examples/quickstart/program.ts, which imports `pulumi-gpucloud`, resolved here to this checkout
 * through node_modules/pulumi-gpucloud) deploys, is stable on a second look, and destroys cleanly,
 * through the management API v2 as the example's README configures it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program } from "../../examples/quickstart/program";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";

/** How Pulumi marks a secret value in an exported deployment. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

/** The text of every file the file:// backend wrote (checkpoints and their backups). */
function stateFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
}

describe("examples/quickstart, through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.02 });
    engine = await createEngineStack({
      projectName: "gpucloud-quickstart",
      stackName: "dev",
      program: async () => program(),
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrlV2 },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
        "gpucloud-quickstart:jupyterToken": { value: "engine-test-token", secret: true },
      },
    });
  });

  afterAll(async () => {
    await engine?.dispose();
    await emu?.close();
  });

  it("deploys the volume, pod, template and endpoint; a second look finds nothing to do; destroy removes them", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 5 }); // four resources and the stack

    const [account] = emu.inspect();
    expect(account?.networkVolumes).toHaveLength(1);
    expect(account?.pods).toHaveLength(1);
    expect(account?.endpoints).toHaveLength(1);
    const volume = account!.networkVolumes[0]!;
    const pod = account!.pods[0]!;
    const endpoint = account!.endpoints[0]!;
    // v2 copies the template into one the endpoint owns (templateId is a snapshot there).
    const templateNames = account?.templates.map((t) => t.name);
    expect(templateNames).toHaveLength(2);
    expect(templateNames).toEqual(expect.arrayContaining(["quickstart-dev-worker", expect.stringContaining(endpoint.id)]));
    expect(volume).toMatchObject({ name: "quickstart-dev-models", size: 50, dataCenterId: "EU-RO-1" });
    expect(pod).toMatchObject({ name: "quickstart-dev-notebook", desiredStatus: "RUNNING" });
    expect(pod.env).toMatchObject({ JUPYTER_TOKEN: "engine-test-token" });
    expect(endpoint).toMatchObject({ name: "quickstart-dev-inference", workersMin: 0, workersMax: 2 });

    const outputs = up.outputs;
    expect(outputs["volumeId"]?.value).toBe(volume.id);
    expect(outputs["podId"]?.value).toBe(pod.id);
    expect(outputs["endpointId"]?.value).toBe(endpoint.id);
    expect(outputs["podCostPerHr"]?.value).toBeGreaterThan(0);
    expect(outputs["sshAddress"]?.value).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+$/);
    expect(typeof outputs["sshPort"]?.value).toBe("number");
    // The pod mounts the volume; the token was given as a secret, so it is encrypted in state.
    const state = await engine.exportState();
    const podState = declaredResources(state).find((r) => r.type === "pulumi-nodejs:dynamic/gpucloud:Pod");
    expect(podState?.outputs?.["networkVolumeId"]).toBe(volume.id);
    expect(podState?.outputs?.["env"]).toMatchObject({ JUPYTER_TOKEN: { [SECRET_SIG]: SECRET_VALUE } });
    const stored = stateFiles(path.join(path.dirname(engine.workDir), "state"));
    expect(stored.some((text) => text.includes(pod.id))).toBe(true);
    expect(stored.filter((text) => text.includes("engine-test-token"))).toEqual([]);

    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 5 });

    const destroy = await engine.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
    expect(declaredResources(await engine.exportState())).toEqual([]);
    const [after] = emu.inspect();
    expect([after?.pods.length, after?.endpoints.length, after?.templates.length, after?.networkVolumes.length]).toEqual([0, 0, 0, 0]);
  });
});
