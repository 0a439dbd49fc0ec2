// The v2 column of the field tables: paths and converters both ways, the table each backend sees,
// and what check refuses on each backend (field, value, fix).
import { describe, expect, it } from "vitest";
import { backendFailures, tableForBackend } from "../../../model/fields/fieldTable";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { networkVolumeTable } from "../../../model/kinds/networkVolume/networkVolumeFields";
import { podTable } from "../../../model/kinds/pod/podFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { fromWireV2, getPath, setPath, toWireV2 } from "../../../model/fields/wireV2";
import { endpointSpec } from "../../../provider/resources/endpoint";
import { resourceProvider } from "../../../provider/resources/lifecycle";
import { podPendingState } from "../../../model/kinds/pod/podReadiness";
import { waitForPod } from "../../../provider/resources/podReadiness";
import { recordingDeps } from "../../support/recordingDeps";

describe("paths", () => {
  it("set and get nested objects and list items", () => {
    const body: Record<string, unknown> = {};
    setPath(body, "gpu.count", 2);
    setPath(body, "mounts.network.0.volumeId", "v1");
    expect(body).toEqual({ gpu: { count: 2 }, mounts: { network: [{ volumeId: "v1" }] } });
    expect(getPath(body, "mounts.network.0.volumeId")).toBe("v1");
    expect(getPath(body, "gpu.id")).toBeUndefined();
    expect(getPath({ a: null }, "a.b")).toBeUndefined();
  });
});

describe("pod fields on the v2 wire", () => {
  const flat = {
    name: "trainer",
    imageName: "img:1",
    gpuTypeIds: ["NVIDIA L4"],
    gpuCount: 2,
    containerDiskInGb: 40,
    volumeInGb: 20,
    volumeMountPath: "/data",
    dockerEntrypoint: ["bash", "-c"],
    dockerStartCmd: ["python train.py --name 'a b'"],
    containerRegistryAuthId: "r1",
    cloudType: "SECURE",
    env: { A: "1" },
  };

  it("map to v2's nested create body", () => {
    expect(toWireV2(podTable, flat)).toEqual({
      name: "trainer",
      image: "img:1",
      gpu: { id: "NVIDIA L4", count: 2 },
      disk: 40,
      mounts: { persistent: { size: 20, path: "/data" } },
      // Exec form element for element: never joined into `args` (an element may hold blanks).
      entrypoint: ["bash", "-c"],
      cmd: ["python train.py --name 'a b'"],
      registry: "r1",
      cloud: "SECURE",
      env: { A: "1" },
    });
  });

  it("read back from a v2 pod under the provider's names, addresses from runtime.ports", () => {
    const wire = {
      id: "p1",
      name: "trainer",
      status: "STARTING",
      image: "img:1",
      args: JSON.stringify({ entrypoint: ["bash", "-c"], cmd: ["python train.py"] }),
      entrypoint: ["bash", "-c"],
      cmd: ["python train.py"],
      disk: 40,
      mounts: { persistent: { size: 20, path: "/data" } },
      gpu: { id: "NVIDIA L4", count: 2 },
      cost: 1.38,
      globalNetworking: { enabled: true },
      // The http port reports the shared proxy's address: never the pod's publicIp.
      runtime: {
        ports: [
          { private: 8888, public: null, type: "http", ip: "100.64.0.1" },
          { private: 22, public: 10022, type: "tcp", ip: "1.2.3.4" },
        ],
      },
      template: null,
    };
    expect(fromWireV2(podTable, wire)).toMatchObject({
      id: "p1",
      imageName: "img:1",
      dockerEntrypoint: ["bash", "-c"],
      dockerStartCmd: ["python train.py"],
      volumeInGb: 20,
      volumeMountPath: "/data",
      gpuTypeIds: ["NVIDIA L4"],
      gpuTypeId: "NVIDIA L4",
      computeType: "GPU",
      desiredStatus: "RUNNING",
      costPerHr: 1.38,
      globalNetworking: true,
      publicIp: "1.2.3.4",
      portMappings: { "22": 10022 },
    });
    expect(fromWireV2(podTable, { id: "p2", status: "EXITED", cpu: { id: "cpu3c", vcpuCount: 4, memory: 8 } })).toMatchObject({
      desiredStatus: "EXITED",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      memoryInGb: 8,
    });
  });

  it("v2 observes mapped fields by name; create-only fields stay create-only", () => {
    const v2 = tableForBackend(podTable, "v2");
    expect(v2.fields["imageName"]?.observe?.({ id: "p", imageName: "x" } as never)).toBe("x");
    expect(v2.fields["gpuTypeIds"]?.kind).toBe("replace");
    expect(tableForBackend(podTable, "v1")).toBe(tableForBackend(podTable, "v1"));
  });
});

describe("endpoint fields on the v2 wire", () => {
  it("map workers, timeout, scaling and FlashBoot levels", () => {
    const body = toWireV2(endpointTable, {
      name: "e",
      workersMin: 1,
      workersMax: 3,
      idleTimeout: 30,
      executionTimeoutMs: 60_000,
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      flashboot: true,
      type: "LOAD_BALANCER",
    });
    expect(body).toEqual({
      name: "e",
      workers: { min: 1, max: 3, idleTimeout: 30 },
      timeout: 60_000,
      scaling: { type: "REQUEST_COUNT", value: 2 },
      flashboot: "FLASHBOOT",
      type: "LOAD_BALANCER",
    });
    const read = fromWireV2(endpointTable, {
      id: "e1",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      flashboot: "PRIORITY_FLASHBOOT",
      cpu: [{ id: "cpu3c", vcpuCount: 4 }],
      networkVolumes: ["v1", "v2"],
    });
    expect(read).toMatchObject({
      endpointId: "e1",
      scalerValue: 4,
      flashboot: "PRIORITY_FLASHBOOT",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
      vcpuCount: 4,
      networkVolumeId: "v1",
      networkVolumeIds: ["v1", "v2"],
    });
  });

  it("v2's defaults where they differ: idleTimeout 10, timeout 300000", () => {
    const v2 = tableForBackend(endpointTable, "v2");
    expect([v2.fields["idleTimeout"]?.default, v2.fields["executionTimeoutMs"]?.default]).toEqual([10, 300_000]);
    expect(endpointTable.fields["idleTimeout"]?.default).toBe(5);
  });
});

describe("what each backend refuses at check", () => {
  it("v1: load-balancing endpoints, FlashBoot levels and volume tiers", () => {
    expect(backendFailures(endpointTable, { type: "LOAD_BALANCER", flashboot: "PRIORITY_FLASHBOOT" }, "v1")).toEqual([
      {
        property: "flashboot",
        reason: expect.stringMatching(
          /^flashboot: "PRIORITY_FLASHBOOT" cannot be used with the v1 API \(apiUrl ends in \/v1\): FlashBoot levels need the v2 API/,
        ),
      },
      {
        property: "type",
        reason: expect.stringMatching(
          /^type: "LOAD_BALANCER" cannot be used with the v1 API .*: load-balancing endpoints need the service's v2 API: set gpucloud:apiUrl/,
        ),
      },
    ]);
    expect(backendFailures(endpointTable, { type: "QUEUE", flashboot: true }, "v1")).toEqual([]);
    expect(backendFailures(networkVolumeTable, { type: "HIGH_PERFORMANCE" }, "v1")[0]?.reason).toMatch(
      /storage tiers need the service's v2 API/,
    );
    expect(backendFailures(networkVolumeTable, { type: "STANDARD" }, "v1")).toEqual([]);
  });

  it("v2: a template's readme (entrypoint travels as entrypoint[]); the defaults pass", () => {
    expect(backendFailures(templateTable, { readme: "# hi", dockerEntrypoint: ["bash"] }, "v2").map((f) => f.property)).toEqual(["readme"]);
    expect(backendFailures(templateTable, { readme: "", dockerEntrypoint: [] }, "v2")).toEqual([]);
  });

  it("v2-only settings are never sent on v1", () => {
    const v1 = tableForBackend(networkVolumeTable, "v1");
    expect(v1.fields["type"]?.local).toBe(true);
    expect(networkVolumeTable.fields["type"]?.local).toBeUndefined();
  });

  it("a sensitive field's value is never shown", () => {
    const table = { noun: "x", fields: { password: { kind: "replace" as const, sensitive: true, v2: { unsupported: "remove it" } } } };
    expect(backendFailures(table, { password: "hunter2" }, "v2")[0]?.reason).not.toContain("hunter2");
  });
});

describe("check on each backend", () => {
  const on = (backend: "v1" | "v2") => resourceProvider(endpointSpec, recordingDeps({}, { backend: () => backend }));

  it("an invalid value gets its own message only, not the backend's as well", async () => {
    const result = await on("v1").check!({}, { templateId: "t", flashboot: "yes" });
    expect(result.failures).toEqual([{ property: "flashboot", reason: expect.stringContaining('expected true or false, got "yes"') }]);
  });

  it("the same arguments pass on v2 and fail on v1 for what only v2 has", async () => {
    const args = { templateId: "t", type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", flashboot: "PRIORITY_FLASHBOOT" };
    expect((await on("v2").check!({}, args)).failures).toEqual([]);
    expect((await on("v1").check!({}, args)).failures?.map((f) => f.property)).toEqual(["flashboot", "type"]);
  });
});

describe("pod readiness from v2's status", () => {
  const pod = (status: string, extra: Record<string, unknown> = {}) =>
    ({ id: "p1", desiredStatus: status === "EXITED" ? "EXITED" : "RUNNING", status, ...extra }) as never;

  it("waits through PROVISIONING and STARTING, naming the state", () => {
    expect(podPendingState({} as never, pod("PROVISIONING"))).toBe("status PROVISIONING");
    expect(podPendingState({ ports: ["22/tcp"] } as never, pod("RUNNING"))).toBe("RUNNING, no public IP yet");
    expect(podPendingState({} as never, pod("RUNNING", { ports: [] }))).toBeUndefined();
  });

  it("fails at once when the service reports ERROR, with the pod's state", async () => {
    const deps = recordingDeps({ pods: { get: async () => pod("ERROR") } });
    await expect(waitForPod(deps, "p1", 'pod "a" (id p1)', {} as never, 60)).rejects.toThrow(/status ERROR/);
  });
});
