/**
 * The provider plugin's gRPC service, spoken to as the engine does, against the emulator: its
 * answers to the engine's requests (plugin info, schema, what it does not serve), the provider's
 * configuration (an explicit provider's own settings; PULUMI_CONFIG never read; the environment
 * fallback), secrets in and out, unknowns at preview, detailed diffs, imports and functions.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { openManagementApi } from "../../../model/backend/openApi";
import { closeClients } from "../../../model/connection";
import { UNKNOWN } from "../../../model/fields/values";
import { SECRET_SIG, SECRET_SIG_KEY } from "../../../provider/plugin/protocol";
import { emptyPb, grpc, providerPb, statusPb } from "../../../provider/plugin/rpcModules";
import { startPluginClient, struct, urnOf, type PluginClient } from "./pluginClient";

const KEY_A = "plugin-server-key-a";
const KEY_B = "plugin-server-key-b";
const POD = "gpucloud:index:Pod";
const TEMPLATE = "gpucloud:index:Template";
const REGISTRY_AUTH = "gpucloud:index:RegistryAuth";
const secret = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, value });
const Kind = providerPb.PropertyDiff.Kind;

function detailedOf(diff: providerPb.DiffResponse): Record<string, number> {
  const out: Record<string, number> = {};
  diff.getDetaileddiffMap().forEach((value, key) => {
    out[key] = value.getKind();
  });
  return out;
}

describe("the provider plugin's service", { timeout: 60_000 }, () => {
  let emulator: RunningEmulator;
  let plugin: PluginClient;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [KEY_A, KEY_B] });
    plugin = await startPluginClient();
  });
  // Each test starts from no settings in the environment (a developer's shell may export a real key).
  beforeEach(() => {
    for (const key of ["PULUMI_CONFIG", "GPUCLOUD_API_KEY", "GPUCLOUD_API_URL"]) delete process.env[key];
  });
  afterEach(() => {
    for (const key of ["PULUMI_CONFIG", "GPUCLOUD_API_KEY", "GPUCLOUD_API_URL"]) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
  });
  afterAll(async () => {
    await plugin?.close();
    await closeClients();
    await emulator?.close();
  });

  const templatesOf = (apiKey: string) => emulator.inspect().find((a) => a.accountId === emulator.accountIdOf(apiKey))?.templates ?? [];

  it("reports the package's version, serves the schema and answers UNIMPLEMENTED for what it does not serve", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../package.json"), "utf8")) as { version: string };
    const info = await plugin.call<{ getVersion(): string }>("getPluginInfo", new emptyPb.Empty());
    expect(info.getVersion()).toBe(manifest.version);
    const schema = await plugin.call<{ getSchema(): string }>("getSchema", new providerPb.GetSchemaRequest());
    expect(JSON.parse(schema.getSchema())).toMatchObject({ name: "gpucloud", version: manifest.version });
    await expect(plugin.call("construct", new providerPb.ConstructRequest())).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("an explicit provider uses its own settings: never the stack's PULUMI_CONFIG, and GPUCLOUD_* env only for a setting it lacks", async () => {
    // The engine puts the stack's config in every plugin process's environment, explicit providers' too.
    process.env["PULUMI_CONFIG"] = JSON.stringify({ apiKey: KEY_B, apiUrl: emulator.apiUrlV2 });
    await plugin.configure({ apiUrl: emulator.apiUrlV2, apiKey: secret(KEY_A), version: "0.2.0" });
    await plugin.create(TEMPLATE, "explicit", { name: "explicit-a", imageName: "img:1" });
    expect(templatesOf(KEY_A).map((t) => t.name)).toContain("explicit-a");
    expect(templatesOf(KEY_B).map((t) => t.name)).not.toContain("explicit-a");

    // Without apiKey the explicit provider takes GPUCLOUD_API_KEY, as the dynamic resources do; without either it fails at check.
    await plugin.configure({ apiUrl: emulator.apiUrlV2 });
    const missing = await plugin.check(TEMPLATE, "nokey", { name: "nokey", imageName: "img:1" });
    expect(missing.failures.map((f) => f.reason).join("\n")).toContain("No API key for the service");
    process.env["GPUCLOUD_API_KEY"] = KEY_B;
    await plugin.create(TEMPLATE, "fallback", { name: "env-b", imageName: "img:1" });
    expect(templatesOf(KEY_B).map((t) => t.name)).toContain("env-b");

    // Settings not known yet (an explicit provider's apiUrl from another resource, at preview): no connection failure.
    await plugin.configure({ apiUrl: UNKNOWN, apiKey: secret(KEY_A) });
    expect((await plugin.check(TEMPLATE, "later", { name: "later", imageName: "img:1" })).failures).toEqual([]);

    // A default provider: args are the stack's config, variables the same keyed gpucloud:config:<name>.
    delete process.env["GPUCLOUD_API_KEY"];
    await plugin.configure({}, { "gpucloud:config:apiUrl": emulator.apiUrlV2, "gpucloud:config:apiKey": KEY_A });
    await plugin.create(TEMPLATE, "default", { name: "default-a", imageName: "img:1" });
    expect(templatesOf(KEY_A).map((t) => t.name)).toContain("default-a");
  });

  it("CheckConfig keeps the API key secret and names a bad price sheet; DiffConfig lists changed settings without replacing", async () => {
    const checked = await plugin.call<providerPb.CheckResponse>(
      "checkConfig",
      new providerPb.CheckRequest()
        .setUrn("urn:pulumi:test::p::pulumi:providers:gpucloud::explicit")
        .setNews(struct({ apiKey: "k", prices: "{" })),
    );
    expect(checked.getInputs()?.toJavaScript()["apiKey"]).toEqual(secret("k"));
    expect(checked.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["prices", expect.stringContaining("gpucloud:prices is not a valid price sheet: it is not JSON")],
    ]);
    const diff = await plugin.call<providerPb.DiffResponse>(
      "diffConfig",
      new providerPb.DiffRequest()
        .setOlds(struct({ apiUrl: "a", version: "1" }))
        .setNews(struct({ apiUrl: "b", apiKey: "k", version: "2" })),
    );
    expect(diff.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diff.getReplacesList()).toEqual([]);
    expect(detailedOf(diff)).toEqual({
      apiKey: Kind.ADD,
      apiUrl: Kind.UPDATE,
    });
  });

  it("reports a resource that exists but did not become ready as partly created: its id and outputs, secrets wrapped", async () => {
    // An emulator in real time: a pod takes seconds to start, longer than the deadline given.
    const slow = await startEmulator({ port: 0, apiKeys: [KEY_A] });
    try {
      await plugin.configure({ apiUrl: slow.apiUrlV2, apiKey: secret(KEY_A) });
      const error = await plugin
        .create(POD, "slow", { name: "slow", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"], env: { K: "v" }, readyTimeoutSeconds: 0.2 })
        .then(
          () => undefined,
          (e: unknown) => e as { message: string; metadata: { get(key: string): unknown[] } },
        );
      expect(error?.message).toContain(
        `is not RUNNING with a public IP and a port mapping for each tcp port after 0.2s (readyTimeoutSeconds: 0.2)`,
      );
      const [details] = (error?.metadata.get("grpc-status-details-bin") ?? []) as Buffer[];
      expect(details).toBeDefined();
      const status = statusPb.Status.deserializeBinary(new Uint8Array(details ?? Buffer.alloc(0)));
      const [any] = status.getDetailsList();
      expect(any?.getTypeUrl()).toBe("type.googleapis.com/pulumirpc.ErrorResourceInitFailed");
      const failure = providerPb.ErrorResourceInitFailed.deserializeBinary(any?.getValue_asU8() ?? new Uint8Array());
      const pods = slow.inspect()[0]?.pods ?? [];
      expect(failure.getId()).toBe(pods[0]?.id);
      expect(failure.getProperties()?.toJavaScript()).toMatchObject({ name: "slow", env: secret({ K: "v" }) });
    } finally {
      await closeClients();
      await slow.close();
    }
  });

  describe("resources, configured for the v2 API", () => {
    beforeAll(async () => {
      await plugin.configure({ apiUrl: emulator.apiUrlV2, apiKey: secret(KEY_A) });
    });

    it("a value given as a secret is not quoted by a check failure, which names no property", async () => {
      const typed = await plugin.check(TEMPLATE, "hidden", { name: "hidden", imageName: secret(123456) });
      expect(typed.failures).toEqual([{ property: "", reason: expect.stringMatching(/^imageName: .*\[redacted\]/) }]);
      const unknownGpu = await plugin.check(POD, "hidden-pod", {
        name: "hidden-pod",
        imageName: "img:1",
        gpuTypeIds: secret(["NVIDIA Imaginary 9000"]),
      });
      expect(unknownGpu.failures.map((f) => f.property)).toEqual([""]);
      expect(unknownGpu.failures[0]?.reason).toMatch(/^gpuTypeIds/);
      expect(JSON.stringify([typed.failures, unknownGpu.failures])).not.toMatch(/123456|Imaginary/);
    });

    it("keeps secrets secret: sensitive fields always, any other field given as a secret too", async () => {
      const checked = await plugin.check(TEMPLATE, "secrets", { name: "secrets", imageName: secret("img:secret"), env: { A: "plain" } });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs["imageName"]).toEqual(secret("img:secret"));
      expect(checked.inputs["env"]).toEqual(secret({ A: "plain" }));
      const created = await plugin.create(TEMPLATE, "secrets", checked.inputs);
      expect(created.outputs["env"]).toEqual(secret({ A: "plain" }));
      expect(created.outputs["imageName"]).toEqual(secret("img:secret"));
      expect(created.outputs["name"]).toBe("secrets");
      // Inputs arrive wrapped; the service got the plain value.
      expect(templatesOf(KEY_A).find((t) => t.id === created.id)?.imageName).toBe("img:secret");

      const auth = await plugin.check(REGISTRY_AUTH, "creds", { name: "creds", username: "bot", password: secret("pw") });
      expect(auth.inputs).toMatchObject({ username: secret("bot"), password: secret("pw") });
    });

    it("passes unknowns through check at preview, also inside a secret, and names the pod after the resource", async () => {
      const checked = await plugin.check(POD, "trainer", { imageName: UNKNOWN, gpuTypeIds: [UNKNOWN], env: { T: secret(UNKNOWN) } });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ name: "trainer", imageName: UNKNOWN, gpuTypeIds: [UNKNOWN], env: secret({ T: UNKNOWN }) });
      const diff = await plugin.diff(POD, "pod1", { name: "trainer", imageName: "a", gpuTypeIds: ["NVIDIA L4"] }, checked.inputs);
      expect(diff.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
    });

    it("returns the field-level diff: in place per field and per env key, replacements as such", async () => {
      const olds = { name: "t", imageName: "img:1", env: { A: "1", B: "2" }, category: "NVIDIA" };
      const diff = await plugin.diff(TEMPLATE, "tpl1", olds, {
        name: "t",
        imageName: "img:2",
        env: { A: "1", B: "3" },
        category: "NVIDIA",
      });
      expect(diff.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_SOME);
      expect(diff.getReplacesList()).toEqual([]);
      expect(diff.getHasdetaileddiff()).toBe(true);
      expect(detailedOf(diff)).toEqual({
        imageName: Kind.UPDATE,
        "env.B": Kind.UPDATE,
      });
      expect(diff.getDiffsList().sort()).toEqual(["env", "imageName"]);

      const pod = { name: "p", imageName: "img", gpuTypeIds: ["NVIDIA L4"], cloudType: "SECURE" };
      const replaced = await plugin.diff(POD, "pod1", pod, { ...pod, cloudType: "COMMUNITY", imageName: "img:2" });
      expect(replaced.getReplacesList()).toEqual(["cloudType"]);
      expect(detailedOf(replaced)).toEqual({
        cloudType: Kind.UPDATE_REPLACE,
        imageName: Kind.UPDATE,
      });
      // Leaving out a field at its default is no change.
      const { cloudType: _default, ...withoutCloudType } = pod;
      const same = await plugin.diff(POD, "pod1", pod, withoutCloudType);
      expect(same.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
    });

    it("imports: a read without properties gives the inputs a program would declare, which check keeps and diff finds unchanged", async () => {
      const { api, close } = openManagementApi({ baseUrl: emulator.apiUrlV2, apiKey: KEY_A });
      try {
        const made = await api.pods.create({
          name: "made-outside",
          imageName: "ghcr.io/acme/app:1",
          gpuTypeIds: ["NVIDIA L4"],
          env: { LOG_LEVEL: "debug" },
          containerDiskInGb: 50,
        });
        const read = await plugin.read(POD, made.id);
        expect(read.id).toBe(made.id);
        // Only what is not the default: no containerDiskInGb (50), no cloudType, no PUBLIC_KEY the platform added.
        expect(read.inputs).toEqual({
          name: "made-outside",
          imageName: "ghcr.io/acme/app:1",
          gpuTypeIds: ["NVIDIA L4"],
          env: secret({ LOG_LEVEL: "debug" }),
        });
        expect(read.outputs["costEstimate"]).toMatchObject({ status: "estimated" });
        expect(read.outputs).toMatchObject({ name: "made-outside", env: secret({ LOG_LEVEL: "debug" }), desiredStatus: "RUNNING" });
        const checked = await plugin.check(POD, "imported", read.inputs ?? {}, read.inputs ?? {});
        expect(checked.failures).toEqual([]);
        const diff = await plugin.diff(POD, made.id, read.outputs, checked.inputs);
        expect(diff.getChanges()).toBe(providerPb.DiffResponse.DiffChanges.DIFF_NONE);
        // A pod that is gone reads as no resource (the engine then says it does not exist).
        await api.pods.delete(made.id);
        expect((await plugin.read(POD, made.id)).id).toBe("");
      } finally {
        await close();
      }
    });

    it("serves the lookups and the catalog; a pod's env comes back secret", async () => {
      await plugin.create(TEMPLATE, "looked-up-template", { name: "looked-up-template", imageName: "img:1" });
      const created = await plugin.create(POD, "lookedup", {
        name: "lookedup",
        imageName: "img:1",
        gpuTypeIds: ["NVIDIA L4"],
        env: secret({ K: "v" }),
        readyTimeoutSeconds: 60,
      });
      const found = await plugin.invoke("gpucloud:index:getPod", { id: created.id });
      expect(found).toMatchObject({ id: created.id, name: "lookedup", imageName: "img:1" });
      expect(found["env"]).toMatchObject({ [SECRET_SIG_KEY]: SECRET_SIG });
      const byName = await plugin.invoke("gpucloud:index:getTemplate", { name: "looked-up-template" });
      expect(byName).toMatchObject({ name: "looked-up-template", imageName: "img:1" });
      const gpus = await plugin.invoke("gpucloud:index:getGpuTypes", {});
      expect((gpus["gpuTypes"] as { id: string }[]).map((g) => g.id)).toContain("NVIDIA L4");
      await expect(plugin.invoke("gpucloud:index:getPod", { id: "nosuchpod" })).rejects.toThrow(/getPod: no pod with id "nosuchpod"/);
      await expect(plugin.invoke("gpucloud:index:getPod", { name: "x" })).rejects.toThrow(/getPod: .* is not a lookup key/);
      // Progress is attached to the resource it concerns.
      expect(plugin.logged.find((l) => l.message.includes('pod "lookedup"'))?.urn).toBe(urnOf(POD, "lookedup"));
      await plugin.delete(POD, created.id, created.outputs);
    });
  });
});
