// Shared list calls against the emulator, on both APIs: a refresh of many endpoints is one list call,
// a resource missing from the list is confirmed by its own GET before it leaves the state, drift
// still shows, a new endpoint with workersMin 0 is ready as its create answered (no read), and the
// creates that follow share the list taken before the first (createOnce.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProxiedCall } from "../../../scripts/lib/countingProxy";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

const COUNT = 100;

for (const api of ["v1", "v2"] as const) {
  describe(`shared reads on ${api}`, () => {
    let h: Harness;
    let templateId = "";
    let ids: string[] = [];
    // The list and the single-endpoint paths of this API.
    const listPath = api === "v2" ? /\/api\/v2\/serverless(\?|$)/ : /\/v1\/endpoints(\?|$)/;
    const onePath = api === "v2" ? /\/api\/v2\/serverless\/[^/?]+(\?|$)/ : /\/v1\/endpoints\/[^/?]+(\?|$)/;
    // A list read is one walk of its pages: the suite's emulators answer two items a page, so a v2
    // walk of ~100 endpoints is one first-page request (no cursor) and its continuations.
    const pages = (calls: ProxiedCall[]) => calls.filter((c) => c.method === "GET" && listPath.test(c.path));
    const continuations = (calls: ProxiedCall[]) => pages(calls).filter((c) => /[?&]cursor=/.test(c.path));
    const lists = (calls: ProxiedCall[]) => pages(calls).filter((c) => !/[?&]cursor=/.test(c.path));
    const gets = (calls: ProxiedCall[]) => calls.filter((c) => c.method === "GET" && onePath.test(c.path));

    beforeAll(async () => {
      // Not about quotas: the account holds far more endpoints than the default worker quota allows.
      h = await startHarness({ serverlessWorkerQuota: 10_000 }, api);
      templateId = (await h.client.createTemplate({ name: `shared-${api}`, imageName: "acme/worker:1", isServerless: true })).id;
      ids = [];
      for (let i = 0; i < COUNT; i++)
        ids.push(
          (await h.client.createEndpoint({ templateId, name: `ep-${i}`, workersMin: 0, workersMax: 3, gpuTypeIds: ["NVIDIA L4"] })).id,
        );
    });
    afterAll(() => h.close());

    it(`a refresh of ${COUNT} endpoints makes one list read (one walk of its pages); one deleted out of band is confirmed by its own GET, drift shows`, async () => {
      const [gone, drifted] = [ids[5]!, ids[7]!];
      await h.client.deleteEndpoint(gone);
      await h.client.updateEndpoint(drifted, { workersMax: 1 });
      h.http.take();
      const results = await Promise.all(
        ids.map((id, i) => h.providers.endpoint.read!(id, { name: `ep-${i}`, templateId, workersMin: 0, workersMax: 3 })),
      );
      const calls = h.http.take();
      expect(lists(calls)).toHaveLength(1);
      // Only the endpoint the list did not have was read on its own (and found gone).
      expect(gets(calls).map((c) => [c.path.split("?")[0]!.split("/").pop(), c.status])).toEqual([[gone, 404]]);
      expect(calls.length - continuations(calls).length).toBe(2);
      // The walk read every page of the 99 left: v1 has no pages, v2 two endpoints a page.
      expect(pages(calls)).toHaveLength(api === "v2" ? Math.ceil((COUNT - 1) / 2) : 1);
      expect(results[5]).toEqual({});
      expect(results[7]?.props?.["workersMax"]).toBe(1);
      expect(results.filter((r) => r.id !== undefined)).toHaveLength(COUNT - 1);
    });

    it("reads with workers share a list that carries them (v1: includeWorkers on the list; v2: /workers per endpoint, which has no list form)", async () => {
      // Five reads: enough for a list of the ~105 endpoints there are (ITEMS_PER_READ is 25).
      const busy: string[] = [];
      for (let i = 0; i < 5; i++)
        busy.push(
          (await h.client.createEndpoint({ templateId, name: `busy-${i}`, workersMin: 1, workersMax: 1, gpuTypeIds: ["NVIDIA L4"] })).id,
        );
      for (let tries = 0; ; tries++) {
        const counts = await Promise.all(
          busy.map(async (id) => (await h.client.getEndpoint(id, { includeWorkers: true })).workers?.length ?? 0),
        );
        if (counts.every((n) => n > 0)) break;
        if (tries > 200) throw new Error(`workers did not start: ${counts.join(", ")}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      h.http.take();
      const read = await Promise.all(busy.map((id) => h.deps.client().endpoints.get(id, { includeWorkers: true })));
      const calls = h.http.take();
      for (const endpoint of read) expect(endpoint.workers?.length).toBe(1);
      expect(lists(calls)).toHaveLength(1);
      expect(gets(calls)).toHaveLength(0);
      if (api === "v1") expect(lists(calls)[0]!.path).toContain("includeWorkers=true");
      else expect(calls.filter((c) => /\/serverless\/[^/]+\/workers$/.test(c.path))).toHaveLength(busy.length);
      for (const id of busy) await h.client.updateEndpoint(id, { workersMin: 0, workersMax: 0 });
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
      const args = await checked(h.providers.endpoint, {
        templateId,
        name: "fresh",
        workersMin: 0,
        workersMax: 2,
        gpuTypeIds: ["NVIDIA L4"],
        __provider: "shim",
      });
      h.http.take();
      const created = await h.providers.endpoint.create(args);
      const calls = h.http.take();
      expect(created.outs["endpointId"]).toBe(created.id);
      expect(lists(calls)).toHaveLength(1);
      expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
      expect(gets(calls)).toHaveLength(0);
    });

    it("creates that follow within the snapshot's age share its list: 20 creates, 20 POSTs, no list", async () => {
      const inputs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          checked(h.providers.endpoint, {
            templateId,
            name: `later-${i}`,
            workersMin: 0,
            workersMax: 2,
            gpuTypeIds: ["NVIDIA L4"],
            __provider: "shim",
          }),
        ),
      );
      h.http.take();
      const created = await Promise.all(inputs.map((args) => h.providers.endpoint.create(args)));
      const calls = h.http.take();
      expect(new Set(created.map((c) => c.id)).size).toBe(20);
      expect(calls.filter((c) => c.method === "POST")).toHaveLength(20);
      expect(lists(calls)).toHaveLength(0);
      expect(calls).toHaveLength(20);
    });
  });
}
