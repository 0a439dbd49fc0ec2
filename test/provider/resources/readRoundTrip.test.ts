import { describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { buildOutputs, declaredInputs, mergeEnv, refreshFromLive } from "../../../provider/resources/declared";
import { podTable } from "../../../model/kinds/pod/podFields";
import { endpointTable } from "../../../model/kinds/endpoint/endpointFields";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { networkVolumeTable } from "../../../model/kinds/networkVolume/networkVolumeFields";
import { registryAuthTable } from "../../../model/kinds/registryAuth/registryAuthFields";
import type { ResourceTable } from "../../../model/fields/fieldTable";

type Case = [label: string, policy: ResourceTable<never>, declared: Record<string, unknown>, live: Record<string, unknown>];

const cases: Case[] = [
  [
    "pod with injected env, reordered ports, quoted cost",
    podTable as ResourceTable<never>,
    {
      name: "p",
      imageName: "img:1",
      env: { A: "1" },
      ports: ["8888/http", "22/tcp"],
      gpuCount: 1,
      cloudType: "SECURE",
      readyTimeoutSeconds: 30,
      restartTrigger: "r1",
    },
    {
      id: "p1",
      name: "p",
      imageName: "img:1",
      env: { A: "1", PUBLIC_KEY: "ssh-ed25519 AAA" },
      ports: ["22/tcp", "8888/http"],
      desiredStatus: "RUNNING",
      publicIp: "100.64.1.2",
      portMappings: { "22": 10022 },
      costPerHr: 0.69,
      gpu: { id: "NVIDIA L4", count: 1 },
      machine: { secureCloud: true, dataCenterId: "EU-RO-1" },
    },
  ],
  [
    "endpoint",
    endpointTable as ResourceTable<never>,
    { templateId: "t1", name: "e", workersMin: 0, workersMax: 3, gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["EU-RO-1", "US-TX-3"] },
    {
      id: "e1",
      templateId: "t1",
      name: "e",
      workersMin: 0,
      workersMax: 3,
      gpuTypeIds: ["NVIDIA L4"],
      dataCenterIds: ["EU-RO-1", "US-TX-3"],
      version: 2,
      idleTimeout: 5,
    },
  ],
  [
    "serverless template with injected PORT",
    templateTable as ResourceTable<never>,
    { name: "t", imageName: "img:1", isServerless: true, env: { MODEL: "m" } },
    { id: "t1", name: "t", imageName: "img:1", isServerless: true, env: { MODEL: "m", PORT: "8000", PORT_HEALTH: "8001" }, ports: [] },
  ],
  [
    "network volume",
    networkVolumeTable as ResourceTable<never>,
    { name: "v", size: 50, dataCenterId: "EU-RO-1" },
    { id: "v1", name: "v", size: 50, dataCenterId: "EU-RO-1" },
  ],
  [
    "registry auth (reads give id and name only)",
    registryAuthTable as ResourceTable<never>,
    { name: "c", username: "u", password: "pw" },
    { id: "c1", name: "c" },
  ],
];

describe("read -> inputs round trip", () => {
  it.each(cases)("%s: refresh of an unchanged resource gives no diff", (_label, policy, declared, live) => {
    const outputs = buildOutputs(policy, declared, live as never);
    const refreshed = refreshFromLive(policy, outputs, live as never);
    expect(computeDiff(policy, refreshed.props, refreshed.inputs).changes).toBe(false);
    expect(computeDiff(policy, refreshed.props, declared).changes).toBe(false);
    // The rebuilt inputs are the declared fields, nothing the platform added.
    expect(refreshed.inputs).toEqual(declaredInputs(policy, declared));
  });

  it("keeps secrets the service never returns (registry password) in outputs and inputs", () => {
    const outputs = buildOutputs(registryAuthTable, { name: "c", username: "u", password: "pw" }, { id: "c1", name: "c" });
    const refreshed = refreshFromLive(registryAuthTable, outputs, { id: "c1", name: "c" });
    expect(refreshed.props["password"]).toBe("pw");
    expect(refreshed.inputs["password"]).toBe("pw");
  });

  it("shows drift of a declared field and of a declared env key", () => {
    const declared = { name: "p", imageName: "img:1", env: { A: "1", B: "2" } };
    const outputs = buildOutputs(podTable, declared, { id: "p1", ...declared, desiredStatus: "RUNNING" });
    const drifted = { id: "p1", name: "renamed", imageName: "img:1", env: { A: "changed", PUBLIC_KEY: "k" }, desiredStatus: "EXITED" };
    const refreshed = refreshFromLive(podTable, outputs, drifted);
    expect(refreshed.props["name"]).toBe("renamed");
    expect(refreshed.props["env"]).toEqual({ A: "changed" });
    expect(refreshed.props["desiredStatus"]).toBe("EXITED");
    const diff = computeDiff(podTable, refreshed.props, declared);
    expect(diff.changed.map((c) => c.field).sort()).toEqual(["desiredStatus", "env", "name"]);
    expect(diff.replaces).toEqual([]);
    expect(diff.detailedDiff).toMatchObject({ "env.A": {}, "env.B": {}, name: {} });
  });

  it("does not record fields the user never declared", () => {
    const outputs = buildOutputs(
      podTable,
      { name: "p", imageName: "img" },
      { id: "p1", name: "p", imageName: "img", containerDiskInGb: 50, volumeInGb: 20, env: { PUBLIC_KEY: "k" } },
    );
    expect(outputs).not.toHaveProperty("containerDiskInGb");
    expect(outputs).not.toHaveProperty("env");
  });

  it("a service that echoes an endpoint's dataCenterIds as a list in another spelling keeps the user's", () => {
    const outputs = buildOutputs(
      endpointTable,
      { templateId: "t", networkVolumeIds: ["a", "b"] },
      { id: "e", templateId: "t", networkVolumeIds: ["b", "a"] },
    );
    expect(outputs["networkVolumeIds"]).toEqual(["a", "b"]);
  });
});

describe("mergeEnv keeps injected keys and removes only previously declared ones", () => {
  it("sets, keeps and removes", () => {
    const live = { PUBLIC_KEY: "k", A: "1", B: "2", MANUAL: "m" };
    expect(mergeEnv(live, { A: "1", B: "2" }, { A: "10" })).toEqual({ PUBLIC_KEY: "k", A: "10", MANUAL: "m" });
  });
});
