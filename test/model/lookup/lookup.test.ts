// A lookup reports what the resource itself reports: for a pod and an endpoint created through the
// provider on each backend, every output the resource read from the service is in the lookup's
// result with the same value (env aside: a lookup reads the whole map, injected keys included);
// what the lookup lacks is only what the resource kept as declared (the service does not report it)
// and the cost estimate, which the provider computes from its arguments at check, not from a read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COST_ESTIMATE } from "../../../model/fields/estimateOutput";
import { readExisting } from "../../../model/lookup/lookup";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

/** Outputs the lookup must hold, and the declared arguments the service did not report back. */
function compare(
  outs: Record<string, unknown>,
  found: Record<string, unknown>,
  declared: Record<string, unknown>,
): { same: Record<string, unknown>; keptAsDeclared: string[] } {
  const same: Record<string, unknown> = {};
  const keptAsDeclared: string[] = [];
  for (const [key, value] of Object.entries(outs)) {
    if (key === COST_ESTIMATE) continue;
    if (key in found) same[key] = value;
    else keptAsDeclared.push(key);
  }
  expect(keptAsDeclared.filter((k) => !(k in declared))).toEqual([]);
  return { same, keptAsDeclared };
}

describe.each(["v1", "v2"] as const)("readExisting on %s", (api) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.05, bootDelayMs: 2_000 }, api);
  });
  afterAll(() => h.close());

  it("a pod's lookup holds every output the pod resource recorded", async () => {
    const news = {
      name: "looked-up",
      imageName: "pytorch:2.4",
      gpuTypeIds: ["NVIDIA L4"],
      env: { LOG_LEVEL: "info" },
      ports: ["8888/http", "22/tcp"],
      __provider: "shim",
    };
    const created = await h.providers.pod.create(await checked(h.providers.pod, news));
    const { env, ...outs } = created.outs as Record<string, unknown>;
    const found = await readExisting("pod", h.deps.client(), api, { id: created.id }, "getPod");
    const { same, keptAsDeclared } = compare(outs, found, news);
    expect(found).toMatchObject({ id: created.id, ...same });
    // v1 pods do not report the GPU types asked for, only the one rented.
    expect(keptAsDeclared).toEqual(api === "v1" ? ["gpuTypeIds"] : []);
    expect(found["env"]).toMatchObject(env as object);
  });

  it("an endpoint's lookup holds every output the endpoint resource recorded", async () => {
    const template = await h.client.createTemplate({ name: `lookup-${api}`, imageName: "worker:1", isServerless: true });
    const news = {
      name: "looked-up-ep",
      templateId: template.id,
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 0,
      workersMax: 2,
      __provider: "shim",
    };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, news));
    const { templateId, ...outs } = created.outs as Record<string, unknown>;
    const found = await readExisting("endpoint", h.deps.client(), api, { id: created.id }, "getEndpoint");
    const { same, keptAsDeclared } = compare(outs, found, news);
    expect(found).toMatchObject({ id: created.id, ...same });
    // v2 endpoints report pools, not the GPU types asked for.
    expect(keptAsDeclared).toEqual(api === "v1" ? [] : ["gpuTypeIds"]);
    // v2's endpoint object does not name its template (the resource keeps the declared one).
    if (api === "v1") expect(found["templateId"]).toBe(templateId);
  });
});
