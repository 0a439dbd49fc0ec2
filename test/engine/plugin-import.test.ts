/**
 * `pulumi import` with the provider plugin, through the engine's import step: a pod and a template
 * (and on v2 an endpoint, which reports no templateId there) made directly through the emulator's
 * HTTP API (outside any stack) are adopted by a program that declares them with the `import`
 * resource option, on each management API. The import plans
 * nothing else (no update, no replacement), a following `preview --expect-no-changes` is clean, and
 * destroy deletes them. (`stack.import()` would need the nodejs language host, which the CLI used
 * here does not have; the engine's import step is the same with either.)
 */
import { describe, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { openManagementApi } from "../../model/backend/openApi";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";
import { API_VERSIONS, accountOf, emulatorConfig, marker } from "./provider-support";

describe("importing with the provider plugin through the real engine", { timeout: 600_000 }, () => {
  it.concurrent.for(API_VERSIONS)("on the %s API: import, no changes after, destroy", async (api, { expect }) => {
    const started = Date.now();
    const apiKey = `plugin-import-${marker()}`;
    const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    const { api: service, close } = openManagementApi({ baseUrl: api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl, apiKey });
    // What the program declares: what the service reports, as `pulumi import` would write it. On v1 the
    // service reports the GPU type a pod got, not the list it was asked for: the import leaves it out.
    const podArgs = {
      name: "legacy",
      imageName: "ghcr.io/acme/legacy:1",
      ...(api === "v2" ? { gpuTypeIds: ["NVIDIA L4"] } : {}),
      env: { MODE: "batch" },
      ports: ["8888/http"],
    };
    const templateArgs = { name: `legacy-template-${api}`, imageName: "ghcr.io/acme/legacy-worker:1", containerDiskInGb: 20 };
    const pod = await service.pods.create({ ...podArgs, gpuTypeIds: ["NVIDIA L4"] });
    const template = await service.templates.create(templateArgs);
    // v2 endpoints report neither their template nor the GPU types asked for (pools): the import
    // declares what they report, and needs no templateId to pass check.
    const worker = await service.templates.create({ name: `legacy-worker-${api}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
    const endpointArgs = { name: "legacy-endpoint", workersMax: 2, flashboot: false };
    const endpoint =
      api === "v2" ? await service.endpoints.create({ ...endpointArgs, templateId: worker.id, gpuTypeIds: ["NVIDIA L4"] }) : undefined;
    const imports = endpoint ? 3 : 2;
    const engine = await createEngineStack({
      projectName: `plugin-import-${api}`,
      config: emulatorConfig(emulator, apiKey, api),
      projectSettings: pluginProjectSettings(),
      program: async () => {
        new PluginResource("Pod", "legacy", podArgs, { import: pod.id });
        new PluginResource("Template", "legacy-template", templateArgs, { import: template.id });
        if (endpoint) new PluginResource("Endpoint", "legacy-endpoint", endpointArgs, { import: endpoint.id });
        return {};
      },
    });
    try {
      const up = await engine.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toEqual({ create: 1, import: imports });
      const state = declaredResources(await engine.exportState());
      expect(state.map((r) => [r.type, r.id]).sort()).toEqual(
        [
          ["gpucloud:index:Pod", pod.id],
          ["gpucloud:index:Template", template.id],
          ...(endpoint ? [["gpucloud:index:Endpoint", endpoint.id]] : []),
        ].sort(),
      );
      const imported = state.find((r) => r.id === pod.id);
      // The recorded inputs are the declared ones (with the estimate check adds), env without what the platform injected.
      const { costEstimate: _estimate, env, ...inputs } = imported?.inputs ?? {};
      const { env: declaredEnv, ...declared } = podArgs;
      expect(inputs).toEqual(declared);
      // env is kept secret (the exported state shows its plaintext under the secret marker).
      expect(JSON.parse(String((env as { plaintext?: string } | undefined)?.plaintext))).toEqual(declaredEnv);

      const preview = await engine.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).toEqual({ same: imports + 1 });

      const destroy = await engine.stack.destroy();
      expect(destroy.summary.resourceChanges).toEqual({ delete: imports + 1 });
      expect(accountOf(emulator, apiKey).pods.filter((p) => p.desiredStatus !== "TERMINATED")).toEqual([]);
      expect(accountOf(emulator, apiKey).endpoints).toEqual([]);
      // The endpoint's template was made outside the stack: not the stack's to delete.
      await service.templates.delete(worker.id).catch(() => undefined);
      expect(accountOf(emulator, apiKey).templates).toEqual([]);
      console.log(`[plugin import, ${api}] ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await close();
      await engine.dispose();
      await emulator.close();
    }
  });
});
