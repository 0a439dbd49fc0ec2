/**
 * A stack at the service's rate limit, at a small scale (the benchmark, scripts/bench-ratelimit.ts,
 * runs 200 resources under the default policy): `up`, `refresh` and `destroy` of a mixed stack
 * (templates, network volumes, endpoints, pods) through the real engine on the v2 API, under the
 * default policy with a per-minute quota small enough that the limit is what bounds the operation.
 * Each operation: no 429, and its service time (the emulator's clock, from its first call to its last
 * answer) at most 1.15x its bound, the calls divided by the allowed rate. Each operation starts a new
 * provider process: it starts from the windows the previous one left (client/rateLimitMemory.ts),
 * so its first call waits for a spent window's reset rather than being refused.
 *
 * The time scale is not lower because the RateLimit headers state waits in whole real seconds: a
 * service minute of 15 real seconds keeps that rounding small against the window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { countingProxy, type CountingProxy } from "../../scripts/lib/countingProxy";
import { DEFAULT_POLICY, SERVICE_TIME_GOAL, declareMixedStack, judge, routesOf, type StackMix } from "../../scripts/lib/rateLimitStack";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { accountOf, countsOf, loadSdk } from "./provider-support";

const COUNT = 16;
const PER_MINUTE = 6;
const POLICY = { ...DEFAULT_POLICY, perMinute: PER_MINUTE };

describe(`${COUNT} resources at ${PER_MINUTE} management calls a service minute`, { timeout: 900_000 }, () => {
  let emulator: RunningEmulator;
  let proxy: CountingProxy;
  let engine: EngineStack;
  let mix: StackMix | undefined;

  beforeAll(async () => {
    const gpucloud = loadSdk();
    emulator = await startEmulator({ port: 0, timeScale: 0.25, rateLimit: { perMinute: PER_MINUTE }, serverlessWorkerQuota: 1_000 });
    proxy = await countingProxy(emulator.apiUrl, () => emulator.clock.now());
    engine = await createEngineStack({
      program: async () => {
        mix = declareMixedStack(gpucloud, COUNT);
      },
      config: {
        "gpucloud:apiUrl": { value: `${proxy.url}${new URL(emulator.apiUrlV2).pathname}` },
        "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
        "gpucloud:apiKey": { value: emulator.apiKey, secret: true },
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && Object.values(countsOf(accountOf(emulator))).some((n) => n > 0)) await engine.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await proxy?.close();
      await emulator?.close();
    }
  });

  for (const op of ["up", "refresh", "destroy"] as const) {
    it(`${op}: no 429, and a service time within ${SERVICE_TIME_GOAL}x of the calls divided by the allowed rate`, async () => {
      proxy.take();
      if (op === "up") expect((await engine.stack.up()).summary.result).toBe("succeeded");
      else if (op === "refresh") expect((await engine.stack.refresh()).summary.result).toBe("succeeded");
      else expect((await engine.stack.destroy()).summary.result).toBe("succeeded");
      const calls = proxy.take();
      const run = judge(calls, POLICY);
      const seen = `${op}: ${run.calls} calls, service time ${run.serviceMs} ms, bound ${run.boundMs} ms, ratio ${run.ratio.toFixed(2)}, 429s ${run.tooMany} (${routesOf(calls, "/api/v2")})`;
      console.log(seen);
      expect(run.tooMany, seen).toBe(0);
      expect(run.ratio, seen).toBeLessThanOrEqual(SERVICE_TIME_GOAL);
      if (op !== "refresh") {
        // Enough calls that the limit, not the engine, is what bounds the operation.
        expect(run.calls, seen).toBeGreaterThan(2 * PER_MINUTE);
      }
      const account = accountOf(emulator);
      // On v2 each endpoint also keeps a template of its own: only the declared ones are counted.
      const held = {
        templates: account.templates.filter((t) => t.name.startsWith("rl-worker-")).length,
        volumes: account.networkVolumes.length,
        endpoints: account.endpoints.length,
        pods: account.pods.filter((p) => !p.endpointId).length,
      };
      expect(held).toEqual(op === "destroy" ? { templates: 0, volumes: 0, endpoints: 0, pods: 0 } : mix);
    });
  }
});
