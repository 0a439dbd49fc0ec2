// Readings of the service's v2 API that planned what the service refuses or cannot converge on,
// each held against the emulator through the providers: removed settings are reset as v2 documents
// (v1 keeps its warning), global networking changed beside an image change takes effect, CPU
// limits fail at preview, and an endpoint's two volume fields cannot be declared together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checked, serverlessTemplate, startHarness, type Harness } from "../../support/providerHarness";

type Outs = Record<string, unknown>;

describe("removing a setting on v2 resets it as the reference documents", () => {
  let h: Harness;
  let templateId = "";
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
    templateId = await serverlessTemplate(h);
  });
  afterAll(() => h.close());

  it('an endpoint\'s CUDA floor, data centers and network volumes are cleared ("", [], []), with no warning', async () => {
    const volume = await h.client.createNetworkVolume({ name: "models", size: 10, dataCenterId: "EU-RO-1" });
    const args = {
      name: "resets",
      templateId,
      gpuTypeIds: ["NVIDIA L4"],
      minCudaVersion: "12.4",
      dataCenterIds: ["EU-RO-1"],
      networkVolumeIds: [volume.id],
      __provider: "shim",
    };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    const before = await h.client.getEndpoint(created.id);
    expect(before).toMatchObject({ minCudaVersion: "12.4", dataCenterIds: ["EU-RO-1"], networkVolumeIds: [volume.id] });
    const next = { name: "resets", templateId, gpuTypeIds: ["NVIDIA L4"], __provider: "shim" };
    h.lines.warn.length = 0;
    await h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args));
    expect(h.lines.warn.join("\n")).not.toMatch(/no longer declared/);
    const after = await h.client.getEndpoint(created.id);
    expect(after.minCudaVersion ?? null).toBeNull();
    // No data centers is "let the scheduler choose": the emulator reports every one it may pick.
    expect(after.dataCenterIds).not.toEqual(["EU-RO-1"]);
    expect(after.networkVolumeIds ?? []).toEqual([]);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("an endpoint's CUDA set is cleared ([])", async () => {
    const args = { name: "cuda-set", templateId, gpuTypeIds: ["NVIDIA L4"], allowedCudaVersions: ["12.4"], __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    expect((await h.client.getEndpoint(created.id)).allowedCudaVersions).toEqual(["12.4"]);
    const next = { name: "cuda-set", templateId, gpuTypeIds: ["NVIDIA L4"], __provider: "shim" };
    await h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args));
    expect((await h.client.getEndpoint(created.id)).allowedCudaVersions ?? []).toEqual([]);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("a pod's registry credential is cleared (null)", async () => {
    const auth = await h.client.createRegistryAuth({ name: `reg ${Math.random()}`, username: "u", password: "p" });
    const args = { name: "private", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], containerRegistryAuthId: auth.id, __provider: "shim" };
    const created = await h.providers.pod.create(await checked(h.providers.pod, args));
    expect((await h.client.getPod(created.id)).containerRegistryAuthId).toBe(auth.id);
    const { containerRegistryAuthId: _removed, ...next } = args;
    h.lines.warn.length = 0;
    await h.providers.pod.update!(created.id, created.outs as Outs, await checked(h.providers.pod, next, args));
    expect(h.lines.warn.join("\n")).not.toMatch(/no longer declared/);
    expect((await h.client.getPod(created.id)).containerRegistryAuthId ?? null).toBeNull();
    await h.providers.pod.delete!(created.id, created.outs as Outs);
  });

  it("a template's ports are closed ([]), not set to v1's 8888/http and 22/tcp", async () => {
    const args = { name: `ports ${Math.random()}`, imageName: "img:1", ports: ["8000/http"], __provider: "shim" };
    const created = await h.providers.template.create(await checked(h.providers.template, args));
    const { ports: _removed, ...next } = args;
    await h.providers.template.update!(created.id, created.outs as Outs, await checked(h.providers.template, next, args));
    expect((await h.client.getTemplate(created.id)).ports ?? []).toEqual([]);
    await h.providers.template.delete!(created.id, created.outs as Outs);
  });
});

describe("removing a setting on v1 keeps the warning (v1 has no reset for it)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v1");
  });
  afterAll(() => h.close());

  it("an endpoint's minCudaVersion removed warns that the endpoint keeps it", async () => {
    const templateId = await serverlessTemplate(h);
    const olds = { name: "v1-floor", templateId, minCudaVersion: "12.4", __provider: "shim" };
    h.lines.warn.length = 0;
    await checked(h.providers.endpoint, { name: "v1-floor", templateId, __provider: "shim" }, olds);
    expect(h.lines.warn.join("\n")).toMatch(/endpoint minCudaVersion is no longer declared/);
  });
});

describe("global networking changed beside an image change on v2", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.05, bootDelayMs: 2_000 }, "v2");
  });
  afterAll(() => h.close());

  it("takes effect: the pod the PATCH reset is stopped and started, and the update ends ready", async () => {
    const args = { name: "gn", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["EU-RO-1"], ports: [], __provider: "shim" };
    const created = await h.providers.pod.create(await checked(h.providers.pod, args));
    const next = { ...args, imageName: "img:2", globalNetworking: true, readyTimeoutSeconds: 60 };
    const updated = await h.providers.pod.update!(created.id, created.outs as Outs, await checked(h.providers.pod, next, args));
    expect(updated.outs).toMatchObject({ imageName: "img:2", globalNetworking: true, desiredStatus: "RUNNING" });
    const live = await h.client.getPod(created.id);
    expect(live.imageName).toBe("img:2");
    await h.providers.pod.delete!(created.id, updated.outs as Outs);
  });
});

describe("v2 limits on CPU resources fail at preview, naming the field, the value and the fix", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  const failuresOf = async (provider: Harness["providers"]["pod"] | Harness["providers"]["endpoint"], args: Outs) =>
    (await provider.check!({}, { ...args, __provider: "shim" })).failures ?? [];

  it("a CPU endpoint's vcpuCount must be a power of two", async () => {
    const failures = await failuresOf(h.providers.endpoint, {
      name: "cpu3",
      templateId: "t",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 3,
    });
    expect(failures).toEqual([
      expect.objectContaining({ property: "vcpuCount", reason: expect.stringMatching(/3 .*power of two.*2, 4, 8/) }),
    ]);
  });

  it("a spot pod is refused without advising the retired v1 API", async () => {
    const failures = await failuresOf(h.providers.pod, {
      name: "spot",
      imageName: "img:1",
      gpuTypeIds: ["NVIDIA L4"],
      interruptible: true,
    });
    expect(failures).toEqual([
      expect.objectContaining({
        property: "interruptible",
        reason: expect.stringMatching(/no spot \(interruptible\) pods any more: remove interruptible/),
      }),
    ]);
    expect(failures[0]?.reason).not.toMatch(/v1/);
  });

  it("a CPU pod with persistent storage or global networking", async () => {
    const cpuPod = { name: "cpu", imageName: "img:1", computeType: "CPU", cpuFlavorIds: ["cpu3c"] };
    const volume = await failuresOf(h.providers.pod, { ...cpuPod, volumeInGb: 20 });
    expect(volume).toEqual([
      expect.objectContaining({ property: "volumeInGb", reason: expect.stringMatching(/20 GB .*CPU pod.*networkVolumeId/) }),
    ]);
    const networking = await failuresOf(h.providers.pod, { ...cpuPod, globalNetworking: true });
    expect(networking).toEqual([
      expect.objectContaining({
        property: "globalNetworking",
        reason: expect.stringMatching(/true .*CPU pod.*NVIDIA GPU.*remove globalNetworking/),
      }),
    ]);
    expect(await failuresOf(h.providers.pod, cpuPod)).toEqual([]);
  });
});

describe("an endpoint's networkVolumeId beside networkVolumeIds on v2", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  it("fails at preview with the one list to declare (declared together, they never stop showing a change)", async () => {
    const result = await h.providers.endpoint.check!(
      {},
      { name: "vols", templateId: "t", networkVolumeId: "vol-a", networkVolumeIds: ["vol-b"], __provider: "shim" },
    );
    expect(result.failures).toEqual([
      expect.objectContaining({
        property: "networkVolumeId",
        reason: expect.stringMatching(/networkVolumeIds alone .*\["vol-a","vol-b"\]/),
      }),
    ]);
  });
});

describe("a pod with a network volume and no data centers on v2", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  it("is sent the volume's data center (the reference does not say the service places it there)", async () => {
    const volume = await h.client.createNetworkVolume({ name: "data", size: 10, dataCenterId: "EU-SE-1" });
    const args = { name: "mounted", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], networkVolumeId: volume.id, __provider: "shim" };
    h.http.take();
    const created = await h.providers.pod.create(await checked(h.providers.pod, args));
    const create = h.http.take().find((c) => c.method === "POST" && c.path.endsWith("/pods"));
    expect(JSON.parse(create?.body ?? "{}")).toMatchObject({ dataCenterIds: ["EU-SE-1"], mounts: { network: [{ volumeId: volume.id }] } });
    expect(created.outs).toMatchObject({ dataCenterId: "EU-SE-1" });
    await h.providers.pod.delete!(created.id, created.outs as Outs);
  });
});

describe("a RegistryAuth replaced under the same name", () => {
  it.each([
    ["v2", false],
    ["v1", true],
  ] as const)("on %s deletes first: %s (v2 keeps no unique names, and refuses to delete a credential a pod uses)", async (api, first) => {
    const h = await startHarness({ timeScale: 0.02 }, api);
    try {
      const olds = { name: "ghcr", username: "u", password: "old", __provider: "shim" };
      const diff = await h.providers.registryAuth.diff!("r1", olds, { ...olds, password: "new" });
      expect(diff).toMatchObject({ replaces: ["password"], deleteBeforeReplace: first });
    } finally {
      await h.close();
    }
  });
});

describe("importing a v2 endpoint (the service reports no templateId)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  it("gives inputs that pass check, and declaring exactly them plans no change", async () => {
    const templateId = await serverlessTemplate(h);
    const made = await h.deps.client().endpoints.create({ name: "legacy", templateId, gpuTypeIds: ["NVIDIA L4"], workersMax: 2 });
    const imported = await h.providers.endpoint.read!(made.id);
    expect(imported.inputs).not.toHaveProperty("templateId");
    const check = await h.providers.endpoint.check!(imported.inputs ?? {}, { ...imported.inputs, __provider: "shim" });
    expect(check.failures).toEqual([]);
    const diff = await h.providers.endpoint.diff!(made.id, imported.props ?? {}, check.inputs ?? {});
    expect(diff).toMatchObject({ changes: false });
  });

  it("a new endpoint still needs a templateId, said at preview", async () => {
    const check = await h.providers.endpoint.check!({}, { name: "new", gpuTypeIds: ["NVIDIA L4"], __provider: "shim" });
    // A missing argument names no property (the engine would print `value {<nil>}`): the reason starts with its path.
    expect(check.failures).toEqual([expect.objectContaining({ property: "", reason: expect.stringMatching(/^templateId: is required/) })]);
  });
});

describe("a v2 pod with startSsh and the account's SSH keys", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.02 }, "v2");
  });
  afterAll(() => h.close());

  const args = { name: "ssh", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], ports: ["22/tcp"], __provider: "shim" };

  it("created before any key is registered: a warning says to order it after AccountSshKeys (dependsOn)", async () => {
    await h.deps.client().account!.replaceSshKeys([]);
    h.lines.warn.length = 0;
    const created = await h.providers.pod.create(await checked(h.providers.pod, args));
    expect(h.lines.warn.join("\n")).toMatch(/no registered SSH keys.*no PUBLIC_KEY.*AccountSshKeys.*dependsOn: \[sshKeys\]/);
    await h.providers.pod.delete!(created.id, created.outs as Outs);
  });

  it("created with keys registered, with startSsh false, or without 22/tcp or startSsh: no warning", async () => {
    await h.deps
      .client()
      .account!.replaceSshKeys(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKm2bAHtaJDpTdEVuM8Wb0uMbDqZiAs0Jk4GFSbQwBqv me@laptop"]);
    h.lines.warn.length = 0;
    const created = await h.providers.pod.create(await checked(h.providers.pod, args));
    await h.deps.client().account!.replaceSshKeys([]);
    const without = await h.providers.pod.create(await checked(h.providers.pod, { ...args, name: "no-ssh", startSsh: false }));
    // Neither startSsh nor 22/tcp declared: SSH was not asked for.
    const unasked = await h.providers.pod.create(await checked(h.providers.pod, { ...args, name: "no-ports", ports: ["8888/http"] }));
    expect(h.lines.warn.join("\n")).not.toMatch(/SSH keys/);
    for (const pod of [created, without, unasked]) await h.providers.pod.delete!(pod.id, pod.outs as Outs);
  });
});
