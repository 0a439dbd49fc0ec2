/**
 * EndpointRollout of a load-balancing endpoint through the real engine (v2 API, where the type is
 * native): the cases are HTTP requests to the canary's workers; a good version serves; a broken one
 * (healthy, but its generations answer 500) fails the up with the request, the status and the
 * response, while the serving endpoint keeps answering with the good version; destroy leaves nothing.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import * as gpucloud from "../../sdk";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, countsOf, emulatorConfig } from "./provider-support";

const IMAGES = { "1.0": "example/lb-model:1.0", "2.0": "example/lb-model:2.0-broken" } as const;
type Version = keyof typeof IMAGES;
const FIXTURES = path.join(__dirname, "fixtures");

describe("EndpointRollout of a load-balancing endpoint, through the real engine (v2)", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let jobs: gpucloud.JobClient;
  let version: Version = "1.0";

  beforeAll(async () => {
    emu = await startEmulator({
      timeScale: 0.02,
      serverless: { coldStartMs: 500 },
      handlers: {
        [IMAGES["1.0"]]: path.join(FIXTURES, "rollout-lb-server.cjs"),
        [IMAGES["2.0"]]: path.join(FIXTURES, "rollout-lb-broken.cjs"),
      },
    });
    jobs = new gpucloud.JobClient({ apiKey: emu.apiKey, serverlessUrl: emu.serverlessUrl });
    engine = await createEngineStack({
      projectName: "endpoint-rollout-lb",
      config: emulatorConfig(emu, emu.apiKey, "v2"),
      program: async () => {
        const rollout = new gpucloud.EndpointRollout("chat", {
          version,
          template: { name: "lb-model", imageName: IMAGES[version], isServerless: true },
          endpoint: { type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", scalerValue: 2, workersMin: 1, workersMax: 2 },
          cases: [
            {
              name: "generates",
              request: { method: "POST", path: "/v1/generate", body: { prompt: "hello" } },
              expect: { status: 200, bodySubset: { prompt: "hello" } },
              timeoutSeconds: 60,
            },
          ],
        });
        return {
          endpointId: rollout.endpointId,
          servingVersion: rollout.servingVersion,
          candidateResults: rollout.candidateResults,
          requestUrls: rollout.endpoint.requestUrls,
        };
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await jobs?.close();
    await emu?.close();
  });

  const serving = () => accountOf(emu).endpoints.find((e) => e.name === "chat");

  async function generate(): Promise<unknown> {
    const endpoint = serving();
    if (!endpoint) throw new Error("no serving endpoint");
    const answer = await jobs.request(endpoint.id, { method: "POST", path: "/v1/generate", body: { prompt: "hello" } });
    expect(answer.status, answer.text).toBe(200);
    return answer.json;
  }

  it("serves a version whose HTTP cases passed on the canary", async () => {
    const result = await engine.stack.up();
    expect(result.outputs["candidateResults"]?.value).toMatchObject([
      { name: "generates", passed: true, target: "POST /v1/generate", httpStatus: 200 },
    ]);
    expect(result.outputs["servingVersion"]?.value).toBe("1.0");
    expect(accountOf(emu).endpoints.map((e) => e.name)).toEqual(["chat"]);
    expect(await generate()).toEqual({ version: "1.0", prompt: "hello" });
  });

  it("fails the up on a broken version with the request and the answer, and keeps serving the good one", async () => {
    version = "2.0";
    const before = serving();
    const thrown = await engine.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    expect(message).toContain('rollout "chat": version 2.0 failed its candidate check, so the serving endpoint was not touched');
    expect(message).toMatch(/case "generates": POST \/v1\/generate answered HTTP 500/);
    expect(message).toContain("tokenizer files missing from the image");
    expect(serving()?.version).toBe(before?.version);
    expect(accountOf(emu).endpoints.map((e) => e.name)).toEqual(["chat"]);
    expect(await generate()).toEqual({ version: "1.0", prompt: "hello" });
  });

  it("leaves nothing behind after destroy", async () => {
    await engine.stack.destroy();
    expect(countsOf(accountOf(emu))).toMatchObject({ endpoints: 0, templates: 0 });
  });
});
