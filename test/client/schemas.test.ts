import { describe, expect, expectTypeOf, it } from "vitest";
import {
  BillingRecordListSchema,
  ContainerRegistryAuthSchema,
  EndpointSchema,
  NetworkVolumeBillingRecordSchema,
  NetworkVolumeSchema,
  PodListSchema,
  PodSchema,
  TemplateSchema,
  type Pod,
} from "../../client/schemas";
import { HealthRecordSchema, JobRecordSchema, JobStreamRecordSchema, PurgeRecordSchema } from "../../client/jobRecords";

describe("Pod schema tolerance", () => {
  it("reads the documented shape", () => {
    const pod = PodSchema.parse({
      id: "xedezhzb9la3ye",
      name: "p",
      imageName: "img:1",
      desiredStatus: "RUNNING",
      costPerHr: 0.74,
      portMappings: { "22": 10341 },
      publicIp: "100.65.0.119",
      ports: ["8888/http", "22/tcp"],
      env: { A: "1" },
    });
    expect(pod).toMatchObject({ id: "xedezhzb9la3ye", imageName: "img:1", costPerHr: 0.74, portMappings: { "22": 10341 } });
  });

  it("accepts costPerHr (and other numbers) as strings", () => {
    const pod = PodSchema.parse({ id: "a", costPerHr: "0.74", adjustedCostPerHr: "0.69", memoryInGb: "62", volumeInGb: " 20 " });
    expect(pod.costPerHr).toBe(0.74);
    expect(pod.adjustedCostPerHr).toBe(0.69);
    expect(pod.memoryInGb).toBe(62);
    expect(pod.volumeInGb).toBe(20);
  });

  it("normalises image to imageName (and prefers imageName when both exist)", () => {
    const fromImage = PodSchema.parse({ id: "a", image: "repo/img:2" });
    expect(fromImage.imageName).toBe("repo/img:2");
    expect("image" in fromImage).toBe(false);
    expect(PodSchema.parse({ id: "a", image: "old", imageName: "new" }).imageName).toBe("new");
  });

  it("reads null as absent (publicIp, portMappings, containerDiskInGb)", () => {
    const pod = PodSchema.parse({ id: "a", publicIp: null, portMappings: null, containerDiskInGb: null, desiredStatus: "RUNNING" });
    expect(pod.publicIp).toBeUndefined();
    expect(pod.portMappings).toBeUndefined();
    expect(pod.containerDiskInGb).toBeUndefined();
    expect("publicIp" in pod).toBe(false);
  });

  it("accepts a comma string for ports, and unknown statuses", () => {
    const pod = PodSchema.parse({ id: "a", ports: "8888/http,22/tcp", desiredStatus: "MIGRATING" });
    expect(pod.ports).toEqual(["8888/http", "22/tcp"]);
    expect(pod.desiredStatus).toBe("MIGRATING");
  });

  it("keeps unknown fields (passthrough) and tolerates env in list form", () => {
    const pod = PodSchema.parse({
      id: "a",
      someNewField: { x: 1 },
      env: [
        { key: "K", value: "v" },
        { key: "N", value: 3 },
      ],
    });
    expect(pod["someNewField"]).toEqual({ x: 1 });
    expect(pod.env).toEqual({ K: "v", N: "3" });
  });

  it("still rejects what cannot be read: missing id, wrong types", () => {
    expect(PodSchema.safeParse({ name: "x" }).success).toBe(false);
    expect(PodSchema.safeParse({ id: "a", costPerHr: "cheap" }).success).toBe(false);
    expect(PodSchema.safeParse({ id: "a", locked: 3 }).success).toBe(false);
    expect(PodSchema.safeParse("a").success).toBe(false);
  });

  it("lists: null reads as []", () => {
    expect(PodListSchema.parse(null)).toEqual([]);
    expect(PodListSchema.parse([{ id: "a" }])).toHaveLength(1);
  });

  it("types: Pod has typed known fields", () => {
    expectTypeOf<Pod["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Pod["costPerHr"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Pod["ports"]>().toEqualTypeOf<string[] | undefined>();
  });
});

describe("Endpoint schema tolerance", () => {
  it("splits a comma-separated dataCenterIds and other list fields", () => {
    const ep = EndpointSchema.parse({
      id: "e",
      dataCenterIds: "EU-RO-1,US-TX-3",
      gpuTypeIds: "NVIDIA A40, NVIDIA L4",
      networkVolumeIds: "",
      workersMax: "3",
    });
    expect(ep.dataCenterIds).toEqual(["EU-RO-1", "US-TX-3"]);
    expect(ep.gpuTypeIds).toEqual(["NVIDIA A40", "NVIDIA L4"]);
    expect(ep.networkVolumeIds).toEqual([]);
    expect(ep.workersMax).toBe(3);
  });

  it("reads an embedded template and workers (themselves tolerant)", () => {
    const ep = EndpointSchema.parse({
      id: "e",
      template: { id: "t", name: "tpl", image: "img", ports: "8000/http", env: { PORT: "8000" } },
      workers: [{ id: "w1", costPerHr: "0.2", publicIp: null }],
      networkVolumeId: null,
    });
    expect(ep.template?.imageName).toBe("img");
    expect(ep.template?.ports).toEqual(["8000/http"]);
    expect(ep.workers?.[0]?.costPerHr).toBe(0.2);
    expect(ep.networkVolumeId).toBeUndefined();
  });
});

describe("other schemas", () => {
  it("Template, NetworkVolume, RegistryAuth, billing", () => {
    expect(TemplateSchema.parse({ id: "t", isServerless: "true", volumeInGb: "0" })).toMatchObject({ isServerless: true, volumeInGb: 0 });
    expect(NetworkVolumeSchema.parse({ id: "v", size: "50", dataCenterId: "EU-RO-1", name: "n" }).size).toBe(50);
    expect(ContainerRegistryAuthSchema.parse({ id: "c", name: "creds" })).toEqual({ id: "c", name: "creds" });
    expect(BillingRecordListSchema.parse([{ amount: "100.5", time: "2023-01-01T00:00:00Z", timeBilledMs: 3600000, podId: null }])).toEqual([
      { amount: 100.5, time: "2023-01-01T00:00:00Z", timeBilledMs: 3600000 },
    ]);
    expect(NetworkVolumeBillingRecordSchema.parse({ amount: 1, highPerformanceStorageAmount: "2.5" }).highPerformanceStorageAmount).toBe(
      2.5,
    );
  });

  it("job API records", () => {
    expect(JobRecordSchema.parse({ id: "j", status: "FAILED", error: { type: "ValueError" }, delayTime: "12" })).toMatchObject({
      error: '{"type":"ValueError"}',
      delayTime: 12,
    });
    expect(JobStreamRecordSchema.parse({ status: "IN_PROGRESS" }).stream).toEqual([]);
    expect(JobStreamRecordSchema.parse({ status: "COMPLETED", stream: [{ output: "a" }] }).stream).toEqual([{ output: "a" }]);
    expect(HealthRecordSchema.parse({ jobs: { completed: 1 }, workers: {} })).toEqual({
      jobs: { completed: 1, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 },
    });
    expect(PurgeRecordSchema.parse({ removed: 2, status: "completed" })).toEqual({ removed: 2, status: "completed" });
  });
});
