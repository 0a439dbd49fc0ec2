import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

let h: Harness;
beforeAll(async () => {
  // Workers initialize for 1.5 s of service time: 30 ms of real time at this scale.
  h = await startHarness({ timeScale: 0.02 });
});
afterAll(() => h.close());

const templateArgs = { name: "worker-tpl", imageName: "acme/worker:1", isServerless: true, env: { MODEL: "small" }, __provider: "shim" };

describe("template against the emulator", () => {
  let id = "";
  let outs: Record<string, unknown> = {};

  it("create records declared env keys only (the platform injects PORT, PORT_HEALTH)", async () => {
    const created = await h.providers.template.create(await checked(h.providers.template, templateArgs));
    id = created.id;
    outs = created.outs as Record<string, unknown>;
    expect(outs["env"]).toEqual({ MODEL: "small" });
    expect((await h.client.getTemplate(id)).env).toHaveProperty("PORT");
  });

  it("read gives no diff; update of env keeps the injected keys", async () => {
    const read = await h.providers.template.read!(id, outs);
    expect(computeDiff(templateTable, read.props, read.inputs ?? {}).changes).toBe(false);
    const updated = await h.providers.template.update!(id, outs, { ...templateArgs, env: { MODEL: "large" }, readme: "# worker" });
    outs = updated.outs as Record<string, unknown>;
    const live = await h.client.getTemplate(id);
    expect(live.env).toMatchObject({ MODEL: "large", PORT: expect.any(String), PORT_HEALTH: expect.any(String) });
    expect(live.readme).toBe("# worker");
  });

  it("a replacement keeping the same name deletes first (names are unique)", async () => {
    const diff = await h.providers.template.diff!(id, outs, { ...templateArgs, env: { MODEL: "large" }, category: "CPU" });
    expect(diff).toEqual({ changes: true, replaces: ["category"], deleteBeforeReplace: true });
  });

  it("adopts an existing template and updates its declared fields; refuses a category mismatch", async () => {
    const existing = await h.client.createTemplate({ name: "handmade", imageName: "img:1", category: "NVIDIA" });
    const adopted = await h.providers.template.create({ name: "handmade", imageName: "img:2", adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect((await h.client.getTemplate(existing.id)).imageName).toBe("img:2");
    await expect(
      h.providers.template.create({ name: "handmade", imageName: "img:2", category: "AMD", adoptId: existing.id }),
    ).rejects.toThrow(/category is "NVIDIA" on the live resource but "AMD" is declared/);
  });

  describe("endpoint on the template", () => {
    let endpointId = "";
    let endpointOuts: Record<string, unknown> = {};

    it("create waits for workersMin workers and sets flashboot false after create", async () => {
      const args = await checked(h.providers.endpoint, {
        templateId: id,
        name: "infer",
        workersMin: 1,
        workersMax: 2,
        gpuTypeIds: ["NVIDIA L4"],
        flashboot: false,
        __provider: "shim",
      });
      const created = await h.providers.endpoint.create(args);
      endpointId = created.id;
      endpointOuts = created.outs as Record<string, unknown>;
      expect(endpointOuts["endpointId"]).toBe(endpointId);
      expect(endpointOuts["workersMin"]).toBe(1);
      const live = await h.client.getEndpoint(endpointId, { includeWorkers: true });
      expect((live.workers ?? []).length).toBeGreaterThanOrEqual(1);
      expect(h.calls).toContain("endpoints.update");
      expect(h.lines.info.join("\n")).toMatch(/endpoint "infer" .*(running its 1 minimum workers|created)/);
    });

    it("read gives no diff; workersMax changed in the console shows as drift, updated in place", async () => {
      const read = await h.providers.endpoint.read!(endpointId, endpointOuts);
      expect(computeDiff(endpointTable, read.props, read.inputs ?? {}, { id: endpointId }).changes).toBe(false);
      await h.client.updateEndpoint(endpointId, { workersMax: 5 });
      const drifted = await h.providers.endpoint.read!(endpointId, endpointOuts);
      expect(drifted.props?.["workersMax"]).toBe(5);
      const declared = { templateId: id, name: "infer", workersMin: 1, workersMax: 2, gpuTypeIds: ["NVIDIA L4"], flashboot: false };
      const diff = await h.providers.endpoint.diff!(endpointId, drifted.props, declared);
      expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
      const updated = await h.providers.endpoint.update!(endpointId, drifted.props, declared);
      expect(updated.outs?.["workersMax"]).toBe(2);
      endpointOuts = updated.outs as Record<string, unknown>;
    });

    it("the template cannot be deleted while the endpoint uses it; the error says what to do", async () => {
      await expect(h.providers.template.delete!(id, outs)).rejects.toThrow(
        /template "worker-tpl" \(id \w+\) cannot be deleted: .*It is used by endpoint "infer" \(id \w+\).*give the template a new name instead/,
      );
    });

    it("delete scales the endpoint to 0 first (the service refuses while workersMin > 0)", async () => {
      h.calls.length = 0;
      await h.providers.endpoint.delete!(endpointId, endpointOuts);
      expect(h.calls.slice(0, 2)).toEqual(["endpoints.update", "endpoints.delete"]);
      expect(await h.providers.endpoint.read!(endpointId, endpointOuts)).toEqual({});
      await expect(h.providers.endpoint.delete!(endpointId, endpointOuts)).resolves.toBeUndefined();
    });

    it("the template can be deleted now; a second delete is fine", async () => {
      await h.providers.template.delete!(id, outs);
      await expect(h.providers.template.delete!(id, outs)).resolves.toBeUndefined();
    });
  });

  it("adopts an existing endpoint; refuses a computeType mismatch", async () => {
    const tpl = await h.client.createTemplate({ name: "adopt-tpl", imageName: "img", isServerless: true });
    const existing = await h.client.createEndpoint({ templateId: tpl.id, name: "old", workersMax: 1 });
    const adopted = await h.providers.endpoint.create({ templateId: tpl.id, name: "renamed", workersMax: 3, adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(await h.client.getEndpoint(existing.id)).toMatchObject({ name: "renamed", workersMax: 3 });
    await expect(h.providers.endpoint.create({ templateId: tpl.id, computeType: "CPU", adoptId: existing.id })).rejects.toThrow(
      /computeType is "GPU" on the live resource but "CPU" is declared/,
    );
  });
});

describe("endpoint readiness deadline", () => {
  it("workers that do not come up in time make a partial create that keeps the endpoint", async () => {
    const slow = await startHarness({ timeScale: 0.02, serverless: { coldStartMs: 10_000_000 } });
    try {
      const tpl = await slow.client.createTemplate({ name: "slow-tpl", imageName: "img", isServerless: true });
      const error = await slow.providers.endpoint
        .create({ templateId: tpl.id, name: "slow", workersMin: 1, workersMax: 1, readyTimeoutSeconds: 0.2, __provider: "shim" })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ id: expect.any(String), reasons: [expect.stringContaining("0 of 1 minimum workers up")] });
      const init = error as { id: string; properties: Record<string, unknown> };
      expect(init.properties["__provider"]).toBe("shim");
      expect(init.properties["endpointId"]).toBe(init.id);
      expect(slow.emulator.inspect()[0]?.endpoints.map((e) => e.id)).toEqual([init.id]);
    } finally {
      await slow.close();
    }
  });
});
