import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { podTable } from "../../../model/kinds/pod/podFields";
import { startHarness, type Harness } from "../../support/providerHarness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    timeScale: 0.001,
    quirks: {
      costPerHrAsString: true,
      endpointDataCenterIdsAsString: true,
      endpointDataCenterIdsSorted: true,
      flashBootNameSuffix: true,
      deleteStatus: 200,
      unknownFieldStatus: 422,
    },
  });
});
afterAll(() => h.close());

describe("reported live quirks do not make diffs", () => {
  it("a quoted costPerHr reads as a number; refresh gives no diff", async () => {
    const created = await h.providers.pod.create({ name: "q", imageName: "img", gpuTypeIds: ["NVIDIA L4"] });
    expect(typeof created.outs?.["costPerHr"]).toBe("number");
    const read = await h.providers.pod.read!(created.id, created.outs);
    expect(computeDiff(podTable, read.props, { name: "q", imageName: "img", gpuTypeIds: ["NVIDIA L4"] }).changes).toBe(false);
    await h.providers.pod.delete!(created.id, created.outs);
  });

  it("dataCenterIds echoed as a comma string still match the declared list; DELETE answering 200 is fine", async () => {
    const tpl = await h.client.createTemplate({ name: "q-tpl", imageName: "img", isServerless: true });
    const declared = { templateId: tpl.id, name: "q-ep", dataCenterIds: ["EU-RO-1", "US-TX-3"], workersMax: 1 };
    const created = await h.providers.endpoint.create(declared);
    const read = await h.providers.endpoint.read!(created.id, created.outs);
    expect(read.props?.["dataCenterIds"]).toEqual(["EU-RO-1", "US-TX-3"]);
    expect(computeDiff(endpointTable, read.props, declared).changes).toBe(false);
    await h.providers.endpoint.delete!(created.id, created.outs);
    expect(await h.providers.endpoint.read!(created.id, created.outs)).toEqual({});
  });

  it("dataCenterIds read back sorted match the declared order: no diff, no update", async () => {
    const tpl = await h.client.createTemplate({ name: "q-tpl-sorted", imageName: "img", isServerless: true });
    const declared = { templateId: tpl.id, name: "q-sorted", dataCenterIds: ["US-TX-3", "EU-RO-1"], workersMax: 1 };
    const created = await h.providers.endpoint.create(declared);
    expect((await h.client.getEndpoint(created.id)).dataCenterIds).toEqual(["EU-RO-1", "US-TX-3"]);
    const read = await h.providers.endpoint.read!(created.id, created.outs);
    expect(read.props?.["dataCenterIds"]).toEqual(["US-TX-3", "EU-RO-1"]);
    expect(computeDiff(endpointTable, read.props, declared).changes).toBe(false);
    await h.providers.endpoint.delete!(created.id, created.outs);
  });

  it("a FlashBoot endpoint's name comes back without the platform's \" -fb\": no rename diff", async () => {
    const tpl = await h.client.createTemplate({ name: "q-tpl-fb", imageName: "img", isServerless: true });
    const declared = { templateId: tpl.id, name: "q-fb", flashboot: true, workersMax: 1 };
    const created = await h.providers.endpoint.create(declared);
    expect(h.emulator.inspect()[0]?.endpoints.find((e) => e.id === created.id)?.name).toBe("q-fb -fb"); // as the service reports it
    const read = await h.providers.endpoint.read!(created.id, created.outs);
    expect(read.props?.["name"]).toBe("q-fb");
    expect(computeDiff(endpointTable, read.props, declared).changes).toBe(false);
    await h.providers.endpoint.delete!(created.id, created.outs);
  });

  it("a lost create of a FlashBoot endpoint resolves to the endpoint the service made, never a second one", async () => {
    const tpl = await h.client.createTemplate({ name: "q-tpl-lost", imageName: "img", isServerless: true });
    h.emulator.setFaults("CreateEndpoint: lost=1");
    let created: Awaited<ReturnType<typeof h.providers.endpoint.create>>;
    try {
      created = await h.providers.endpoint.create({ templateId: tpl.id, name: "q-lost", flashboot: true, workersMax: 1 });
    } finally {
      h.emulator.setFaults(undefined);
    }
    const named = h.emulator.inspect()[0]?.endpoints.filter((e) => e.name === "q-lost -fb") ?? [];
    expect(named.map((e) => e.id)).toEqual([created.id]);
    expect(h.lines.info.join("\n")).toContain(`endpoint "q-lost": the service did make it (id ${created.id}): using it`);
    await h.providers.endpoint.delete!(created.id, created.outs);
  });
});
