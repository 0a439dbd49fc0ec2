// Shared list calls against the emulator, on both APIs: a refresh of many endpoints is one list call,
// a resource missing from the list is confirmed by its own GET before it leaves the state, drift
// still shows, and a new endpoint with workersMin 0 is ready as its create answered (no read).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProxiedCall } from "../../../scripts/lib/countingProxy";
import { checked, startHarness, type Harness } from "./harness";

const COUNT = 100;

for (const api of ["v1", "v2"] as const) {
  describe(`shared reads on ${api}`, () => {
    let h: Harness;
    let templateId = "";
    let ids: string[] = [];
    // The list and the single-endpoint paths of this API.
    const listPath = api === "v2" ? /\/api\/v2\/serverless(\?|$)/ : /\/v1\/endpoints(\?|$)/;
    const onePath = api === "v2" ? /\/api\/v2\/serverless\/[^/?]+(\?|$)/ : /\/v1\/endpoints\/[^/?]+(\?|$)/;
    const lists = (calls: ProxiedCall[]) => calls.filter((c) => c.method === "GET" && listPath.test(c.path));
    const gets = (calls: ProxiedCall[]) => calls.filter((c) => c.method === "GET" && onePath.test(c.path));

    beforeAll(async () => {
      h = await startHarness({}, api);
      templateId = (await h.client.createTemplate({ name: `shared-${api}`, imageName: "acme/worker:1", isServerless: true })).id;
      ids = [];
      for (let i = 0; i < COUNT; i++) ids.push((await h.client.createEndpoint({ templateId, name: `ep-${i}`, workersMin: 0, workersMax: 3, gpuTypeIds: ["NVIDIA L4"] })).id);
    });
    afterAll(() => h.close());

    it(`a refresh of ${COUNT} endpoints makes one list call; one deleted out of band is confirmed by its own GET, drift shows`, async () => {
      const [gone, drifted] = [ids[5]!, ids[7]!];
      await h.client.deleteEndpoint(gone);
      await h.client.updateEndpoint(drifted, { workersMax: 1 });
      h.http.take();
      const results = await Promise.all(ids.map((id, i) => h.providers.endpoint.read!(id, { name: `ep-${i}`, templateId, workersMin: 0, workersMax: 3 })));
      const calls = h.http.take();
      expect(lists(calls)).toHaveLength(1);
      // Only the endpoint the list did not have was read on its own (and found gone).
      expect(gets(calls).map((c) => [c.path.split("?")[0]!.split("/").pop(), c.status])).toEqual([[gone, 404]]);
      expect(calls).toHaveLength(2);
      expect(results[5]).toEqual({});
      expect(results[7]?.props?.["workersMax"]).toBe(1);
      expect(results.filter((r) => r.id !== undefined)).toHaveLength(COUNT - 1);
    });

    it("a lone read is a plain GET", async () => {
      h.http.take();
      const result = await h.providers.endpoint.read!(ids[0]!, { name: "ep-0", templateId });
      const calls = h.http.take();
      expect(result.id).toBe(ids[0]);
      expect(lists(calls)).toHaveLength(0);
      expect(gets(calls)).toHaveLength(1);
    });

    it("a new endpoint with workersMin 0 is ready as its create answered: a lookup list and the create, no read", async () => {
      const args = await checked(h.providers.endpoint, { templateId, name: "fresh", workersMin: 0, workersMax: 2, gpuTypeIds: ["NVIDIA L4"], __provider: "shim" });
      h.http.take();
      const created = await h.providers.endpoint.create(args);
      const calls = h.http.take();
      expect(created.outs["endpointId"]).toBe(created.id);
      expect(lists(calls)).toHaveLength(1);
      expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
      expect(gets(calls)).toHaveLength(0);
    });
  });
}
