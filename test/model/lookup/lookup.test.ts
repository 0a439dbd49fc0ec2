// A lookup reports what the resource itself reports: for a pod and an endpoint created through the
// provider on each backend, every output the resource read from the service is in the lookup's
// result with the same value (env aside: a lookup reads the whole map, injected keys included);
// what the lookup lacks is only what the resource kept as declared (the service does not report it)
// and the cost estimate, which the provider computes from its arguments at check, not from a read.
// By name on v2: names match in any case, and a name several resources share is refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COST_ESTIMATE } from "../../../model/fields/estimateOutput";
import { ManagementClientV2 } from "../../../client/managementV2";
import { readExisting } from "../../../model/lookup/lookup";
import { LookupArgsError } from "../../../model/lookup/lookupArgsError";
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

describe("lookups by name on v2 (names case-insensitive, not unique)", () => {
  let h: Harness;
  let v2: ManagementClientV2;
  beforeAll(async () => {
    h = await startHarness({ timeScale: 0.05 }, "v2");
    v2 = new ManagementClientV2({ baseUrl: h.emulator.apiUrlV2, apiKey: h.emulator.apiKey });
  });
  afterAll(async () => {
    await v2.close();
    await h.close();
  });

  it("find a name in another case", async () => {
    const made = await v2.templates.create({ name: "Trainer-Template", image: "img:1" });
    const found = await readExisting("template", h.deps.client(), "v2", { name: "trainer-template" }, "getTemplate");
    expect(found).toMatchObject({ id: made.id, name: "Trainer-Template" });
  });

  it("refuse a name several templates or registries share, listing their ids", async () => {
    const first = await v2.templates.create({ name: "worker", image: "img:1" });
    const second = await v2.templates.create({ name: "Worker", image: "img:2" });
    const lookup = readExisting("template", h.deps.client(), "v2", { name: "worker" }, "getTemplate");
    await expect(lookup).rejects.toBeInstanceOf(LookupArgsError);
    await expect(lookup).rejects.toThrow(
      new RegExp(
        `getTemplate: 2 templates are named "worker" .*${first.id} \\("worker"\\), ${second.id} \\("Worker"\\)|${second.id}.*${first.id}`,
      ),
    );
    const one = await v2.registries.create({ name: "ghcr", username: "u", password: "p" });
    const two = await v2.registries.create({ name: "ghcr", username: "u", password: "q" });
    const registry = readExisting("registryAuth", h.deps.client(), "v2", { name: "ghcr" }, "getRegistryAuth");
    await expect(registry).rejects.toThrow(
      new RegExp(`2 registry auths are named "ghcr".*(${one.id}.*${two.id}|${two.id}.*${one.id}).*by id`),
    );
  });
});
