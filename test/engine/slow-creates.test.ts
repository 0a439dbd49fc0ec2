/**
 * A service slower than its client (the reference: a create whose answer cannot be read "may have
 * succeeded"; the service's own CLI never repeats a create on 5xx), through the real engine, with
 * every kind declared on the emulator's /api/v2. The provider's create timeout is 3 s
 * (`gpucloud:createTimeoutSeconds`: the create waits 3 s, then is looked for 3 s more); every
 * create of the service takes 4 s:
 *
 * - `late`: the service makes the resource at once and answers after 4 s, when the client has
 *   given up: the provider finds it on its first look;
 * - `land`: the service makes the resource only 4 s after the request, so the client's timeout and
 *   its first looks find nothing: the provider must keep looking, not create again.
 *
 * Each run: `up` succeeds, the service holds every declared name exactly once and nothing else,
 * each create was sent once, `preview` plans no change, and `destroy` leaves nothing.
 */
import * as gpucloud from "pulumi-gpucloud";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createEngineStack, type EngineStack } from "../support/engineStack";

const API_KEY = "slow-creates-api-key-7c21e9f04a";
const CREATES = ["createPod", "createEndpoint", "createTemplate", "createNetworkVolume", "createRegistry", "createSecret"] as const;

interface Names {
  registry: string;
  secret: string;
  volume: string;
  template: string;
  pod: string;
  endpoint: string;
}

function namesFor(prefix: string): Names {
  return {
    registry: `${prefix}-registry`,
    secret: `${prefix}_TOKEN`,
    volume: `${prefix}-models`,
    template: `${prefix}-worker`,
    pod: `${prefix}-notebook`,
    endpoint: `${prefix}-inference`,
  };
}

function program(names: Names): Record<string, unknown> {
  const registry = new gpucloud.RegistryAuth("registry", { name: names.registry, username: "ci-bot", password: "slow-registry-password" });
  const token = new gpucloud.Secret("token", { name: names.secret, value: "slow-secret-value" });
  const models = new gpucloud.NetworkVolume("models", { name: names.volume, size: 20, dataCenterId: "EU-RO-1" });
  const template = new gpucloud.Template("worker", {
    name: names.template,
    imageName: "example/echo-worker:1.0",
    isServerless: true,
    containerRegistryAuthId: registry.id,
    env: { HF_TOKEN: token.ref },
  });
  const pod = new gpucloud.Pod("notebook", {
    name: names.pod,
    imageName: "example/pytorch:2.1.0",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
    gpuCount: 1,
    networkVolumeId: models.id,
    dataCenterIds: [models.dataCenterId],
    ports: ["8888/http", "22/tcp"],
  });
  const endpoint = new gpucloud.Endpoint("inference", {
    name: names.endpoint,
    templateId: template.id,
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
    workersMax: 1,
  });
  return { pod: pod.id, endpoint: endpoint.id };
}

/** Every name the service holds with the prefix, per collection, as it lists them. */
async function holdings(emulator: RunningEmulator, prefix: string): Promise<string[]> {
  const get = async (path: string, key: string): Promise<{ name: string }[]> => {
    const res = await fetch(`${emulator.apiUrlV2}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.status, path).toBe(200);
    return ((await res.json()) as Record<string, { name: string }[]>)[key] ?? [];
  };
  const lists = await Promise.all([
    get("/pods", "pods").then((l) => l.map((r) => `pod:${r.name}`)),
    get("/serverless", "endpoints").then((l) => l.map((r) => `endpoint:${r.name}`)),
    get("/templates", "templates").then((l) => l.map((r) => `template:${r.name}`)),
    get("/network-volumes", "networkVolumes").then((l) => l.map((r) => `volume:${r.name}`)),
    get("/registries", "registries").then((l) => l.map((r) => `registry:${r.name}`)),
    get("/account/secrets", "secrets").then((l) => l.map((r) => `secret:${r.name}`)),
  ]);
  // The v2 emulator lists an endpoint's own template ("<name> (endpoint <id>)") among the templates: the endpoint's, not the stack's.
  return lists
    .flat()
    .filter((n) => n.includes(prefix) && !n.includes("(endpoint "))
    .sort();
}

function declared(names: Names): string[] {
  return [
    `endpoint:${names.endpoint}`,
    `pod:${names.pod}`,
    `registry:${names.registry}`,
    `secret:${names.secret}`,
    `template:${names.template}`,
    `volume:${names.volume}`,
  ].sort();
}

describe("creates slower than the client's timeout, every kind (real engine, /api/v2)", { timeout: 300_000 }, () => {
  let emulator: RunningEmulator | undefined;
  let engine: EngineStack | undefined;
  afterEach(async () => {
    await engine?.dispose();
    await emulator?.close();
    engine = undefined;
    emulator = undefined;
  });

  for (const fault of ["late", "land"] as const) {
    it(`${fault}=1@4s on every create: each resource is made once, the up succeeds, the plan is empty, destroy leaves nothing`, async () => {
      const prefix = `slow${fault}`;
      const names = namesFor(prefix);
      const sent: string[] = [];
      emulator = await startEmulator({
        timeScale: 0.01,
        apiKeys: [API_KEY],
        faults: `seed=7; ${CREATES.map((op) => `${op}: ${fault}=1@4s`).join("; ")}`,
        onReply: ({ operationId }) => {
          if ((CREATES as readonly string[]).includes(operationId)) sent.push(operationId);
        },
      });
      engine = await createEngineStack({
        projectName: `slow-${fault}`,
        program: async () => program(names),
        config: {
          "gpucloud:apiUrl": { value: emulator.apiUrlV2 },
          "gpucloud:serverlessUrl": { value: emulator.serverlessUrl },
          "gpucloud:apiKey": { value: API_KEY, secret: true },
          "gpucloud:createTimeoutSeconds": { value: "3" },
        },
      });
      const up = await engine.stack.up();
      expect(up.summary.result).toBe("succeeded");
      expect(up.stdout).toMatch(/the create got no clear answer \(create\w+ failed: no complete answer within 3000 ms/);
      expect(await holdings(emulator, prefix)).toEqual(declared(names));
      // One create per resource, none repeated.
      expect([...sent].sort()).toEqual([...CREATES].sort());

      const preview = await engine.stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary["update"] ?? 0).toBe(0);
      await engine.stack.destroy();
      expect(await holdings(emulator, prefix)).toEqual([]);
    });
  }
});
