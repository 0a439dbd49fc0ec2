// Every resource kind through the provider on the v2 backend against the emulator's /api/v2:
// create, read back without drift, update in place, replacement-only fields, the v2-only settings,
// the refusals check makes at preview, and delete. The v1 client inspects the shared store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { tableForBackend } from "../../../model/fields/fieldTable";
import { podTable } from "../../../model/kinds/pod/podFields";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timeScale: 0.05, bootDelayMs: 2_000 }, "v2");
  // startSsh (the provider's default) injects PUBLIC_KEY only when the account has registered keys.
  const put = await fetch(`${h.emulator.apiUrlV2}/account/ssh-keys`, {
    method: "PUT",
    headers: { authorization: `Bearer ${h.emulator.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ keys: ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHarness harness@test"] }),
  });
  if (put.status !== 200) throw new Error(`PUT /account/ssh-keys: ${put.status}`);
});
afterAll(() => h.close());

type Outs = Record<string, unknown>;
const podBase = {
  name: "trainer",
  imageName: "pytorch:2.4",
  gpuTypeIds: ["NVIDIA L4"],
  env: { LOG_LEVEL: "info" },
  ports: ["8888/http", "22/tcp"],
  __provider: "shim",
};

describe("pods on v2", () => {
  let id = "";
  let outs: Outs = {};

  it("create waits for RUNNING and reads publicIp and portMappings from runtime.ports, costPerHr from cost", async () => {
    const created = await h.providers.pod.create(await checked(h.providers.pod, podBase));
    id = created.id;
    outs = created.outs as Outs;
    expect(outs["desiredStatus"]).toBe("RUNNING");
    expect(outs["publicIp"]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    // Only the tcp port is mapped: the http port answers through the service's shared proxy.
    expect(Object.keys(outs["portMappings"] as object).sort()).toEqual(["22"]);
    expect(outs["costPerHr"]).toBeGreaterThan(0);
    expect(outs["gpuTypeId"]).toBe("NVIDIA L4");
    // The host's CUDA version, which v2 reports for GPU pods (Pod.cudaVersion).
    expect(outs["cudaVersion"]).toMatch(/^\d+\.\d+$/);
    expect(outs["env"]).toEqual({ LOG_LEVEL: "info" });
    expect(h.calls).toContain("pods.create");
  });

  it("read of an unchanged pod diffs to nothing", async () => {
    const read = await h.providers.pod.read!(id, outs);
    const table = tableForBackend(podTable, "v2");
    expect(computeDiff(table, read.props ?? {}, read.inputs ?? {}, { id }).changes).toBe(false);
    expect(computeDiff(table, read.props ?? {}, podBase, { id }).changes).toBe(false);
  });

  it("updates env in place, keeping what the platform injected (PUBLIC_KEY, from startSsh)", async () => {
    const next = { ...podBase, env: { LOG_LEVEL: "debug" } };
    const updated = await h.providers.pod.update!(id, outs, await checked(h.providers.pod, next, podBase));
    outs = updated.outs as Outs;
    const live = await h.client.getPod(id);
    expect(live.env).toMatchObject({ LOG_LEVEL: "debug" });
    expect(live.env).toHaveProperty("PUBLIC_KEY");
  });

  it("stops and starts through /action", async () => {
    const stopped = await h.providers.pod.update!(id, outs, { ...podBase, env: { LOG_LEVEL: "debug" }, desiredStatus: "EXITED" });
    expect((await h.client.getPod(id)).desiredStatus).toBe("EXITED");
    expect(stopped.outs?.["desiredStatus"]).toBe("EXITED");
    const running = await h.providers.pod.update!(id, stopped.outs, { ...podBase, env: { LOG_LEVEL: "debug" } });
    expect(running.outs?.["desiredStatus"]).toBe("RUNNING");
    expect((await h.client.getPod(id)).desiredStatus).toBe("RUNNING");
    outs = running.outs as Outs;
  });

  it("refresh sees a rename made outside", async () => {
    await h.client.updatePod(id, { name: "renamed" });
    const read = await h.providers.pod.read!(id, outs);
    expect(read.props?.["name"]).toBe("renamed");
  });

  it("delete terminates it; a read afterwards drops it from the state", async () => {
    await h.providers.pod.delete!(id, outs);
    expect(await h.providers.pod.read!(id, outs)).toEqual({});
  });

  it("adopts a pod made outside the stack, updating what differs in place", async () => {
    const made = await h.client.createPod({ name: "outside", imageName: "pytorch:2.4", gpuTypeIds: ["NVIDIA L4"], ports: ["22/tcp"] });
    const args = { ...podBase, name: "outside", ports: ["22/tcp"], adoptId: made.id };
    const adopted = await h.providers.pod.create(await checked(h.providers.pod, args));
    expect(adopted.id).toBe(made.id);
    expect(adopted.outs).toMatchObject({
      name: "outside",
      env: { LOG_LEVEL: "info" },
      desiredStatus: "RUNNING",
      publicIp: expect.any(String),
    });
    expect((await h.client.getPod(made.id)).env).toMatchObject({ LOG_LEVEL: "info" });
    const mismatch = await h.providers.pod
      .create(await checked(h.providers.pod, { ...args, gpuTypeIds: ["NVIDIA A40"] }))
      .catch((e: unknown) => e);
    expect(String(mismatch)).toMatch(/cannot adopt pod .*gpuTypeIds/);
    // v2 pods report the data center they got, never the list asked for: the pick must be among the declared ones.
    const placed = String(adopted.outs?.["dataCenterId"]);
    const elsewhere = placed === "EU-RO-1" ? "US-TX-3" : "EU-RO-1";
    const misplaced = await h.providers.pod
      .create(await checked(h.providers.pod, { ...args, dataCenterIds: [elsewhere] }))
      .catch((e: unknown) => e);
    expect(String(misplaced)).toContain(
      `dataCenterIds: the live resource has "${placed}", which is not among the declared ["${elsewhere}"]`,
    );
    await h.providers.pod.delete!(made.id, adopted.outs as Outs);
  });

  it("adopts a pod made from a template, warning that the template cannot be checked (v2 keeps no link)", async () => {
    const template = await h.client.createTemplate({ name: "adopt-tpl", imageName: "pytorch:2.4" });
    const res = await fetch(`${h.emulator.apiUrlV2}/pods`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "from-tpl", templateId: template.id, gpu: { id: "NVIDIA L4", count: 1 } }),
    });
    const made = (await res.json()) as { id: string; template: string | null };
    expect(made.template).toBeNull();
    const warnings = h.lines.warn.length;
    const adopted = await h.providers.pod.create(
      await checked(h.providers.pod, {
        name: "from-tpl",
        templateId: template.id,
        gpuTypeIds: ["NVIDIA L4"],
        adoptId: made.id,
        __provider: "shim",
      }),
    );
    expect(adopted.id).toBe(made.id);
    expect(h.lines.warn.slice(warnings).join("\n")).toMatch(/does not report templateId/);
    await h.providers.pod.delete!(made.id, adopted.outs as Outs);
  });

  it("check refuses what v2 cannot express, naming the field, the value and the fix", async () => {
    const result = await h.providers.pod.check!(
      {},
      { ...podBase, interruptible: true, gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"], countryCodes: ["US"], volumeInGb: 5, resetTrigger: "1" },
    );
    const byField = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    expect(byField["interruptible"]).toMatch(
      /^interruptible: true cannot be used with the v2 API \(apiUrl ends in \/v2\): .*no spot.*remove interruptible/,
    );
    expect(byField["gpuTypeIds"]).toMatch(/one type.*\["NVIDIA L4"\]/);
    expect(byField["countryCodes"]).toMatch(/dataCenterIds/);
    expect(byField["volumeInGb"]).toMatch(/at least 10 GB/);
    expect(byField["resetTrigger"]).toMatch(/restartTrigger/);
  });

  it("check accepts the defaults of fields v2 has no equivalent for", async () => {
    const result = await h.providers.pod.check!(
      {},
      { ...podBase, interruptible: false, gpuTypePriority: "availability", dockerEntrypoint: [] },
    );
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("templates and endpoints on v2", () => {
  let templateId = "";
  let templateOuts: Outs = {};
  let endpointId = "";
  let endpointOuts: Outs = {};
  const template = {
    name: "worker-v2",
    imageName: "ghcr.io/acme/worker:1",
    isServerless: true,
    dockerStartCmd: ["python", "handler.py"],
    env: { MODE: "a" },
    __provider: "shim",
  };
  const endpoint = () => ({
    name: "inference",
    templateId,
    gpuTypeIds: ["NVIDIA L4"],
    workersMax: 2,
    flashboot: "PRIORITY_FLASHBOOT",
    __provider: "shim",
  });

  it("creates a template with args from dockerStartCmd and reads it back without drift", async () => {
    const created = await h.providers.template.create(await checked(h.providers.template, template));
    templateId = created.id;
    templateOuts = created.outs as Outs;
    expect(templateOuts["dockerStartCmd"]).toEqual(["python", "handler.py"]);
    const read = await h.providers.template.read!(templateId, templateOuts);
    expect(computeDiff(tableForBackend(templateTable, "v2"), read.props ?? {}, template, { id: templateId }).changes).toBe(false);
  });

  it("category and isServerless change in place on v2 (replacement on v1)", async () => {
    const next = { ...template, category: "CPU" };
    const v2Diff = await h.providers.template.diff!(templateId, templateOuts, next);
    expect(v2Diff.replaces ?? []).toEqual([]);
    expect(v2Diff.changes).toBe(true);
    expect(computeDiff(templateTable, templateOuts, next, { id: templateId }).replaces).toEqual(["category"]);
  });

  it("creates an endpoint with pools from the catalog and a FlashBoot level", async () => {
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, endpoint()));
    endpointId = created.id;
    endpointOuts = created.outs as Outs;
    expect(endpointOuts["endpointId"]).toBe(endpointId);
    expect(endpointOuts["flashboot"]).toBe("PRIORITY_FLASHBOOT");
    expect(endpointOuts["workersMax"]).toBe(2);
    expect(endpointOuts["requestUrls"]).toMatchObject({ run: expect.stringContaining(`/${endpointId}/run`) });
    const live = await h.client.getEndpoint(endpointId);
    expect(live.gpuTypeIds).toEqual(["NVIDIA L4"]);
    const read = await h.providers.endpoint.read!(endpointId, endpointOuts);
    expect(computeDiff(tableForBackend(endpointTable, "v2"), read.props ?? {}, endpoint(), { id: endpointId }).changes).toBe(false);
  });

  it("waits for a new endpoint's minimum workers without reading its releases (a new endpoint has only one)", async () => {
    h.calls.length = 0;
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, { ...endpoint(), name: "warm", workersMin: 1 }));
    expect(h.calls).toContain("endpoints.get");
    expect(h.calls).not.toContain("endpoints.rollout");
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("updates workers and scaling in place", async () => {
    const next = { ...endpoint(), workersMax: 3, scalerType: "REQUEST_COUNT", scalerValue: 2 };
    const updated = await h.providers.endpoint.update!(endpointId, endpointOuts, await checked(h.providers.endpoint, next, endpoint()));
    endpointOuts = updated.outs as Outs;
    const live = await h.client.getEndpoint(endpointId);
    expect([live.workersMax, live.scalerType, live.scalerValue]).toEqual([3, "REQUEST_COUNT", 2]);
  });

  it("a new template revision re-applies the template to the endpoint (v2 copies it at create)", async () => {
    const nextTemplate = { ...template, imageName: "ghcr.io/acme/worker:2" };
    const updated = await h.providers.template.update!(
      templateId,
      templateOuts,
      await checked(h.providers.template, nextTemplate, template),
    );
    expect(updated.outs?.["revision"]).toEqual(expect.any(String));
    expect(updated.outs?.["revision"]).not.toBe(templateOuts["revision"]);
    templateOuts = updated.outs as Outs;
    const before = {
      ...endpoint(),
      workersMax: 3,
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      templateRevision: endpointOuts["templateRevision"] ?? "r0",
    };
    const next = { ...before, templateRevision: templateOuts["revision"] };
    const diff = await h.providers.endpoint.diff!(endpointId, { ...endpointOuts, templateRevision: before.templateRevision }, next);
    expect(diff.changes).toBe(true);
    expect(diff.replaces ?? []).toEqual([]);
    h.calls.length = 0;
    const applied = await h.providers.endpoint.update!(
      endpointId,
      { ...endpointOuts, templateRevision: before.templateRevision },
      await checked(h.providers.endpoint, next, before),
    );
    endpointOuts = applied.outs as Outs;
    expect(h.calls).toContain("endpoints.update");
    expect(h.calls).toContain("endpoints.rollout");
    const live = await h.client.getEndpoint(endpointId, { includeTemplate: true });
    expect(live.template?.imageName).toBe("ghcr.io/acme/worker:2");
  });

  it("a LOAD_BALANCER endpoint is native: no name suffix", async () => {
    const lb = { name: "lb", templateId, type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", scalerValue: 1, __provider: "shim" };
    const created = await h.providers.endpoint.create(await checked(h.providers.endpoint, lb));
    expect(created.outs?.["type"]).toBe("LOAD_BALANCER");
    expect((await h.client.listEndpoints()).find((e) => e.id === created.id)?.name).toBe("lb");
    await h.providers.endpoint.delete!(created.id, created.outs as Outs);
  });

  it("deletes the endpoint (v2 terminates its workers: no scale-to-0 first), then the template", async () => {
    h.calls.length = 0;
    await h.providers.endpoint.delete!(endpointId, endpointOuts);
    expect(h.calls).toEqual(["endpoints.delete"]);
    expect(await h.providers.endpoint.read!(endpointId, endpointOuts)).toEqual({});
    await h.providers.template.delete!(templateId, templateOuts);
    expect(await h.providers.template.read!(templateId, templateOuts)).toEqual({});
  });
});

describe("network volumes and registry credentials on v2", () => {
  it("a HIGH_PERFORMANCE volume grows in place; a new tier replaces it", async () => {
    const args = { name: "models", size: 20, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE", __provider: "shim" };
    const created = await h.providers.networkVolume.create(await checked(h.providers.networkVolume, args));
    expect(created.outs).toMatchObject({ size: 20, dataCenterId: "EU-RO-1", type: "HIGH_PERFORMANCE" });
    const grown = await h.providers.networkVolume.update!(created.id, created.outs as Outs, { ...args, size: 30 });
    expect(grown.outs?.["size"]).toBe(30);
    const diff = await h.providers.networkVolume.diff!(created.id, grown.outs as Outs, { ...args, size: 30, type: "STANDARD" });
    expect(diff.replaces).toEqual(["type"]);
    const small = await h.providers.networkVolume.check!({}, { ...args, size: 5 });
    expect(small.failures?.[0]?.reason).toMatch(/5 is below the minimum 10 GB; use a whole number from 10 to 4096 GB/);
    await h.providers.networkVolume.delete!(created.id, grown.outs as Outs);
  });

  it("registry credentials are created and deleted", async () => {
    const args = { name: "ghcr", username: "bot", password: "s3cret", __provider: "shim" };
    const created = await h.providers.registryAuth.create(await checked(h.providers.registryAuth, args));
    expect(created.outs?.["name"]).toBe("ghcr");
    await h.providers.registryAuth.delete!(created.id, created.outs as Outs);
    expect(await h.providers.registryAuth.read!(created.id, created.outs as Outs)).toEqual({});
  });
});
