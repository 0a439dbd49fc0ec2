/**
 * The provider plugin through the real engine against the emulator, on each management API (the
 * two stacks share nothing and run side by side): a template, an endpoint on it and a pod under
 * the stack's default provider, and a template under an explicit provider with its own apiUrl and
 * API key (a second account). Up; a preview with no changes; in-place updates planned and shown
 * field by field (`--diff`); a replacement planned as such; destroy. Along the way: a lookup
 * served by the plugin, progress attached to its resource, and no credential in the state.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import * as pulumi from "@pulumi/pulumi";
import { describe, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { invoke, PluginResource, pluginProjectSettings, pluginProvider } from "../support/pluginProgram";
import { findSecrets, rawBackendFiles } from "../support/reliability";
import { API_VERSIONS, accountOf, emulatorConfig, isCiphertext, marker, rawResources } from "./provider-support";

describe("the provider plugin through the real engine", { timeout: 600_000 }, () => {
  it.concurrent.for(API_VERSIONS)(
    "on the %s API: up, no changes, updates and a replacement planned as such, an explicit provider, destroy",
    async (api, { expect }) => {
      const started = Date.now();
      const tag = marker();
      const keyA = `plugin-lifecycle-a-${tag}`;
      const keyB = `plugin-lifecycle-b-${tag}`;
      const token = `template-token-${tag}`;
      const emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [keyA, keyB] });
      const apiUrl = api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl;
      const phase = { podImage: "ghcr.io/acme/trainer:1", workersMax: 2, cloudType: "SECURE" };
      const engine = await createEngineStack({
        projectName: `plugin-lifecycle-${api}`,
        config: emulatorConfig(emulator, keyA, api),
        projectSettings: pluginProjectSettings(),
        program: async () => {
          const template = new PluginResource(
            "Template",
            "worker",
            {
              name: `worker-${tag}`,
              imageName: "ghcr.io/acme/worker:1",
              isServerless: true,
              env: { MODEL: "m", TOKEN: pulumi.secret(token) },
            },
            undefined,
            ["revision"],
          );
          const endpoint = new PluginResource(
            "Endpoint",
            "inference",
            {
              templateId: template.id,
              // With the plugin an endpoint follows its template's revision when told to (v2).
              ...(api === "v2" ? { templateRevision: template.out("revision") } : {}),
              gpuTypeIds: ["NVIDIA L4"],
              workersMin: 0,
              workersMax: phase.workersMax,
            },
            undefined,
            ["endpointId"],
          );
          const pod = new PluginResource("Pod", "trainer", {
            imageName: phase.podImage,
            gpuTypeIds: api === "v2" ? ["NVIDIA L4"] : ["NVIDIA L4", "NVIDIA A40"],
            cloudType: phase.cloudType,
            env: { LOG_LEVEL: "info" },
          });
          const second = pluginProvider("second", { apiUrl, apiKey: pulumi.secret(keyB) });
          const elsewhere = new PluginResource(
            "Template",
            "elsewhere",
            { name: `elsewhere-${tag}`, imageName: "ghcr.io/acme/other:1" },
            { provider: second },
          );
          const lookedUp = invoke<{ imageName: string }>("getTemplate", { id: template.id });
          return { podId: pod.id, endpointId: endpoint.out("endpointId"), elsewhereId: elsewhere.id, lookedUpImage: lookedUp.imageName };
        },
      });
      const times: Record<string, number> = {};
      const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
        const start = Date.now();
        try {
          return await run();
        } finally {
          times[label] = Math.round((Date.now() - start) / 100) / 10;
        }
      };
      const names = (apiKey: string) => {
        const account = accountOf(emulator, apiKey);
        return {
          pods: account.pods.map((p) => p.imageName),
          endpoints: account.endpoints.map((e) => e.workersMax),
          templates: account.templates.map((t) => t.name).filter((n) => n.includes(tag)),
        };
      };
      try {
        const events: EngineEvent[] = [];
        const up = await timed("up", () => engine.stack.up({ onEvent: (e) => events.push(e) }));
        expect(up.summary.result).toBe("succeeded");
        expect(up.summary.resourceChanges?.["create"]).toBeGreaterThanOrEqual(6);
        expect(names(keyA)).toEqual({ pods: ["ghcr.io/acme/trainer:1"], endpoints: [2], templates: [`worker-${tag}`] });
        // The explicit provider's resource went to its own account, not the stack's.
        expect(names(keyB)).toEqual({ pods: [], endpoints: [], templates: [`elsewhere-${tag}`] });
        expect(up.outputs["lookedUpImage"]?.value).toBe("ghcr.io/acme/worker:1");
        // Progress is shown under the resource it concerns.
        const podLines = events.filter((e) => e.diagnosticEvent?.urn?.endsWith("::trainer")).map((e) => e.diagnosticEvent?.message ?? "");
        expect(podLines.join("\n")).toContain('pod "trainer"');

        const state = declaredResources(await engine.exportState());
        expect(state.map((r) => r.type).sort()).toEqual([
          "gpucloud:index:Endpoint",
          "gpucloud:index:Pod",
          "gpucloud:index:Template",
          "gpucloud:index:Template",
        ]);
        for (const resource of state) expect(resource.outputs?.["__provider"]).toBeUndefined();
        const raw = rawResources(engine.rawStateFile());
        expect(isCiphertext(raw.find((r) => r.urn.endsWith("::worker"))?.outputs?.["env"])).toBe(true);
        expect(isCiphertext(raw.find((r) => r.urn.endsWith("pulumi:providers:gpucloud::second"))?.inputs?.["apiKey"])).toBe(true);
        expect(
          findSecrets(
            [...rawBackendFiles(engine).map((f) => ({ where: f.file, text: f.text })), { where: "output", text: engine.output() }],
            [keyA, keyB, token],
          ),
        ).toEqual([]);

        const unchanged = await timed("preview (no changes)", () => engine.stack.preview({ expectNoChanges: true }));
        expect(unchanged.changeSummary).not.toHaveProperty("update");

        // In place: the endpoint's workersMax and the pod's image, shown as exactly those fields.
        phase.workersMax = 3;
        phase.podImage = "ghcr.io/acme/trainer:2";
        let diffText = "";
        const planned = await timed("preview --diff (updates)", () =>
          engine.stack.preview({ diff: true, onOutput: (out) => (diffText += out) }),
        );
        expect(planned.changeSummary).toMatchObject({ update: 2 });
        expect(planned.changeSummary).not.toHaveProperty("replace");
        expect(diffText).toMatch(/~ workersMax\s*:\s*2 => 3/);
        expect(diffText).toMatch(/~ imageName\s*:\s*"ghcr.io\/acme\/trainer:1" => "ghcr.io\/acme\/trainer:2"/);
        // Only the changed fields: not the values the service reported (the dynamic resources' --diff shows those as removed).
        expect(diffText).not.toMatch(/- (gpuTypeId|desiredStatus|costPerHr)\b/);
        const updated = await timed("up (updates)", () => engine.stack.up());
        expect(updated.summary.resourceChanges).toMatchObject({ update: 2 });
        expect(names(keyA)).toMatchObject({ pods: ["ghcr.io/acme/trainer:2"], endpoints: [3] });

        // A create-only field: a replacement, planned as one and named.
        phase.cloudType = "COMMUNITY";
        let replaceText = "";
        const replacing = await timed("preview --diff (replacement)", () =>
          engine.stack.preview({ diff: true, onOutput: (out) => (replaceText += out) }),
        );
        expect(replacing.changeSummary).toMatchObject({ replace: 1 });
        expect(replaceText).toMatch(/\+-gpucloud:index:Pod: \(replace\)[\s\S]*?::trainer\]/);
        expect(replaceText).toMatch(/~ cloudType\s*:\s*"SECURE" => "COMMUNITY"/);
        phase.cloudType = "SECURE";

        const destroyed = await timed("destroy", () => engine.stack.destroy());
        expect(destroyed.summary.result).toBe("succeeded");
        expect(names(keyA)).toEqual({ pods: [], endpoints: [], templates: [] });
        expect(names(keyB)).toEqual({ pods: [], endpoints: [], templates: [] });
        console.log(`[plugin lifecycle, ${api}] ${JSON.stringify(times)} s; whole test ${Math.round((Date.now() - started) / 1000)} s`);
      } finally {
        if (accountOf(emulator, keyA).pods.length + accountOf(emulator, keyA).endpoints.length > 0)
          await engine.stack.destroy().catch(() => undefined);
        await engine.dispose();
        await emulator.close();
      }
    },
  );
});
