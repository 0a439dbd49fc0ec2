// The endpoint PATCHes the live v2 service gets wrong (management-api-v2-today.md 6.1 #1-#5, #7),
// and the v2 rules check holds at preview: exclusions restated on every GPU-selection PATCH (the
// emulator's quirk endpointPatchRebuildsSelection plays the live defect), no `gpu` on a CPU
// endpoint's PATCH, CUDA set and floor cleared explicitly, `type` and `timeout` always sent and the
// type read back, CPU endpoints with flavors, v2 bounds, a volume's tier read back, and a template
// that lost its registry credential.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManagementClientV2 } from "../../../client/managementV2";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { tableForBackend, type ResourceTable } from "../../../model/fields/fieldTable";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { networkVolumeTable } from "../../../model/kinds/networkVolume/networkVolumeFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { V2Backend } from "../../../model/backend/v2Backend";
import { json, startScriptedServer } from "../../support/scriptedServer";
import { checked, serverlessTemplate, startHarness, type Harness } from "../../support/providerHarness";
import { runSchema } from "../../../model/fields/validation";

/** The failures check gives these arguments on a v1 stack (the table as v1 sees it). */
function v1Failures<L, A>(table: ResourceTable<L, A>, noun: string, args: Record<string, unknown>) {
  return runSchema(tableForBackend(table, "v1").schema, noun, args).failures;
}

type Outs = Record<string, unknown>;

describe("GPU endpoint PATCHes keep the exclusions (live defect played by the emulator's quirk)", () => {
  let h: Harness;
  let templateId = "";
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.05, quirks: { endpointPatchRebuildsSelection: true } }, "v2");
    templateId = await serverlessTemplate(h);
  });
  afterAll(() => h.close());

  it("an update that does not touch the GPUs restates pools and excludedTypes, so the exclusions survive", async () => {
    // ADA_24 holds the RTX 4090 and the L4: declaring only the L4 is the pool minus the 4090.
    const args = { name: "excl", templateId, gpuTypeIds: ["NVIDIA L4"], workersMax: 2, __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    expect((await h.client.getEndpoint(created.id)).gpuTypeIds).toEqual(["NVIDIA L4"]);
    const next = { ...args, workersMax: 3, gpuCount: 2 };
    await h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args));
    const live = await h.client.getEndpoint(created.id);
    expect(live.workersMax).toBe(3);
    expect(live.gpuTypeIds).toEqual(["NVIDIA L4"]);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("a CPU endpoint's update fails with the service's defect named, not retried", async () => {
    const args = { name: "cpu-defect", templateId, computeType: "CPU", cpuFlavorIds: ["cpu3c"], __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    h.http.take();
    const next = { ...args, workersMax: 2 };
    await expect(
      h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args)),
    ).rejects.toThrow(/known defect with CPU-endpoint updates/);
    expect(h.http.take().filter((c) => c.method === "PATCH")).toHaveLength(1);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });
});

describe("endpoint PATCHes on the documented service", () => {
  let h: Harness;
  let templateId = "";
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.05 }, "v2");
    templateId = await serverlessTemplate(h);
  });
  afterAll(() => h.close());

  it("a CPU endpoint's PATCH never carries gpu (a gpuCount change on it is not sent)", async () => {
    const args = { name: "cpu", templateId, computeType: "CPU", cpuFlavorIds: ["cpu3c"], gpuCount: 1, __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    const next = { ...args, gpuCount: 2, workersMax: 2 };
    await h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args));
    expect((await h.client.getEndpoint(created.id)).workersMax).toBe(2);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("switching from a CUDA set to a floor clears the set explicitly", async () => {
    const args = { name: "cuda", templateId, gpuTypeIds: ["NVIDIA L4"], allowedCudaVersions: ["12.4"], __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, args));
    const { allowedCudaVersions: _dropped, ...rest } = args;
    const next = { ...rest, minCudaVersion: "12.1" };
    await h.providers.endpoint.update!(created.id, created.outs as Outs, await checked(h.providers.endpoint, next, args));
    const live = await h.client.getEndpoint(created.id);
    expect([live.minCudaVersion, live.allowedCudaVersions ?? []]).toEqual(["12.1", []]);
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("check: a CPU endpoint without flavors fails at preview naming cpuFlavorIds and the fix", async () => {
    const result = await h.providers.endpoint.check!({}, { name: "cpu", templateId, computeType: "CPU", __provider: "shim" });
    // No value to print beside it (the argument is missing): the path starts the reason instead.
    expect(result.failures?.map((f) => f.property)).toEqual([""]);
    expect(result.failures?.[0]?.reason).toMatch(/^cpuFlavorIds: /);
    expect(result.failures?.[0]?.reason).toMatch(/needs at least one CPU flavor, got none; set cpuFlavorIds, e\.g\. \["cpu3c"\]/);
  });

  it("check: a queue delay of 0.5 s is fine on v2; a fractional request count is not; v1 takes whole numbers", async () => {
    const base = { name: "s", templateId, __provider: "shim" };
    expect((await h.providers.endpoint.check!({}, { ...base, scalerType: "QUEUE_DELAY", scalerValue: 0.5 })).failures ?? []).toEqual([]);
    const count = await h.providers.endpoint.check!({}, { ...base, scalerType: "REQUEST_COUNT", scalerValue: 1.5 });
    expect(count.failures?.[0]).toMatchObject({
      property: "scalerValue",
      reason: expect.stringMatching(/^scalerValue: 1\.5 requests per worker is not a whole number/),
    });
    expect((await h.providers.endpoint.check!({}, { ...base, scalerValue: 0.4 })).failures?.[0]?.property).toBe("scalerValue");
    // v1's own bound, quoted on a v1 stack.
    expect(v1Failures(endpointTable, "endpoint", { templateId, scalerValue: 0.5 })[0]?.reason).toMatch(
      /^scalerValue: 0\.5 is not a whole number; use a whole number of 1 or more.*the v1 API's bound/,
    );
  });

  it("check: volumes up to 4096 GB on v2, 4000 on v1", async () => {
    const args = { name: "big", dataCenterId: "EU-RO-1", __provider: "shim" };
    expect((await h.providers.networkVolume.check!({}, { ...args, size: 4096 })).failures ?? []).toEqual([]);
    expect((await h.providers.networkVolume.check!({}, { ...args, size: 4097 })).failures?.[0]?.property).toBe("size");
    expect((await h.providers.networkVolume.check!({}, { ...args, size: 4097 })).failures?.[0]?.reason).toMatch(
      /4097 is above the maximum 4096 GB.*the v2 API's bounds/,
    );
    expect(v1Failures(networkVolumeTable, "network volume", { name: "big", dataCenterId: "EU-RO-1", size: 4096 })[0]?.reason).toMatch(
      /4096 is above the maximum 4000 GB.*the v1 API's bounds/,
    );
  });

  it("a volume's tier is read back: a site whose primary tier is HIGH_PERFORMANCE is not assumed STANDARD", async () => {
    const args = { name: "tier", size: 10, dataCenterId: "CA-MTL-3", __provider: "shim" };
    const created = await h.providers.networkVolume.create(await checked(h.providers.networkVolume, args));
    expect(created.outs?.["type"]).toBe("HIGH_PERFORMANCE");
    const table = tableForBackend(networkVolumeTable, "v2");
    expect(computeDiff(table, created.outs as Outs, args, { id: created.id }).changes).toBe(false);
    expect(computeDiff(table, created.outs as Outs, { ...args, type: "STANDARD" }, { id: created.id }).replaces).toEqual(["type"]);
    await h.providers.networkVolume.delete!(created.id, created.outs as Outs);
  });

  it("a template whose registry credential was deleted refreshes to none: the preview shows the drift", async () => {
    const registry = await h.providers.registryAuth.create(
      await checked(h.providers.registryAuth, { name: "reg", username: "u", password: "p", __provider: "shim" }),
    );
    const args = { name: "private", imageName: "ghcr.io/acme/private:1", containerRegistryAuthId: registry.id, __provider: "shim" };
    const template = await h.providers.template.create(await checked(h.providers.template, args));
    // Through v2, whose delete drops the credential from templates (/v1 refuses while one uses it).
    const v2 = new ManagementClientV2({ baseUrl: h.emulator.apiUrlV2, apiKey: h.emulator.apiKey });
    await v2.registries.delete(registry.id);
    await v2.close();
    const read = await h.providers.template.read!(template.id, template.outs as Outs);
    // Read back as no credential ("" on v2), not as the declared one kept.
    expect(read.props?.["containerRegistryAuthId"] ?? "").toBe("");
    expect(computeDiff(tableForBackend(templateTable, "v2"), read.props ?? {}, args, { id: template.id }).changes).toBe(true);
    await h.providers.template.delete!(template.id, template.outs as Outs);
  });
});

describe("endpoint create against a host that ignores type (scripted)", () => {
  it("always sends type and timeout, and fails loudly (after deleting it) when the endpoint comes back as another type", async () => {
    const server = await startScriptedServer([
      json(200, { gpus: [{ id: "NVIDIA L4", pool: "ADA_24" }] }),
      json(201, { id: "e1", name: "lb", type: "QUEUE", workers: { min: 0, max: 1 } }),
      json(204),
    ]);
    const client = new ManagementClientV2({ baseUrl: `${server.origin}/v2`, apiKey: "k", maxRetries: 0 });
    try {
      const backend = new V2Backend(client);
      await expect(
        backend.endpoints.create({
          name: "lb",
          templateId: "t1",
          gpuTypeIds: ["NVIDIA L4"],
          type: "LOAD_BALANCER",
          scalerType: "REQUEST_COUNT",
          scalerValue: 1,
        }),
      ).rejects.toThrow(/created endpoint e1 as type "QUEUE", not the declared "LOAD_BALANCER".*The provider deleted endpoint e1/);
      const create = server.requests.find((r) => r.method === "POST");
      expect(JSON.parse(create?.body ?? "{}")).toMatchObject({ type: "LOAD_BALANCER", timeout: 300_000 });
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toContain("DELETE /v2/serverless/e1");
      expect(create?.headers["accept"]).toContain("application/problem+json");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
