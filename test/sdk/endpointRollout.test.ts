/**
 * EndpointRollout's wiring, under Pulumi's mocks: one template per version (named after it); a
 * candidate check whose canary copies the serving endpoint's settings; the serving endpoint and the
 * switch taking the template only from the check's verdict; the version derived from the settings
 * when none is given; bad versions refused with what was wrong and the fix.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { recordResources, outputValue, type Registered } from "../support/pulumiMocks";

let registered: Registered[] = [];

beforeAll(() => {
  registered = recordResources((name, inputs) => {
    // What the real providers add: the candidate approves its template, the switch records it.
    if (name.endsWith("-candidate")) return { approvedTemplateId: inputs["templateId"], results: [], history: [] };
    if (name.endsWith("-switch"))
      return { servingVersion: inputs["version"], servingTemplateId: inputs["templateId"], verifyResults: [], history: [] };
    return { results: [], revision: "r1" };
  });
});

const cases = [{ name: "answers", input: { prompt: "hi" } }];
const template = { name: "model", imageName: "me/model:2.0", isServerless: true };

describe("EndpointRollout", () => {
  it("checks the version's template on a canary; the serving endpoint and the switch take it from the verdict", async () => {
    const gpucloud = await import("../../sdk/index");
    const rollout = new gpucloud.EndpointRollout("infer", {
      version: "2.0",
      template,
      endpoint: { workersMin: 1, workersMax: 3 },
      cases,
      verifyAfterSwitch: true,
    });
    // The mocks have no apiUrl, so this is the v1 API: the template's resource name carries the
    // settings' digest too (a settings change under the same version is then a new resource).
    const templateId = await outputValue(rollout.servingTemplateId);
    expect(templateId).toMatch(/^infer-2\.0-v[0-9a-f]{10}-id$/);
    expect(await outputValue(rollout.servingVersion)).toBe("2.0");
    const byName = (name: string) => registered.find((r) => r.name === name && r.type.startsWith("pulumi-nodejs:dynamic/"))?.inputs ?? {};
    expect(byName(templateId.replace(/-id$/, ""))).toMatchObject({ name: "model-2.0", imageName: "me/model:2.0" });
    expect(byName("infer-candidate")).toMatchObject({
      rollout: "infer",
      version: "2.0",
      templateId,
      canary: { name: "infer-canary", templateId, workersMin: 0, workersMax: 1 },
      cases,
    });
    expect(byName("infer")).toMatchObject({ name: "infer", templateId, templateAppliedBy: "rollout", workersMin: 1, workersMax: 3 });
    expect(byName("infer-switch")).toMatchObject({
      rollout: "infer",
      endpointId: "infer-id",
      version: "2.0",
      templateId,
      verifyAfterSwitch: true,
      workersMin: 1,
      cases,
    });
    expect(registered.map((r) => r.type)).toEqual(
      expect.arrayContaining(["pulumi-nodejs:dynamic/gpucloud:RolloutCandidate", "pulumi-nodejs:dynamic/gpucloud:RolloutSwitch"]),
    );
  });

  it("derives the version from the settings: the same settings, the same version; others, another", async () => {
    const gpucloud = await import("../../sdk/index");
    const a = new gpucloud.EndpointRollout("a", { template, endpoint: {}, cases });
    const b = new gpucloud.EndpointRollout("b", { template, endpoint: {}, cases });
    const c = new gpucloud.EndpointRollout("c", { template: { ...template, imageName: "me/model:2.1" }, endpoint: {}, cases });
    expect(a.version).toMatch(/^v[0-9a-f]{10}$/);
    expect(b.version).toBe(a.version);
    expect(c.version).not.toBe(a.version);
  });

  it("refuses a bad version, and settings it cannot derive one from, saying what to do", async () => {
    const gpucloud = await import("../../sdk/index");
    expect(() => new gpucloud.EndpointRollout("bad", { version: "2.0 beta", template, endpoint: {}, cases })).toThrow(
      'EndpointRollout bad: version "2.0 beta" is not valid; use 1 to 40 letters, digits, ".", "_" or "-" (e.g. "2.1.0")',
    );
    const image = pulumi.output("me/model:3.0");
    expect(() => new gpucloud.EndpointRollout("unknown", { template: { ...template, imageName: image }, endpoint: {}, cases })).toThrow(
      /template\.imageName is an Output, so no version can be derived from the settings; give `version`/,
    );
  });
});
