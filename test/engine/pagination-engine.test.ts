/**
 * An account whose v2 lists span several pages (the emulator answers two items a page), through the
 * real engine: a stack of three pods, three templates and three endpoints, beside resources made
 * outside it, goes up; a template looked up by name sits on the third page of its list; a preview
 * right after shows no changes and a refresh finds every resource as it was (a reader of page one
 * only would find the older resources gone). Destroy leaves the resources made outside alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClientV2 } from "../../client/managementV2";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { emulatorConfig, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

describe("a v2 account of several pages through the real engine", { timeout: 300_000 }, () => {
  const tag = marker();
  const apiKey = `gpc_emu_pages_key_${tag}`;
  let emulator: RunningEmulator;
  let client: ManagementClientV2;
  let engine: EngineStack;
  let farTemplateId = "";

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey], pageSize: 2 });
    client = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey });
    // Made outside the stack: the oldest template is on page 3 of the template list.
    farTemplateId = (await client.templates.create({ name: `far-${tag}`, image: "example/far:1" })).id;
    for (let i = 0; i < 4; i++) await client.templates.create({ name: `outside-${i}-${tag}`, image: "example/outside:1" });
    for (let i = 0; i < 3; i++)
      await client.pods.create({ name: `outside-${i}`, image: "example/outside:1", gpu: { id: "NVIDIA L4", count: 1 } });
    engine = await createEngineStack({
      projectName: "pages-v2",
      config: emulatorConfig(emulator, apiKey, "v2"),
      program: async () => {
        const far = await gpucloud.getTemplate({ name: `far-${tag}` });
        const out: Record<string, unknown> = { farId: far.id };
        for (let i = 0; i < 3; i++) {
          const pod = new gpucloud.Pod(`pod-${i}`, {
            name: `pod-${i}`,
            imageName: "example/app:1",
            gpuTypeIds: ["NVIDIA L4"],
            ports: ["8888/http"],
          });
          const template = new gpucloud.Template(`template-${i}`, {
            name: `worker-${i}-${tag}`,
            imageName: `example/worker:${i}`,
            isServerless: true,
          });
          const endpoint = new gpucloud.Endpoint(`endpoint-${i}`, {
            name: `endpoint-${i}-${tag}`,
            templateId: template.id,
            gpuTypeIds: ["NVIDIA L4"],
            workersMin: 0,
            workersMax: 2,
          });
          out[`pod${i}`] = pod.id;
          out[`endpoint${i}`] = endpoint.id;
        }
        return out;
      },
    });
  });

  afterAll(async () => {
    try {
      await engine?.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await client?.close();
      await emulator?.close();
    }
  });

  it("up, a clean preview and a clean refresh; the lookup by name finds a template on page 3", async () => {
    const firstPage = await fetch(`${emulator.apiUrlV2}/templates`, { headers: { authorization: `Bearer ${apiKey}` } });
    const firstBody = (await firstPage.json()) as { templates: Array<{ id: string }>; pagination: { hasNextPage: boolean } };
    expect(firstBody.templates.map((t) => t.id)).not.toContain(farTemplateId);
    expect(firstBody.pagination.hasNextPage).toBe(true);

    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs["farId"]?.value).toBe(farTemplateId);
    expect(up.summary.resourceChanges).toMatchObject({ create: 10 });

    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 10 });

    const refresh = await engine.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: 10 });
    expect(declaredResources(await engine.exportState())).toHaveLength(9);

    const destroy = await engine.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    // What was made outside the stack is still there: five templates, three pods.
    expect((await client.templates.list()).filter((t) => t.name?.endsWith(tag) && !t.name.startsWith("worker-"))).toHaveLength(5);
    expect((await client.pods.list()).filter((p) => p.name?.startsWith("outside-"))).toHaveLength(3);
  });
});
