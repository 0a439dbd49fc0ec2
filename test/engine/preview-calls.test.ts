/**
 * A preview, and an up, of unchanged resources make one management call, the connection check
 * (client/connectionProof.ts: once per provider process, whatever the number of resources), counted from outside the
 * provider by a proxy in front of the emulator's v2 API. The stack holds endpoints declared without
 * `gpuTypeIds`, whose estimate is "unavailable" whatever the catalog says: it is decided from the
 * arguments before any catalog is read (it used to read `/catalog/gpus` and `/catalog/cpus` at every
 * check), beside one priced endpoint, whose recorded estimate is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { countingProxy, type CountingProxy } from "../../scripts/lib/countingProxy";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { loadSdk } from "./provider-support";

const gpucloud = loadSdk();
/** The connection check's one read of the management API. */
const PROOF = "GET /api/v2/catalog/datacenters";

describe("management calls of an unchanged stack, on v2", { timeout: 300_000 }, () => {
  const apiKey = "preview-calls-key";
  let emulator: RunningEmulator;
  let proxy: CountingProxy;
  let engine: EngineStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [apiKey] });
    proxy = await countingProxy(emulator.apiUrlV2);
    engine = await createEngineStack({
      projectName: "preview-calls",
      config: {
        "gpucloud:apiUrl": { value: `${proxy.url}${new URL(emulator.apiUrlV2).pathname}` },
        "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
        "gpucloud:apiKey": { value: apiKey, secret: true },
      },
      program: async () => {
        const template = new gpucloud.Template("worker", {
          name: "calls-worker",
          imageName: "example/echo-worker:1.0",
          isServerless: true,
        });
        for (let i = 0; i < 3; i++) new gpucloud.Endpoint(`untyped-${i}`, { templateId: template.id, workersMin: 0, workersMax: 1 });
        const priced = new gpucloud.Endpoint("priced", {
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: 1,
        });
        return { pricedEstimate: priced.costEstimate };
      },
    });
    await engine.stack.up();
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await proxy?.close();
    await emulator?.close();
  });

  it("previews with one call, the connection check", async () => {
    proxy.take();
    await engine.stack.preview({ expectNoChanges: true });
    expect(proxy.take().map((c) => `${c.method} ${c.path}`)).toEqual([PROOF]);
  });

  it("runs a no-change up with one call, the connection check", async () => {
    proxy.take();
    const up = await engine.stack.up();
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect(proxy.take().map((c) => `${c.method} ${c.path}`)).toEqual([PROOF]);
  });
});
