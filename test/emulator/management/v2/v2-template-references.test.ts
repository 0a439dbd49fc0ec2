/**
 * What a template gives the pods and endpoints made from it, and what they keep of it, as the
 * reference states it:
 * - listPublicTemplates (management-api-v2-paths.txt): "`registry` is always null for templates you
 *   don't own", so another account's public template neither shows its owner's credential nor lends
 *   it to a pod or endpoint made from (or patched to) it;
 * - Pod.template (management-api-v2-schemas.txt): "ID of the template this pod was created from", the
 *   link deleteTemplate checks: "Rejected if the template is currently referenced by a pod (see that
 *   pod's `template` field)". A v2 create keeps no link (CreatePodRequest.templateId: "`template`
 *   stays null"); a /v1 create does, and v2 answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, KEY_A, KEY_B, api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let owner: Api;
let other: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: { perMinute: 100_000 } });
  owner = apiV2(emu, KEY_A);
  other = apiV2(emu, KEY_B);
});
afterAll(() => emu.close());

/** A public template of the owner's account that names the owner's registry credential. */
async function publicTemplateWithRegistry(serverless: boolean): Promise<{ templateId: string; registryId: string }> {
  const registry = await owner.post("/registries", { name: "owner-reg", username: "u", password: "p" });
  expect(registry.status).toBe(201);
  const template = await owner.post("/templates", {
    name: serverless ? "shared-worker" : "shared-pod",
    image: "owner/private:1",
    registry: registry.body.id,
    public: true,
    serverless,
  });
  expect(template.status).toBe(201);
  return { templateId: template.body.id, registryId: registry.body.id };
}

describe("another account's public template", () => {
  it("reads with registry null; its owner still reads the credential", async () => {
    const { templateId, registryId } = await publicTemplateWithRegistry(false);
    expect((await owner.get(`/templates/${templateId}`)).body.registry).toBe(registryId);
    const seen = await other.get(`/templates/${templateId}`);
    expect(seen.status).toBe(200);
    // "`registry` is always null for templates you don't own"
    expect(seen.body.registry).toBeNull();
    expect(seen.body.image).toBe("owner/private:1");
  });

  it("makes a pod without the owner's registry (not a 400), and a PATCH to it leaves none", async () => {
    const { templateId } = await publicTemplateWithRegistry(false);
    const created = await other.post("/pods", { name: "from-shared", gpu: V2_GPU_POD.gpu, templateId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ image: "owner/private:1", registry: null });

    const own = (await other.post("/registries", { name: "other-reg", username: "u", password: "p" })).body;
    const pod = (await other.post("/pods", { ...V2_GPU_POD, name: "own-reg", registry: own.id })).body;
    expect(pod.registry).toBe(own.id);
    // UpdatePodRequest.templateId: the template's settings "applied as if they were provided in this
    // PATCH body (image, args, disk, ports, env, registry ...)": its registry, null to this account.
    const patched = await other.patch(`/pods/${pod.id}`, { templateId });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ image: "owner/private:1", registry: null });
  });

  it("makes a serverless endpoint whose own template copies no registry", async () => {
    const { templateId } = await publicTemplateWithRegistry(true);
    const { image: _image, ...endpoint } = V2_QUEUE_ENDPOINT;
    const created = await other.post("/serverless", { ...endpoint, name: "from-shared-worker", templateId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ image: "owner/private:1", registry: null });
    expect((await other.get(`/serverless/${created.body.id}`)).body.registry).toBeNull();
  });
});

describe("a pod's template link", () => {
  it("a /v1 pod made from a template answers its id on v2, and v2 refuses to delete that template", async () => {
    const v1 = api(emu, KEY_A);
    const template = await v1.post("/templates", { name: "v1-linked", imageName: "example/linked:1" });
    expect(template.status).toBe(200);
    const pod = await v1.post("/pods", { ...GPU_POD, name: "v1-linked-pod", templateId: template.body.id });
    expect(pod.status).toBe(201);
    // Pod.template: "ID of the template this pod was created from"
    expect((await owner.get(`/pods/${pod.body.id}`)).body.template).toBe(template.body.id);
    expect((await owner.get("/pods")).body.pods.find((p: { id: string }) => p.id === pod.body.id)?.template).toBe(template.body.id);
    // deleteTemplate: "Rejected if the template is currently referenced by a pod (see that pod's `template` field)"
    const refused = expectProblem(await owner.del(`/templates/${template.body.id}`), 400);
    expect(refused.detail).toContain(`pod ${pod.body.id}`);
  });

  it("a v2 pod keeps none: `template` stays null and the template can be deleted", async () => {
    const template = (await owner.post("/templates", { name: "v2-unlinked", image: "example/unlinked:1" })).body;
    const pod = await owner.post("/pods", { name: "v2-unlinked-pod", gpu: V2_GPU_POD.gpu, templateId: template.id });
    expect(pod.status).toBe(201);
    expect(pod.body.template).toBeNull();
    expect((await owner.del(`/templates/${template.id}`)).status).toBe(204);
  });
});
