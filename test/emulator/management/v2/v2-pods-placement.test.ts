/**
 * A v2 pod create that cannot be placed: a 400 naming the family (the reference lists no 409 for
 * createPod, management-api-v2-today.md 5.2) whose text names the fields of the v2 body (`gpu.id`,
 * `gpu.count`, `cpu.id`, `cpu.vcpuCount`, `dataCenterIds`), while /v1 keeps its own (`gpuTypeIds`,
 * `gpuCount`) and its 409. CreateGpuConfig.allowedCudaVersions (management-api-v2-schemas.txt):
 * "Matching is exact, so a version no machine reports yields a capacity error rather than a
 * fallback": the same error, for a set or a floor no machine reports.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: { perMinute: 100_000 } });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

const CAPACITY = /^invalid gpu: no instances available for gpu\.id x gpu\.count 1 in dataCenterIds \[/;

describe("a v2 pod create that cannot be placed", () => {
  it("names the v2 body's fields; /v1 keeps its own words and its 409", async () => {
    const gpu = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA B200" } }), 400);
    expect(gpu.detail).toMatch(CAPACITY);
    expect(gpu.detail).toContain("Choose another GPU type or data center");
    expect(gpu.detail).not.toMatch(/gpuTypeIds|gpuCount/);

    const cpu = expectProblem(await v2.post("/pods", { name: "big-cpu", image: "i", cpu: { id: "cpu3c", vcpuCount: 1024 } }), 400);
    expect(cpu.detail).toMatch(/^invalid cpu: no instances available for cpu\.id x cpu\.vcpuCount 1024 in dataCenterIds \[/);
    expect(cpu.detail).not.toContain("cpuFlavorIds");

    const v1 = await api(emu).post("/pods", { ...GPU_POD, gpuTypeIds: ["NVIDIA B200"] });
    expect(v1.status).toBe(409);
    expect(v1.body.error).toMatch(/no instances available for gpuTypeIds x gpuCount 1 in dataCenterIds \[/);
    expect(v1.body.error).toContain("Add another GPU type or data center");
  });
});

describe("CUDA versions no machine reports", () => {
  it("a set of none is the capacity error, not a placement anywhere", async () => {
    const problem = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", allowedCudaVersions: ["99.9"] } }), 400);
    expect(problem.detail).toMatch(CAPACITY);
    expect(problem.detail).toContain("no machine reports a CUDA version the pod allows (99.9");
  });

  it("a floor above every version is the same error", async () => {
    const problem = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", minCudaVersion: "99.0" } }), 400);
    expect(problem.detail).toMatch(CAPACITY);
  });

  it("a template's set of none is the same error for a GPU pod, and ignored by a CPU pod", async () => {
    const template = (await v2.post("/templates", { name: "future-cuda", image: "tpl/cuda:1", allowedCudaVersions: ["99.9"] })).body;
    expect(template.allowedCudaVersions).toEqual(["99.9"]);
    expect(expectProblem(await v2.post("/pods", { name: "t", templateId: template.id, gpu: { id: "NVIDIA A40" } }), 400).detail).toMatch(
      CAPACITY,
    );
    // Template.allowedCudaVersions: "CPU pods ignore it".
    expect((await v2.post("/pods", { name: "t-cpu", templateId: template.id, cpu: { id: "cpu3c", vcpuCount: 2 } })).status).toBe(201);
  });

  it("a set with a version machines report is placed, and the pod reports that version", async () => {
    const pod = await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", allowedCudaVersions: ["99.9", "12.4"] } });
    expect(pod.status).toBe(201);
    expect(pod.body.cudaVersion).toBe("12.4");
    const floor = await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", minCudaVersion: "12.9" } });
    expect(floor.status).toBe(201);
  });
});
