import { describe, expect, it } from "vitest";
import { podProvider } from "../../../provider/resources/registry";
import { ResourceInitError } from "../../../provider/resources/partialCreate";
import { FakePods } from "./fakeService";
import { recordingDeps } from "../../support/recordingDeps";

const inputs = { name: "trainer", imageName: "img:1", ports: ["22/tcp"], __provider: "shim-text" };

function setup() {
  const service = new FakePods();
  const deps = recordingDeps(service.api());
  return { service, deps, provider: podProvider(deps) };
}

describe("ambiguous pod creates never make a duplicate", () => {
  it("answer lost after the service created the pod: the lookup finds it and it is used", async () => {
    const { service, deps, provider } = setup();
    service.faults = ["lost-after-create"];
    const result = await provider.create(inputs);
    expect(service.pods.size).toBe(1);
    expect(result.id).toBe([...service.pods.keys()][0]);
    expect(service.calls.filter((c) => c === "createPod")).toHaveLength(1);
    expect(deps.lines.info.join("\n")).toContain(`pod "trainer": the service did make it (id ${result.id}): using it`);
  });

  it("5xx before anything was created: nothing appears, and the create is recorded as pending, never sent twice", async () => {
    const { service, provider } = setup();
    service.faults = ["5xx-before-create"];
    const error = await provider.create(inputs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceInitError);
    expect((error as ResourceInitError).id).toMatch(/^pending-create-pod-/);
    expect(service.pods.size).toBe(0);
    expect(service.calls.filter((c) => c === "createPod")).toHaveLength(1);
  });

  it("an existing pod with the same name is not mistaken for ours", async () => {
    const { service, provider } = setup();
    await provider.create(inputs);
    service.faults = ["lost-after-create"];
    const second = await provider.create(inputs);
    expect(service.pods.size).toBe(2);
    expect(second.id).toBe("pod2");
  });

  it("two look-alikes appearing at once: refuses to guess", async () => {
    const { service, provider } = setup();
    const api = service.api();
    // A concurrent program creates a pod with the same name while our answer is lost.
    service.faults = ["lost-after-create"];
    const originalList = api.pods?.list;
    let lists = 0;
    const deps = recordingDeps({
      pods: {
        ...api.pods,
        list: async (filter) => {
          if (++lists === 2) await api.pods?.create?.({ name: "trainer", imageName: "img:1" });
          return originalList!(filter);
        },
      },
    });
    await expect(podProvider(deps).create(inputs)).rejects.toThrow(
      /pod "trainer": 2 pods have appeared since the create was sent \(pod1, pod2\); cannot tell which one is this resource, so nothing was created/,
    );
    expect(service.calls.filter((c) => c === "createPod")).toHaveLength(2);
    void provider;
  });
});

describe("partial create", () => {
  it("readiness timeout: throws the id, the outputs with __provider, and a reason", async () => {
    const { service, provider } = setup();
    service.readsUntilReady = 1_000;
    const error = await provider.create({ ...inputs, readyTimeoutSeconds: 0.05 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceInitError);
    const init = error as ResourceInitError;
    expect(init.id).toBe("pod1");
    expect(init.properties["__provider"]).toBe("shim-text");
    expect(init.properties["name"]).toBe("trainer");
    expect(init.properties["desiredStatus"]).toBe("RUNNING");
    expect(init.reasons[0]).toMatch(
      /pod "trainer" \(id pod1\).*not RUNNING with a public IP and a port mapping for each tcp port after .*readyTimeoutSeconds: 0.05.*no public IP yet/,
    );
    expect(service.pods.has("pod1")).toBe(true);
  });
});

describe("pod state, triggers and locks", () => {
  it("desiredStatus EXITED stops after create; a later RUNNING starts it", async () => {
    const { service, provider } = setup();
    const created = await provider.create({ ...inputs, desiredStatus: "EXITED" });
    expect(service.pods.get(created.id)?.desiredStatus).toBe("EXITED");
    expect(created.outs?.["desiredStatus"]).toBe("EXITED");
    const updated = await provider.update!(created.id, created.outs, { ...inputs, desiredStatus: "RUNNING" });
    expect(service.calls).toContain("startPod");
    expect(updated.outs?.["desiredStatus"]).toBe("RUNNING");
  });

  it("restartTrigger restarts, resetTrigger resets (reset wins when both change)", async () => {
    const { service, provider } = setup();
    const created = await provider.create(inputs);
    await provider.update!(created.id, created.outs, { ...inputs, restartTrigger: "1" });
    expect(service.calls).toContain("restartPod");
    service.calls.length = 0;
    await provider.update!(created.id, { ...created.outs, restartTrigger: "1" }, { ...inputs, restartTrigger: "2", resetTrigger: "a" });
    expect(service.calls).toContain("resetPod");
    expect(service.calls).not.toContain("restartPod");
  });

  it("env update sends the live map with injected keys kept and removed declared keys dropped", async () => {
    const { service, provider } = setup();
    const created = await provider.create({ ...inputs, env: { A: "1", B: "2" } });
    await provider.update!(created.id, created.outs, { ...inputs, env: { A: "10" } });
    const patch = service.calls.find((c) => c.startsWith("updatePod"));
    expect(patch).toBe(`updatePod ${JSON.stringify({ env: { A: "10", PUBLIC_KEY: "ssh-ed25519 AAA" } })}`);
  });

  it("a locked pod asked to stop is unlocked, stopped and locked again", async () => {
    const { service, provider } = setup();
    const created = await provider.create({ ...inputs, locked: true });
    await provider.update!(created.id, created.outs, { ...inputs, locked: true, desiredStatus: "EXITED" });
    const sequence = service.calls.filter((c) => c.startsWith("updatePod") || c === "stopPod");
    expect(sequence).toEqual([`updatePod {"locked":false}`, "stopPod", `updatePod {"locked":true}`]);
    expect(service.pods.get(created.id)?.locked).toBe(true);
  });

  it("delete of a pod already gone succeeds", async () => {
    const { provider } = setup();
    await expect(provider.delete!("nope", {})).resolves.toBeUndefined();
  });

  it("read of a pod that no longer exists removes it from state", async () => {
    const { provider } = setup();
    await expect(provider.read!("nope", { name: "x" })).resolves.toEqual({});
  });
});
