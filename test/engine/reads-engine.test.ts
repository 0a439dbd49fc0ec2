/**
 * The new reads through the real engine on the v2 API, from a TypeScript program (one stack, one
 * `up`): an endpoint's workers and releases, a pod's log and billing, each read from its resource's
 * id (the Output forms), the public templates and the account's billing (the Promise forms, on the
 * stack's connection), exported and checked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { emulatorConfig, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

describe("the reads through the real engine on v2", { timeout: 300_000 }, () => {
  const tag = marker();
  const apiKey = `gpc_emu_reads_key_${tag}`;
  let emulator: RunningEmulator;
  let stack: EngineStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    stack = await createEngineStack({
      projectName: "reads-v2",
      config: emulatorConfig(emulator, apiKey, "v2"),
      program: async () => {
        const pod = new gpucloud.Pod("trainer", { imageName: "ghcr.io/acme/trainer:1", gpuTypeIds: ["NVIDIA L4"] });
        const template = new gpucloud.Template("worker", { name: `worker-${tag}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
        const endpoint = new gpucloud.Endpoint("inference", {
          name: `inference-${tag}`,
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: 2,
        });
        const workers = gpucloud.getEndpointWorkersOutput({ endpointId: endpoint.id });
        const releases = gpucloud.getEndpointReleasesOutput({ endpointId: endpoint.id });
        const log = gpucloud.getPodLogOutput({ podId: pod.id, lines: 5, timeoutMs: 3000 });
        const bill = gpucloud.getPodBillingOutput({ podId: pod.id, bucketSize: "hour", lastN: 1 });
        const templates = await gpucloud.getPublicTemplates();
        // After the pod exists: billing is sparse, an account with nothing yet has no bucket.
        const account = pod.id.apply(() => gpucloud.getAccountBilling({ bucketSize: "year", lastN: 1 }));
        return {
          workerCount: workers.apply((w) => w.workers.length),
          workersEndpointVersion: workers.apply((w) => w.endpointVersion),
          releaseVersions: releases.apply((r) => r.releases.map((release) => release.version)),
          rolloutTotal: releases.apply((r) => r.rollout.workersTotal),
          logUrl: log.apply((l) => l.url),
          podBillQuery: bill.apply((b) => b.metadata?.query?.podId),
          publicTemplateIds: templates.templates.map((t) => t.id),
          accountBuckets: account.apply((a) => a.records.length),
          accountPods: account.apply((a) => (a.records[0]?.podGpuAmount ?? 0) > 0),
        };
      },
    });
  });

  afterAll(async () => {
    try {
      await stack?.stack.destroy().catch(() => undefined);
    } finally {
      await stack?.dispose();
      await emulator?.close();
    }
  });

  it("a program reads its endpoint's workers and releases, its pod's log and billing, and the public templates", async () => {
    const up = await stack.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const out = (name: string): unknown => up.outputs[name]?.value;
    expect(out("workerCount")).toBe(0);
    expect(out("workersEndpointVersion")).toBe(0);
    expect(out("releaseVersions")).toEqual([0]);
    expect(out("rolloutTotal")).toBe(0);
    expect(String(out("logUrl"))).toMatch(new RegExp(`^${emulator.apiUrlV2}/pods/[^/]+/logs$`));
    expect(out("podBillQuery")).toEqual(expect.any(String));
    expect(out("publicTemplateIds")).toEqual(expect.arrayContaining(["svcpytorch", "svcworker0"]));
    expect(out("accountBuckets")).toBe(1);
    expect(out("accountPods")).toBe(true);
  });
});
