/**
 * EndpointRollout's wiring, under Pulumi's mocks: one template per version (named after it), a
 * canary and a serving endpoint on the same settings, the version derived from the settings when
 * none is given, and bad versions refused with what was wrong and the fix.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { recordResources, valueOf, type Registered } from "../../support/pulumiMocks";

let registered: Registered[] = [];

beforeAll(() => {
  registered = recordResources(() => ({ results: [], revision: "r1" }));
});

const cases = [{ name: "answers", input: { prompt: "hi" } }];
const template = { name: "model", imageName: "me/model:2.0", isServerless: true };

describe("EndpointRollout", () => {
  it("puts the canary and, after the gate, the serving endpoint on the version's template", async () => {
    const gpucloud = await import("../../../sdk/index");
    const rollout = new gpucloud.EndpointRollout("infer", { version: "2.0", template, endpoint: { workersMax: 3 }, cases });
    // The mocks have no apiUrl, so this is the v1 API: the template's resource name carries the
    // settings' digest too (a settings change under the same version is then a new resource).
    const templateId = await valueOf(rollout.servingTemplateId);
    expect(templateId).toMatch(/^infer-2\.0-v[0-9a-f]{10}-id$/);
    expect(await valueOf(rollout.canaryEndpointId)).toBe("infer-canary-id");
    const byName = (name: string) => registered.find((r) => r.name === name && r.type.startsWith("pulumi-nodejs:dynamic/"))?.inputs ?? {};
    expect(byName(templateId.replace(/-id$/, ""))).toMatchObject({ name: "model-2.0", imageName: "me/model:2.0" });
    expect(byName("infer-canary")).toMatchObject({ name: "infer-canary", templateId, workersMin: 0, workersMax: 1 });
    expect(byName("infer")).toMatchObject({ name: "infer", templateId, workersMax: 3 });
    expect(registered.map((r) => r.name)).toContain("infer-gate-run");
  });

  it("derives the version from the settings: the same settings, the same version; others, another", async () => {
    const gpucloud = await import("../../../sdk/index");
    const a = new gpucloud.EndpointRollout("a", { template, endpoint: {}, cases });
    const b = new gpucloud.EndpointRollout("b", { template, endpoint: {}, cases });
    const c = new gpucloud.EndpointRollout("c", { template: { ...template, imageName: "me/model:2.1" }, endpoint: {}, cases });
    expect(a.version).toMatch(/^v[0-9a-f]{10}$/);
    expect(b.version).toBe(a.version);
    expect(c.version).not.toBe(a.version);
  });

  it("refuses a bad version, and settings it cannot derive one from, saying what to do", async () => {
    const gpucloud = await import("../../../sdk/index");
    expect(() => new gpucloud.EndpointRollout("bad", { version: "2.0 beta", template, endpoint: {}, cases })).toThrow(
      'EndpointRollout bad: version "2.0 beta" is not valid; use 1 to 40 letters, digits, ".", "_" or "-" (e.g. "2.1.0")',
    );
    const image = pulumi.output("me/model:3.0");
    expect(() => new gpucloud.EndpointRollout("unknown", { template: { ...template, imageName: image }, endpoint: {}, cases })).toThrow(
      /template\.imageName is an Output, so no version can be derived from the settings; give `version`/,
    );
  });
});
