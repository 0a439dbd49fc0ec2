/**
 * The examples no other engine test runs, each as its README runs it: the example's own program on
 * the emulator's management API v2 (the URL the README sets), `up` succeeds, a second look finds
 * nothing to do, and `destroy` succeeds. load-balancing-endpoint and serverless-smoke-tests run their
 * smoke tests on the emulator's built-in echo workers; private-registry takes the README's registry
 * settings; adopt-existing-endpoint adopts a template and an endpoint made beforehand with the
 * management API, as the README makes them, and leaves them running on destroy (retainOnDelete).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program as adoptExisting } from "../../examples/adopt-existing-endpoint/program";
import { program as loadBalancing } from "../../examples/load-balancing-endpoint/program";
import { program as privateRegistry } from "../../examples/private-registry/program";
import { program as smokeTests } from "../../examples/serverless-smoke-tests/program";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig } from "./provider-support";

type ConfigMap = NonNullable<Parameters<typeof createEngineStack>[0]["config"]>;

describe("the other examples, on the v2 URL their READMEs give", { timeout: 600_000 }, () => {
  let emu: RunningEmulator;

  beforeAll(async () => {
    emu = await startEmulator({ timeScale: 0.01 });
  });

  afterAll(async () => {
    await emu?.close();
  });

  /** up, a clean second preview, destroy: the example's program in its own project and stack. */
  async function runsAsItsReadmeSays(projectName: string, program: () => unknown, extra: ConfigMap = {}): Promise<Record<string, unknown>> {
    const config = emulatorConfig(emu, emu.apiKey, "v2");
    expect(config["gpucloud:apiUrl"]?.value).toMatch(/\/api\/v2$/);
    const engine: EngineStack = await createEngineStack({
      projectName,
      stackName: "dev",
      program: async () => program() as Record<string, unknown>,
      config: { ...config, ...extra },
    });
    try {
      const up = await engine.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).not.toHaveProperty("update");
      const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value as unknown]));
      expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
      return outputs;
    } finally {
      await engine.dispose();
    }
  }

  it("load-balancing-endpoint deploys and its smoke-test requests pass", async () => {
    const outputs = await runsAsItsReadmeSays("gpucloud-load-balancing-endpoint", loadBalancing);
    expect(outputs["smokeTests"]).toEqual(expect.arrayContaining([expect.objectContaining({ passed: true })]));
    expect(accountOf(emu).endpoints).toEqual([]);
  });

  it("serverless-smoke-tests deploys and its cases pass", async () => {
    const outputs = await runsAsItsReadmeSays("gpucloud-serverless-smoke-tests", smokeTests);
    const results = outputs["smokeTests"] as { passed: boolean }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.passed)).toBe(true);
    expect(accountOf(emu).endpoints).toEqual([]);
  });

  it("serverless-smoke-tests with failWithLog fails its up on the case, showing the worker's last log lines", async () => {
    const engine = await createEngineStack({
      projectName: "gpucloud-serverless-smoke-tests",
      stackName: "fails",
      program: async () => smokeTests() as Record<string, unknown>,
      config: { ...emulatorConfig(emu, emu.apiKey, "v2"), "gpucloud-serverless-smoke-tests:failWithLog": { value: "true" } },
    });
    try {
      const failure = await engine.stack.up().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, "pulumi up should have failed").toBeInstanceOf(Error);
      const message = (failure as Error).message;
      expect(message).toMatch(/case "load-model": job \S+ ended FAILED/);
      expect(message).toMatch(/last \d+ line\(s\) of the log of worker \S+ of endpoint \S+:/);
      expect(message).toContain("[container] loading weights from /models/llama-8b");
      expect(message).toContain("[container] RuntimeError: CUDA out of memory");
      expect(message).toMatch(/read more: GET \S+\/serverless\/\S+\/workers\/\S+\/logs\?tail=1000/);
      expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
    } finally {
      await engine.dispose();
    }
  });

  it("private-registry deploys with the README's registry settings", async () => {
    await runsAsItsReadmeSays("gpucloud-private-registry", privateRegistry, {
      "gpucloud-private-registry:registryUsername": { value: "acme-bot" },
      "gpucloud-private-registry:registryPassword": { value: "ghp_example_token", secret: true },
    });
    expect(accountOf(emu).registryAuths).toEqual([]);
  });

  it("adopt-existing-endpoint adopts what the README makes with the management API, and leaves it on destroy", async () => {
    const post = async (path: string, body: unknown): Promise<string> => {
      const res = await fetch(`${emu.apiUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBeLessThan(300);
      return ((await res.json()) as { id: string }).id;
    };
    const templateId = await post("/templates", { name: "legacy-worker", imageName: "example/echo-worker:0.9", isServerless: true });
    const endpointId = await post("/endpoints", { name: "legacy-inference", templateId, workersMax: 1 });
    await runsAsItsReadmeSays("gpucloud-adopt-existing-endpoint", adoptExisting, {
      "gpucloud-adopt-existing-endpoint:templateId": { value: templateId },
      "gpucloud-adopt-existing-endpoint:endpointId": { value: endpointId },
    });
    const endpoint = accountOf(emu).endpoints.find((e) => e.id === endpointId);
    expect(endpoint?.workersMax).toBe(3);
    expect(accountOf(emu).templates.find((t) => t.id === templateId)?.imageName).toBe("example/echo-worker:1.0");
  });
});
