import { describe, expect, it } from "vitest";
import { computeDiff, changedEnvKeys } from "../../../provider/resources/diffEngine";
import { podTable } from "../../../model/kinds/pod/podFields";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { networkVolumeTable } from "../../../model/kinds/networkVolume/networkVolumeFields";
import { registryAuthTable } from "../../../model/kinds/registryAuth/registryAuthFields";
import type { ResourceTable } from "../../../model/fields/fieldTable";
import { UNKNOWN } from "../../../model/fields/values";

type Row = [
  label: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  expected: { changes: boolean; replaces?: string[]; dbr?: boolean },
];

function table(policy: ResourceTable<never>, rows: Row[], id = "res-1"): void {
  it.each(rows)("%s", (_label, olds, news, expected) => {
    const out = computeDiff(policy, olds, news, { id });
    expect(out.changes).toBe(expected.changes);
    expect([...out.replaces].sort()).toEqual([...(expected.replaces ?? [])].sort());
    expect(out.deleteBeforeReplace).toBe(expected.dbr ?? false);
  });
}

const pod = { name: "p", imageName: "img:1", gpuCount: 1, env: { A: "1" }, ports: ["8888/http", "22/tcp"] };

describe("pod policy: PATCH fields in place, everything else replaces", () => {
  table(podTable as ResourceTable<never>, [
    ["identical inputs", pod, pod, { changes: false }],
    ["name in place", pod, { ...pod, name: "q" }, { changes: true }],
    ["imageName in place", pod, { ...pod, imageName: "img:2" }, { changes: true }],
    ["containerDiskInGb in place", pod, { ...pod, containerDiskInGb: 80 }, { changes: true }],
    ["volumeInGb in place", pod, { ...pod, volumeInGb: 40 }, { changes: true }],
    ["volumeMountPath in place", pod, { ...pod, volumeMountPath: "/data" }, { changes: true }],
    ["dockerEntrypoint in place", pod, { ...pod, dockerEntrypoint: ["bash"] }, { changes: true }],
    ["dockerStartCmd in place", pod, { ...pod, dockerStartCmd: ["sleep", "1"] }, { changes: true }],
    ["containerRegistryAuthId in place", pod, { ...pod, containerRegistryAuthId: "cra" }, { changes: true }],
    ["globalNetworking in place", pod, { ...pod, globalNetworking: true }, { changes: true }],
    ["locked in place", pod, { ...pod, locked: true }, { changes: true }],
    ["ports in another order: no change", pod, { ...pod, ports: ["22/tcp", "8888/http"] }, { changes: false }],
    ["ports changed in place", pod, { ...pod, ports: ["22/tcp"] }, { changes: true }],
    ["gpuCount replaces", pod, { ...pod, gpuCount: 2 }, { changes: true, replaces: ["gpuCount"] }],
    ["computeType replaces", pod, { ...pod, computeType: "CPU" }, { changes: true, replaces: ["computeType"] }],
    ["cloudType declared as its default: no change", pod, { ...pod, cloudType: "SECURE" }, { changes: false }],
    ["cloudType COMMUNITY replaces", pod, { ...pod, cloudType: "COMMUNITY" }, { changes: true, replaces: ["cloudType"] }],
    [
      "gpuTypeIds replaces",
      { ...pod, gpuTypeIds: ["NVIDIA L4"] },
      { ...pod, gpuTypeIds: ["NVIDIA A40"] },
      { changes: true, replaces: ["gpuTypeIds"] },
    ],
    ["gpuTypeIds removed replaces", { ...pod, gpuTypeIds: ["NVIDIA L4"] }, pod, { changes: true, replaces: ["gpuTypeIds"] }],
    ["interruptible replaces", pod, { ...pod, interruptible: true }, { changes: true, replaces: ["interruptible"] }],
    ["networkVolumeId replaces", pod, { ...pod, networkVolumeId: "nv" }, { changes: true, replaces: ["networkVolumeId"] }],
    ["templateId replaces", pod, { ...pod, templateId: "t" }, { changes: true, replaces: ["templateId"] }],
    ["dataCenterIds replaces", pod, { ...pod, dataCenterIds: ["EU-RO-1"] }, { changes: true, replaces: ["dataCenterIds"] }],
    ["countryCodes replaces", pod, { ...pod, countryCodes: ["US"] }, { changes: true, replaces: ["countryCodes"] }],
    ["allowedCudaVersions replaces", pod, { ...pod, allowedCudaVersions: ["12.4"] }, { changes: true, replaces: ["allowedCudaVersions"] }],
    ["cpuFlavorIds replaces", pod, { ...pod, cpuFlavorIds: ["cpu3c"] }, { changes: true, replaces: ["cpuFlavorIds"] }],
    ["vcpuCount replaces", pod, { ...pod, vcpuCount: 8 }, { changes: true, replaces: ["vcpuCount"] }],
    ["supportPublicIp replaces", pod, { ...pod, supportPublicIp: true }, { changes: true, replaces: ["supportPublicIp"] }],
    ["minRAMPerGPU replaces", pod, { ...pod, minRAMPerGPU: 16 }, { changes: true, replaces: ["minRAMPerGPU"] }],
    ["minVCPUPerGPU default: no change", pod, { ...pod, minVCPUPerGPU: 2 }, { changes: false }],
    ["minDownloadMbps replaces", pod, { ...pod, minDownloadMbps: 100 }, { changes: true, replaces: ["minDownloadMbps"] }],
    ["gpuTypePriority replaces", pod, { ...pod, gpuTypePriority: "custom" }, { changes: true, replaces: ["gpuTypePriority"] }],
    ["env value changed in place", pod, { ...pod, env: { A: "2" } }, { changes: true }],
    ["env key added in place", pod, { ...pod, env: { A: "1", B: "2" } }, { changes: true }],
    ["env key removed in place", pod, { ...pod, env: {} }, { changes: true }],
    ["readyTimeoutSeconds ignored", pod, { ...pod, readyTimeoutSeconds: 5 }, { changes: false }],
    ["restartTrigger set: update", pod, { ...pod, restartTrigger: "1" }, { changes: true }],
    ["restartTrigger same: no change", { ...pod, restartTrigger: "1" }, { ...pod, restartTrigger: "1" }, { changes: false }],
    ["restartTrigger removed: no change", { ...pod, restartTrigger: "1" }, pod, { changes: false }],
    ["resetTrigger changed: update", { ...pod, resetTrigger: "a" }, { ...pod, resetTrigger: "b" }, { changes: true }],
    [
      "desiredStatus EXITED requested: update",
      { ...pod, desiredStatus: "RUNNING" },
      { ...pod, desiredStatus: "EXITED" },
      { changes: true },
    ],
    ["live EXITED, default RUNNING: update (start)", { ...pod, desiredStatus: "EXITED" }, pod, { changes: true }],
    ["live RUNNING, undeclared: no change", { ...pod, desiredStatus: "RUNNING" }, pod, { changes: false }],
    ["adoptId removed after adoption: no change", { ...pod, adoptId: "res-1" }, pod, { changes: false }],
    ["adoptId set to own id: no change", pod, { ...pod, adoptId: "res-1" }, { changes: false }],
    [
      "adoptId set to another id: replace",
      { ...pod, adoptId: "res-1" },
      { ...pod, adoptId: "res-2" },
      { changes: true, replaces: ["adoptId"] },
    ],
    ["server-managed outputs never compared", { ...pod, publicIp: "1.2.3.4", costPerHr: 0.4 }, pod, { changes: false }],
    ["unknown imageName: update, not replace", pod, { ...pod, imageName: UNKNOWN }, { changes: true }],
    ["unknown gpuCount: replace", pod, { ...pod, gpuCount: UNKNOWN }, { changes: true, replaces: ["gpuCount"] }],
    ["unknown env value: update", pod, { ...pod, env: { A: UNKNOWN } }, { changes: true }],
    [
      "unknown list element of a replace field: replace",
      { ...pod, gpuTypeIds: ["NVIDIA L4"] },
      { ...pod, gpuTypeIds: [UNKNOWN] },
      { changes: true, replaces: ["gpuTypeIds"] },
    ],
    ["unknown argument name: replace (never a silent no-op)", pod, { ...pod, mystery: 1 }, { changes: true, replaces: ["mystery"] }],
  ]);
});

const endpoint = { templateId: "t1", name: "e", workersMin: 0, workersMax: 3 };

describe("endpoint policy: everything in place except computeType", () => {
  table(endpointTable as ResourceTable<never>, [
    ["identical", endpoint, endpoint, { changes: false }],
    ["templateId in place (rolling release)", endpoint, { ...endpoint, templateId: "t2" }, { changes: true }],
    ["workersMax in place", endpoint, { ...endpoint, workersMax: 5 }, { changes: true }],
    ["workersMin in place", endpoint, { ...endpoint, workersMin: 1 }, { changes: true }],
    ["gpuTypeIds in place", endpoint, { ...endpoint, gpuTypeIds: ["NVIDIA L4"] }, { changes: true }],
    ["gpuCount in place", endpoint, { ...endpoint, gpuCount: 2 }, { changes: true }],
    ["dataCenterIds in place", endpoint, { ...endpoint, dataCenterIds: ["EU-RO-1"] }, { changes: true }],
    ["networkVolumeId in place", endpoint, { ...endpoint, networkVolumeId: "nv" }, { changes: true }],
    ["idleTimeout default declared: no change", endpoint, { ...endpoint, idleTimeout: 5 }, { changes: false }],
    ["idleTimeout in place", endpoint, { ...endpoint, idleTimeout: 60 }, { changes: true }],
    ["scalerType in place", endpoint, { ...endpoint, scalerType: "REQUEST_COUNT" }, { changes: true }],
    ["flashboot in place", endpoint, { ...endpoint, flashboot: false }, { changes: true }],
    ["executionTimeoutMs in place", endpoint, { ...endpoint, executionTimeoutMs: 1000 }, { changes: true }],
    ["computeType replaces", endpoint, { ...endpoint, computeType: "CPU" }, { changes: true, replaces: ["computeType"] }],
    ["computeType GPU is the default: no change", endpoint, { ...endpoint, computeType: "GPU" }, { changes: false }],
    ["unknown templateId: update", endpoint, { ...endpoint, templateId: UNKNOWN }, { changes: true }],
    ["unknown computeType: replace", endpoint, { ...endpoint, computeType: UNKNOWN }, { changes: true, replaces: ["computeType"] }],
    ["endpointId/version outputs ignored", { ...endpoint, endpointId: "x", version: 3 }, endpoint, { changes: false }],
  ]);
});

const template = { name: "tpl", imageName: "img:1", env: { A: "1" } };

describe("template policy: in place except category/isServerless; same-name replacement deletes first", () => {
  table(templateTable as ResourceTable<never>, [
    ["identical", template, template, { changes: false }],
    ["imageName in place", template, { ...template, imageName: "img:2" }, { changes: true }],
    ["name in place", template, { ...template, name: "tpl2" }, { changes: true }],
    ["env in place", template, { ...template, env: { A: "2" } }, { changes: true }],
    ["readme in place", template, { ...template, readme: "# hi" }, { changes: true }],
    ["isPublic default: no change", template, { ...template, isPublic: false }, { changes: false }],
    ["ports newly declared: always applied", template, { ...template, ports: ["8888/http", "22/tcp"] }, { changes: true }],
    [
      "category replaces, same name deletes first",
      template,
      { ...template, category: "AMD" },
      { changes: true, replaces: ["category"], dbr: true },
    ],
    [
      "isServerless replaces, same name deletes first",
      template,
      { ...template, isServerless: true },
      { changes: true, replaces: ["isServerless"], dbr: true },
    ],
    [
      "replacement with a new name: create first",
      template,
      { ...template, name: "tpl-v2", isServerless: true },
      { changes: true, replaces: ["isServerless"], dbr: false },
    ],
    [
      "replacement with an unknown name: delete first (safe)",
      template,
      { ...template, name: UNKNOWN, category: "CPU" },
      { changes: true, replaces: ["category"], dbr: true },
    ],
  ]);
});

const volume = { name: "vol", size: 50, dataCenterId: "EU-RO-1" };

describe("network volume policy", () => {
  table(networkVolumeTable as ResourceTable<never>, [
    ["identical", volume, volume, { changes: false }],
    ["size grows in place", volume, { ...volume, size: 100 }, { changes: true }],
    ["name in place", volume, { ...volume, name: "v2" }, { changes: true }],
    ["dataCenterId replaces", volume, { ...volume, dataCenterId: "US-TX-3" }, { changes: true, replaces: ["dataCenterId"] }],
    ["unknown size: update", volume, { ...volume, size: UNKNOWN }, { changes: true }],
  ]);
});

const auth = { name: "creds", username: "u", password: "p" };

describe("registry auth policy: everything replaces; same name deletes first", () => {
  table(registryAuthTable as ResourceTable<never>, [
    ["identical", auth, auth, { changes: false }],
    ["password replaces, same name deletes first", auth, { ...auth, password: "p2" }, { changes: true, replaces: ["password"], dbr: true }],
    ["username replaces, same name deletes first", auth, { ...auth, username: "u2" }, { changes: true, replaces: ["username"], dbr: true }],
    ["name replaces, create first", auth, { ...auth, name: "creds2" }, { changes: true, replaces: ["name"], dbr: false }],
    ["unknown password: replace, delete first", auth, { ...auth, password: UNKNOWN }, { changes: true, replaces: ["password"], dbr: true }],
    ["adoptId removed: no change", { ...auth, adoptId: "res-1" }, auth, { changes: false }],
  ]);
});

describe("env maps compare declared keys only", () => {
  it("reports each changed declared key, and keys declared before but removed", () => {
    expect(changedEnvKeys({ A: "1", B: "2" }, { A: "1", B: "3", C: "4" })).toEqual(["B", "C"]);
    expect(changedEnvKeys({ A: "1", B: "2" }, { A: "1" })).toEqual(["B"]);
    expect(changedEnvKeys(undefined, {})).toEqual([]);
  });

  it("gives per-key detailed diffs", () => {
    const out = computeDiff(podTable, { ...pod, env: { A: "1" } }, { ...pod, env: { A: "1", NEW: "x" } });
    expect(out.detailedDiff).toEqual({ "env.NEW": { kind: "update", replace: false } });
  });

  it("outputs recorded from a live env with injected keys show no diff (keys filtered at record time)", async () => {
    const { buildOutputs } = await import("../../../provider/resources/declared");
    const live = { id: "p1", env: { A: "1", PUBLIC_KEY: "ssh-ed25519 AAA" }, name: "p", imageName: "img:1" };
    const outs = buildOutputs(podTable, { name: "p", imageName: "img:1", env: { A: "1" } }, live);
    expect(outs["env"]).toEqual({ A: "1" });
    expect(computeDiff(podTable, outs, { name: "p", imageName: "img:1", env: { A: "1" } }).changes).toBe(false);
  });
});
