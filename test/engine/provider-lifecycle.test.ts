/**
 * The five resources through the real engine against the emulator, as one stack going through its
 * life: up of all five together, a preview with no changes, in-place updates, a replacement that
 * carries its dependent pod along, deletion behind Pulumi's back (refresh, then up recreates), and
 * destroy. Along the way: what the state file holds (no credentials, secrets as ciphertext, small
 * `__provider` texts). Once per management API version (apiUrl ending in /v1, then /v2): the same
 * program, except that a v2 pod takes one GPU type.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ManagementClient } from "../../client/management";
import { ManagementClientV2 } from "../../client/managementV2";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import {
  API_VERSIONS,
  accountOf,
  countsOf,
  emulatorConfig,
  isCiphertext,
  loadSdk,
  marker,
  providerTextOf,
  rawResources,
  resourceOfType,
} from "./provider-support";

const gpucloud = loadSdk();

/** What the program declares; each step of the test changes it and runs the engine again. */
interface Phase {
  podImage: string;
  workersMax: number;
  volumeDataCenterId: string;
  templateImage: string;
  /** A volume made outside the stack, to bring under management with adoptId. */
  adoptVolumeId?: string;
}

const KINDS = ["RegistryAuth", "NetworkVolume", "Template", "Pod", "Endpoint"] as const;
type Kind = (typeof KINDS)[number];

describe.each(API_VERSIONS)("the provider through the real engine on the %s API", { timeout: 300_000 }, (api) => {
  const tag = marker();
  const apiKey = `gpc_emu_lifecycle_key_${tag}`;
  const registryUsername = `robot-username-${tag}`;
  const registryPassword = `registry-password-${tag}`;
  const templateSecret = `template-secret-${tag}`;
  const phase: Phase = {
    podImage: "ghcr.io/acme/trainer:1",
    workersMax: 2,
    volumeDataCenterId: "EU-RO-1",
    templateImage: "ghcr.io/acme/worker:1.0",
  };

  let emulator: RunningEmulator;
  let engine: EngineStack;
  let client: ManagementClient;
  let clientV2: ManagementClientV2;

  /**
   * The user's templates: on v2 each endpoint also has its own bound copy of the template it was
   * made from (the v1 client shows it as a template), which is not the user's.
   */
  function userTemplates(account = accountOf(emulator, apiKey)) {
    return api === "v1" ? account.templates : account.templates.filter((t) => !account.endpoints.some((e) => e.templateId === t.id));
  }
  function counts() {
    const account = accountOf(emulator, apiKey);
    return { ...countsOf(account), templates: userTemplates(account).length };
  }

  /** The ids the state holds, per kind. */
  async function stateIds(): Promise<Partial<Record<Kind, string>>> {
    const resources = declaredResources(await engine.exportState());
    const ids: Partial<Record<Kind, string>> = {};
    for (const kind of KINDS) {
      const id = resourceOfType(resources, kind)?.id;
      if (id !== undefined) ids[kind] = id;
    }
    return ids;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    client = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey, maxRetries: 0 });
    clientV2 = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey, maxRetries: 0 });
    // v2 injects PUBLIC_KEY (the pod's startSsh, on by default) only when the account has keys; v1 always does.
    await clientV2.replaceSshKeys(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILifecycle lifecycle@test"]);
    engine = await createEngineStack({
      projectName: `provider-lifecycle-${api}`,
      config: emulatorConfig(emulator, apiKey, api),
      program: async () => {
        const auth = new gpucloud.RegistryAuth("creds", {
          name: `ghcr-${tag}`,
          username: registryUsername,
          password: pulumi.secret(registryPassword),
        });
        const volume = new gpucloud.NetworkVolume("data", { name: "data", size: 10, dataCenterId: phase.volumeDataCenterId });
        const template = new gpucloud.Template("worker", {
          name: `worker-${tag}`,
          imageName: phase.templateImage,
          isServerless: true,
          env: { MODEL: "llama-3-8b", API_TOKEN: pulumi.secret(templateSecret) },
        });
        const pod = new gpucloud.Pod("trainer", {
          imageName: phase.podImage,
          gpuTypeIds: api === "v1" ? ["NVIDIA GeForce RTX 4090", "NVIDIA L40S", "NVIDIA A40", "NVIDIA L4"] : ["NVIDIA GeForce RTX 4090"],
          networkVolumeId: volume.id,
          containerRegistryAuthId: auth.id,
          env: { LOG_LEVEL: "info" },
        });
        const endpoint = new gpucloud.Endpoint("inference", {
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: phase.workersMax,
        });
        if (phase.adoptVolumeId) {
          new gpucloud.NetworkVolume("adopted", { name: "adopted", size: 20, dataCenterId: "EU-RO-1", adoptId: phase.adoptVolumeId });
        }
        return { podId: pod.id, endpointId: endpoint.endpointId, volumeId: volume.id };
      },
    });
  });

  afterAll(async () => {
    try {
      // A failed test must not leave resources (and their provider processes' work) behind.
      if (engine && counts().pods + counts().endpoints > 0) {
        await engine.stack.destroy().catch(() => undefined);
      }
    } finally {
      await engine?.dispose();
      await client?.close();
      await clientV2?.close();
      await emulator?.close();
    }
  });

  it("creates all five together, wired to each other, and the state holds no credentials", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 6 });

    const account = accountOf(emulator, apiKey);
    expect(counts()).toEqual({ pods: 1, endpoints: 1, templates: 1, networkVolumes: 1, registryAuths: 1 });
    const [pod] = account.pods;
    const [endpoint] = account.endpoints;
    const [volume] = account.networkVolumes;
    const [auth] = account.registryAuths;
    const [template] = userTemplates(account);
    expect(pod).toMatchObject({ imageName: "ghcr.io/acme/trainer:1", desiredStatus: "RUNNING", containerRegistryAuthId: auth?.id });
    expect(pod?.env).toMatchObject({ LOG_LEVEL: "info" });
    expect(pod?.publicIp).toEqual(expect.any(String));
    expect((await client.getPod(pod?.id ?? "", { includeNetworkVolume: true })).networkVolume?.id).toBe(volume?.id);
    expect(endpoint).toMatchObject({ workersMax: 2, workersMin: 0 });
    // v1 keeps the template reference; v2 copies its settings into the endpoint's own.
    if (api === "v1") expect(endpoint?.templateId).toBe(template?.id);
    else expect(account.templates.find((t) => t.id === endpoint?.templateId)?.env).toMatchObject({ MODEL: "llama-3-8b" });
    expect(template?.env).toMatchObject({ MODEL: "llama-3-8b", API_TOKEN: templateSecret });
    expect(volume).toMatchObject({ name: "data", size: 10, dataCenterId: "EU-RO-1" });

    // The state and the service agree on every id, and the stack output is the pod's id.
    expect(await stateIds()).toEqual({
      RegistryAuth: auth?.id,
      NetworkVolume: volume?.id,
      Template: template?.id,
      Pod: pod?.id,
      Endpoint: endpoint?.id,
    });
    expect(up.outputs["podId"]?.value).toBe(pod?.id);

    // The checkpoint file as stored: no API key, no registry username or password, in any form of
    // plaintext; the secret template env value, the username and the password are ciphertext.
    const raw = engine.rawStateFile();
    expect(raw).not.toContain(apiKey);
    expect(raw).not.toContain(registryPassword);
    expect(raw).not.toContain(registryUsername);
    expect(raw).not.toContain(templateSecret);
    const rawState = rawResources(raw);
    const rawAuth = resourceOfType(rawState, "RegistryAuth");
    expect(isCiphertext(rawAuth?.outputs?.["password"])).toBe(true);
    expect(isCiphertext(rawAuth?.outputs?.["username"])).toBe(true);
    expect(isCiphertext(rawAuth?.inputs?.["password"])).toBe(true);
    const rawTemplate = resourceOfType(rawState, "Template");
    const templateEnvOut = rawTemplate?.outputs?.["env"] as Record<string, unknown> | undefined;
    // Either the whole env map or its secret key is ciphertext; never the value in clear.
    expect(isCiphertext(templateEnvOut) || isCiphertext(templateEnvOut?.["API_TOKEN"])).toBe(true);

    // The API key is kept only where the engine keeps all stack config, the default provider's
    // inputs, and there as a secret (ciphertext in the file); no resource ever holds it, not even
    // in the exported state, which the automation API decrypts.
    const rawProvider = rawState.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(isCiphertext(rawProvider?.inputs?.["gpucloud:apiKey"])).toBe(true);
    const exported = await engine.exportState();
    expect(declaredResources(exported)).toHaveLength(5);
    for (const resource of declaredResources(exported)) expect(JSON.stringify(resource)).not.toContain(apiKey);

    // Every resource's serialized provider is the small by-value shim (the package is loaded from
    // this checkout, not from node_modules) and captures nothing but its kind.
    const sizes: Record<string, number> = {};
    for (const kind of KINDS) {
      const text = providerTextOf(resourceOfType(declaredResources(exported), kind));
      sizes[kind] = text.length;
      expect(text.length).toBeGreaterThan(100);
      expect(text.length).toBeLessThan(3_000);
      expect(text).toContain('require("pulumi-gpucloud/provider")');
      expect(text).not.toContain(emulator.apiUrl);
    }
    console.log(`__provider sizes (in-repo, by value): ${JSON.stringify(sizes)}`);
  });

  it("previews no changes for the unchanged program", async () => {
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 6 });
  });

  it("updates a pod's image and an endpoint's workersMax in place", async () => {
    const before = await stateIds();
    phase.podImage = "ghcr.io/acme/trainer:2";
    phase.workersMax = 3;

    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toEqual({ update: 2, same: 4 });

    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 2, same: 4 });
    expect(await stateIds()).toEqual(before);
    const account = accountOf(emulator, apiKey);
    expect(account.pods.map((p) => [p.id, p.imageName])).toEqual([[before.Pod, "ghcr.io/acme/trainer:2"]]);
    expect(account.endpoints.map((e) => [e.id, e.workersMax])).toEqual([[before.Endpoint, 3]]);
    // Only the declared env key was written: the key the platform injected is still there.
    expect(Object.keys(account.pods[0]?.env ?? {})).toEqual(expect.arrayContaining(["LOG_LEVEL", "PUBLIC_KEY"]));
  });

  it("rolls a template's new image out to the endpoint built from it", async () => {
    const before = await stateIds();
    phase.templateImage = "ghcr.io/acme/worker:1.1";
    const preview = await engine.stack.preview();
    // v2 copies a template into the endpoint at create: the endpoint follows the template's revision.
    expect(preview.changeSummary).toEqual(api === "v1" ? { update: 1, same: 5 } : { update: 2, same: 4 });
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(await stateIds()).toEqual(before);
    const account = accountOf(emulator, apiKey);
    const workerTemplateId = api === "v1" ? before.Template : account.endpoints[0]?.templateId;
    expect(account.templates.find((t) => t.id === workerTemplateId)?.imageName).toBe("ghcr.io/acme/worker:1.1");
    expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 6 });
  });

  it("replaces a network volume whose data center changes, and the pod attached to it with it", async () => {
    const before = await stateIds();
    phase.volumeDataCenterId = "US-TX-3";

    const preview = await engine.stack.preview();
    expect(preview.changeSummary).toEqual({ replace: 2, same: 4 });
    expect(engine.output()).toMatch(/\+-.*gpucloud:NetworkVolume\s+data\s+replace/);

    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ replace: 2, same: 4 });
    const after = await stateIds();
    expect(after.NetworkVolume).not.toBe(before.NetworkVolume);
    expect(after.Pod).not.toBe(before.Pod);
    expect({ ...after, NetworkVolume: undefined, Pod: undefined }).toEqual({ ...before, NetworkVolume: undefined, Pod: undefined });

    // The old volume and pod are gone; the new pod runs on the new volume in the new data center.
    const account = accountOf(emulator, apiKey);
    expect(account.networkVolumes.map((v) => [v.id, v.dataCenterId])).toEqual([[after.NetworkVolume, "US-TX-3"]]);
    expect(account.pods.map((p) => [p.id, p.imageName])).toEqual([[after.Pod, "ghcr.io/acme/trainer:2"]]);
    const pod = await client.getPod(after.Pod ?? "", { includeNetworkVolume: true, includeMachine: true });
    expect(pod.networkVolume).toMatchObject({ id: after.NetworkVolume, dataCenterId: "US-TX-3" });
    expect(pod.machine).toMatchObject({ dataCenterId: "US-TX-3" });
  });

  it("notices resources deleted behind its back on refresh, and up recreates them", async () => {
    const before = await stateIds();
    // Through the API the stack uses (a v2 delete also removes the endpoint's bound template).
    if (api === "v1") await client.deleteEndpoint(before.Endpoint ?? "");
    else await clientV2.endpoints.delete(before.Endpoint ?? "");
    await client.deletePod(before.Pod ?? "");
    expect(counts()).toMatchObject({ pods: 0, endpoints: 0, templates: 1 });

    const refresh = await engine.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ delete: 2, same: 4 });
    const refreshed = await stateIds();
    expect(refreshed.Pod).toBeUndefined();
    expect(refreshed.Endpoint).toBeUndefined();
    expect(refreshed.Template).toBe(before.Template);

    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2, same: 4 });
    const after = await stateIds();
    const account = accountOf(emulator, apiKey);
    expect(counts()).toEqual({ pods: 1, endpoints: 1, templates: 1, networkVolumes: 1, registryAuths: 1 });
    expect(account.pods[0]?.id).toBe(after.Pod);
    expect(account.endpoints[0]?.id).toBe(after.Endpoint);
    expect(after.Pod).not.toBe(before.Pod);
    expect(after.Endpoint).not.toBe(before.Endpoint);
    expect(account.endpoints[0]).toMatchObject({ workersMax: 3 });
    if (api === "v1") expect(account.endpoints[0]?.templateId).toBe(after.Template);
  });

  it("adopts a volume made outside the stack by adoptId, growing it to the declared size", async () => {
    const made =
      api === "v1"
        ? await client.createNetworkVolume({ name: "adopted", size: 10, dataCenterId: "EU-RO-1" })
        : await clientV2.networkVolumes.create({ name: "adopted", size: 10, dataCenter: "EU-RO-1" });
    phase.adoptVolumeId = made.id;
    const up = await engine.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 6 });
    const adopted = declaredResources(await engine.exportState()).find((r) => r.urn.endsWith("::adopted"));
    expect(adopted?.id).toBe(made.id);
    expect(accountOf(emulator, apiKey).networkVolumes.find((v) => v.id === made.id)?.size).toBe(20);
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 7 });
  });

  it("destroy leaves the emulator empty", async () => {
    const destroy = await engine.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 7 });
    expect(countsOf(accountOf(emulator, apiKey))).toEqual({ pods: 0, endpoints: 0, templates: 0, networkVolumes: 0, registryAuths: 0 });
    expect(declaredResources(await engine.exportState())).toEqual([]);
    // Nothing the engine printed in the whole run carried a credential.
    for (const secret of [apiKey, registryPassword, registryUsername, templateSecret]) expect(engine.output()).not.toContain(secret);
  });
});
