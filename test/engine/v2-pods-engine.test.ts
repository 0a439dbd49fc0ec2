/**
 * Pods on the service's v2 API through the real engine: a templated pod whose create answer is
 * lost is found again (the service keeps no link from a pod to its template) and never made twice;
 * a start command and entrypoint whose elements hold blanks give a clean preview after `up`; a pod
 * whose container failed (ERROR) is started again by `up --refresh`; and adding persistent storage
 * to a pod created without it is planned as a replacement, with the reason in the preview.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk } from "./provider-support";

const gpucloud = loadSdk();

describe("v2 pods through the real engine", { timeout: 300_000 }, () => {
  const phase = { volumeInGb: undefined as number | undefined };
  let emulator: RunningEmulator;
  let engine: EngineStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001 });
    engine = await createEngineStack({
      projectName: "v2-pods",
      // The lost create's resolution it reads is progress detail, printed with gpucloud:verbose.
      config: { ...emulatorConfig(emulator, emulator.apiKey, "v2"), "gpucloud:verbose": { value: "true" } },
      program: async () => {
        const template = new gpucloud.Template("base", {
          name: "v2-pods-base",
          imageName: "ghcr.io/acme/notebook:1",
          ports: ["8888/http"],
        });
        const templated = new gpucloud.Pod("templated", { name: "v2-templated", templateId: template.id, gpuTypeIds: ["NVIDIA L4"] });
        const command = new gpucloud.Pod("command", {
          name: "v2-command",
          imageName: "python:3.12",
          gpuTypeIds: ["NVIDIA L4"],
          ports: ["8000/http"],
          dockerEntrypoint: ["bash", "-c"],
          dockerStartCmd: ["python -m http.server 8000 --bind '0.0.0.0'"],
          ...(phase.volumeInGb !== undefined ? { volumeInGb: phase.volumeInGb } : {}),
        });
        return { templatedId: templated.id, commandId: command.id };
      },
    });
  });

  afterAll(async () => {
    try {
      await engine?.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await emulator?.close();
    }
  });

  it("a templated pod whose create answer is lost is found again, never created twice; blanks inside command elements give a clean preview", async () => {
    emulator.setFaults("createPod: lost=1");
    try {
      const up = await engine.stack.up();
      expect(up.summary.result).toBe("succeeded");
    } finally {
      emulator.setFaults(undefined);
    }
    expect(emulator.faultStats().byOperation["createPod"]?.lost).toBeGreaterThanOrEqual(2);
    const pods = accountOf(emulator).pods;
    expect(pods.filter((p) => p.name === "v2-templated")).toHaveLength(1);
    expect(pods.filter((p) => p.name === "v2-command")).toHaveLength(1);
    const command = pods.find((p) => p.name === "v2-command");
    expect(command?.dockerEntrypoint).toEqual(["bash", "-c"]);
    expect(command?.dockerStartCmd).toEqual(["python -m http.server 8000 --bind '0.0.0.0'"]);
    const state = declaredResources(await engine.exportState());
    expect(state.find((r) => r.urn.endsWith("::templated"))?.id).toBe(pods.find((p) => p.name === "v2-templated")?.id);
    expect(engine.output()).toMatch(
      /pod "v2-templated": the create got no clear answer [\s\S]* pod "v2-templated": the service did make it \(id [^)]+\): using it/,
    );
    expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 4 });
  });

  it("a pod in ERROR is started again by up --refresh", async () => {
    const id = accountOf(emulator).pods.find((p) => p.name === "v2-command")?.id ?? "";
    emulator.failPod(id);
    const res = await fetch(`${emulator.apiUrlV2}/pods/${id}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
    expect(((await res.json()) as { status: string }).status).toBe("ERROR");
    const up = await engine.stack.up({ refresh: true });
    expect(up.summary.result).toBe("succeeded");
    expect(accountOf(emulator).pods.find((p) => p.id === id)?.desiredStatus).toBe("RUNNING");
    expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 4 });
  });

  it("adding persistent storage to a pod created without it is planned as a replacement, saying why", async () => {
    phase.volumeInGb = 20;
    const preview = await engine.stack.preview({ diff: true });
    expect(preview.changeSummary).toMatchObject({ replace: 1, same: 3 });
    expect(`${preview.stdout}\n${preview.stderr}`).toMatch(/fixes a pod's mount kind at create/);
  });
});
