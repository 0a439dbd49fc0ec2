import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { endpointTable } from "../../../provider/resources/endpointFields";
import { podTable } from "../../../provider/resources/podFields";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timeScale: 0.001, quirks: { costPerHrAsString: true, endpointDataCenterIdsAsString: true, deleteStatus: 200, unknownFieldStatus: 422 } });
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
});
