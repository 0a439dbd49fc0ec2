import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { podTable } from "../../../model/kinds/pod/podFields";
import { ResourceInitError } from "../../../provider/resources/partialCreate";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

let h: Harness;
beforeAll(async () => {
  // 2 s of boot (service time) at timeScale 0.05 is 100 ms of real time: long enough to be waited for.
  h = await startHarness({ timeScale: 0.05, bootDelayMs: 2_000 });
});
afterAll(() => h.close());

const base = {
  name: "trainer",
  imageName: "pytorch:2.4",
  gpuTypeIds: ["NVIDIA L4"],
  env: { LOG_LEVEL: "info" },
  ports: ["8888/http", "22/tcp"],
  __provider: "shim",
};

describe("pod lifecycle against the emulator", () => {
  let id = "";
  let outs: Record<string, unknown> = {};

  it("create waits until RUNNING with a public IP and a port mapping for each tcp port", async () => {
    const started = Date.now();
    const created = await h.providers.pod.create(await checked(h.providers.pod, base));
    expect(Date.now() - started).toBeGreaterThanOrEqual(80);
    id = created.id;
    outs = created.outs as Record<string, unknown>;
    expect(outs["desiredStatus"]).toBe("RUNNING");
    expect(outs["publicIp"]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(Object.keys(outs["portMappings"] as object).sort()).toEqual(["22", "8888"]);
    expect(outs["costPerHr"]).toBeGreaterThan(0);
    expect(outs["gpuTypeId"]).toBe("NVIDIA L4");
    // v1 does not report the host's CUDA version.
    expect(outs).not.toHaveProperty("cudaVersion");
    expect(outs["dataCenterId"]).toEqual(expect.any(String));
    // Declared env keys only: the platform's PUBLIC_KEY is live but not recorded.
    expect(outs["env"]).toEqual({ LOG_LEVEL: "info" });
    expect((await h.client.getPod(id)).env).toHaveProperty("PUBLIC_KEY");
    expect(h.lines.info.join("\n")).toMatch(/waiting until RUNNING with a public IP and a port mapping for each tcp port/);
  });

  it("read of an unchanged pod gives inputs that diff to nothing", async () => {
    const read = await h.providers.pod.read!(id, outs);
    expect(read.id).toBe(id);
    expect(computeDiff(podTable, read.props, read.inputs ?? {}, { id }).changes).toBe(false);
    expect(computeDiff(podTable, read.props, base, { id }).changes).toBe(false);
  });

  it("update of env keeps the injected PUBLIC_KEY and removes only the dropped declared key", async () => {
    const withTwo = { ...base, env: { LOG_LEVEL: "info", EXTRA: "1" } };
    const first = await h.providers.pod.update!(id, outs, await checked(h.providers.pod, withTwo, base));
    const second = await h.providers.pod.update!(
      id,
      first.outs,
      await checked(h.providers.pod, { ...base, env: { LOG_LEVEL: "debug" } }, withTwo),
    );
    outs = second.outs as Record<string, unknown>;
    const live = await h.client.getPod(id);
    expect(live.env).toMatchObject({ LOG_LEVEL: "debug" });
    expect(live.env).toHaveProperty("PUBLIC_KEY");
    expect(live.env).not.toHaveProperty("EXTRA");
    expect(outs["env"]).toEqual({ LOG_LEVEL: "debug" });
  });

  it("desiredStatus EXITED stops the pod, RUNNING starts it again", async () => {
    const stopped = await h.providers.pod.update!(id, outs, { ...base, env: { LOG_LEVEL: "debug" }, desiredStatus: "EXITED" });
    expect((await h.client.getPod(id)).desiredStatus).toBe("EXITED");
    expect(stopped.outs?.["desiredStatus"]).toBe("EXITED");
    expect(stopped.outs).not.toHaveProperty("publicIp");
    const running = await h.providers.pod.update!(id, stopped.outs, { ...base, env: { LOG_LEVEL: "debug" } });
    expect(running.outs?.["desiredStatus"]).toBe("RUNNING");
    expect(running.outs?.["publicIp"]).toEqual(expect.any(String));
    outs = running.outs as Record<string, unknown>;
  });

  it("refresh sees drift made outside Pulumi, and the next diff proposes to undo it in place", async () => {
    await h.client.updatePod(id, { name: "renamed-in-console" });
    await h.client.stopPod(id);
    const read = await h.providers.pod.read!(id, outs);
    expect(read.props?.["name"]).toBe("renamed-in-console");
    expect(read.props?.["desiredStatus"]).toBe("EXITED");
    const diff = computeDiff(podTable, read.props, { ...base, env: { LOG_LEVEL: "debug" } }, { id });
    expect(diff.changed.map((c) => c.field).sort()).toEqual(["desiredStatus", "name"]);
    expect(diff.replaces).toEqual([]);
    const fixed = await h.providers.pod.update!(id, read.props, { ...base, env: { LOG_LEVEL: "debug" } });
    expect(fixed.outs?.["name"]).toBe("trainer");
    expect((await h.client.getPod(id)).desiredStatus).toBe("RUNNING");
    outs = fixed.outs as Record<string, unknown>;
  });

  it("delete terminates; read then removes it from state; a second delete is fine", async () => {
    await h.providers.pod.delete!(id, outs);
    expect(await h.providers.pod.read!(id, outs)).toEqual({});
    await expect(h.providers.pod.delete!(id, outs)).resolves.toBeUndefined();
  });
});

describe("pod readiness deadline", () => {
  it("a pod that does not boot in time is a partial create: id, outputs and __provider are kept", async () => {
    const slow = await startHarness({ timeScale: 0.05, bootDelayMs: 10_000_000 });
    try {
      const error = await slow.providers.pod.create({ ...base, readyTimeoutSeconds: 0.2 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceInitError);
      const init = error as ResourceInitError;
      expect(init.properties["__provider"]).toBe("shim");
      expect(init.properties["desiredStatus"]).toBe("RUNNING");
      expect(init.reasons[0]).toContain("RUNNING, no public IP yet");
      // The pod exists and is the one recorded: the next run updates it rather than creating another.
      expect((await slow.client.getPod(init.id)).name).toBe("trainer");
      expect(slow.emulator.inspect()[0]?.pods).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe("pod adoption", () => {
  it("adopts an existing pod and applies the declared in-place fields", async () => {
    const existing = await h.client.createPod({ name: "legacy", imageName: "old:1", gpuTypeIds: ["NVIDIA L4"] });
    const adopted = await h.providers.pod.create(
      await checked(h.providers.pod, { name: "legacy", imageName: "new:2", adoptId: existing.id, __provider: "shim" }),
    );
    expect(adopted.id).toBe(existing.id);
    expect((await h.client.getPod(existing.id)).imageName).toBe("new:2");
    expect(adopted.outs?.["adoptId"]).toBe(existing.id);
    expect(h.lines.info.join("\n")).toContain(`adopting the existing pod; updating imageName`);
    expect(h.emulator.inspect()[0]?.pods.filter((p) => p.name === "legacy")).toHaveLength(1);
  });

  it("refuses when a create-only field differs, naming the field, the live value and the declared one", async () => {
    const existing = await h.client.createPod({ name: "two-gpus", imageName: "img", gpuTypeIds: ["NVIDIA L4"], gpuCount: 2 });
    await expect(h.providers.pod.create({ name: "two-gpus", imageName: "img", gpuCount: 1, adoptId: existing.id })).rejects.toThrow(
      /cannot adopt pod "two-gpus" \(id \w+\): gpuCount is 2 on the live resource but 1 is declared/,
    );
  });

  it("refuses a CPU pod of another flavor, vCPU count and data center, naming each field; creates nothing", async () => {
    const existing = await h.client.createPod({
      name: "cpu-live",
      imageName: "img",
      computeType: "CPU",
      cpuFlavorIds: ["cpu5c"],
      vcpuCount: 8,
      dataCenterIds: ["US-TX-3"],
    });
    const before = h.emulator.inspect()[0]?.pods.length;
    const declared = {
      name: "cpu-live",
      imageName: "img",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 4,
      dataCenterIds: ["EU-RO-1"],
      adoptId: existing.id,
    };
    const failure = h.providers.pod.create(await checked(h.providers.pod, declared));
    await expect(failure).rejects.toThrow(/cpuFlavorIds: the live resource has "cpu5c", which is not among the declared \["cpu3c"\]/);
    await expect(failure).rejects.toThrow(/vcpuCount is 8 on the live resource but 4 is declared/);
    await expect(failure).rejects.toThrow(/dataCenterIds: the live resource has "US-TX-3", which is not among the declared \["EU-RO-1"\]/);
    expect(h.emulator.inspect()[0]?.pods.length).toBe(before);
  });

  it("refuses a GPU pod of another GPU type; adopts one whose type and data center are among the declared options", async () => {
    const existing = await h.client.createPod({
      name: "gpu-live",
      imageName: "img",
      gpuTypeIds: ["NVIDIA L4"],
      dataCenterIds: ["EU-RO-1"],
    });
    await expect(
      h.providers.pod.create({ name: "gpu-live", imageName: "img", gpuTypeIds: ["NVIDIA A40"], adoptId: existing.id }),
    ).rejects.toThrow(/gpuTypeIds: the live resource has "NVIDIA L4", which is not among the declared \["NVIDIA A40"\]/);
    const adopted = await h.providers.pod.create(
      await checked(h.providers.pod, {
        name: "gpu-live",
        imageName: "img",
        gpuTypeIds: ["NVIDIA A40", "NVIDIA L4"],
        dataCenterIds: ["US-TX-3", "EU-RO-1"],
        adoptId: existing.id,
        __provider: "shim",
      }),
    );
    expect(adopted.id).toBe(existing.id);
  });

  it("refuses an id that does not exist", async () => {
    await expect(h.providers.pod.create({ name: "x", imageName: "img", adoptId: "doesnotexist" })).rejects.toThrow(
      /no pod with this id exists/,
    );
  });
});
