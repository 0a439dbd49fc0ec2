import { describe, expect, it } from "vitest";
import { placementPolicy } from "../../../sdk/policy";
import { DECLARATIONS, runResourcePolicy, UNKNOWN } from "../../support/policyHarness";

const CONFIG = {
  allowedGpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
  allowedCpuFlavorIds: ["cpu3c"],
  allowedCloudTypes: ["SECURE"],
  allowedDataCenterIds: ["EU-RO-1", "EU-SE-1"],
};

describe.each(DECLARATIONS)("gpucloud-placement, declared as a %s resource", (via) => {
  const run = (kind: "pod" | "endpoint" | "networkVolume", props: Record<string, unknown>, config: object = CONFIG) =>
    runResourcePolicy(placementPolicy, { kind, via, name: "r", props }, config);

  it("passes allowed GPU types, CPU flavors, clouds and data centers", () => {
    expect(run("pod", { gpuTypeIds: ["NVIDIA L4"], cloudType: "SECURE", dataCenterIds: ["EU-RO-1"] })).toEqual([]);
    expect(run("endpoint", { computeType: "CPU", cpuFlavorIds: ["cpu3c"], dataCenterIds: ["EU-SE-1"] })).toEqual([]);
    expect(run("networkVolume", { dataCenterId: "EU-RO-1" })).toEqual([]);
    expect(run("pod", { gpuTypeIds: ["NVIDIA H200"] }, {})).toEqual([]); // nothing configured: anything goes
    expect(run("pod", { gpuTypeIds: UNKNOWN, dataCenterIds: [UNKNOWN] })).toEqual([]);
  });

  it("reports what is outside the lists, and what leaves the choice to the service", () => {
    expect(run("pod", { gpuTypeIds: ["NVIDIA H200", "NVIDIA L4"], cloudType: "COMMUNITY", dataCenterIds: ["US-TX-3"] })).toEqual([
      'Pod "r": gpuTypeIds ["NVIDIA H200","NVIDIA L4"] names "NVIDIA H200", not an allowed GPU type (allowed: "NVIDIA L4", "NVIDIA A40"); use only "NVIDIA L4", "NVIDIA A40", or ask the platform team to allow "NVIDIA H200"',
      'Pod "r": dataCenterIds ["US-TX-3"] names "US-TX-3", not an allowed data center (allowed: "EU-RO-1", "EU-SE-1"); use only "EU-RO-1", "EU-SE-1", or ask the platform team to allow "US-TX-3"',
      'Pod "r": cloudType "COMMUNITY" is not an allowed cloud (allowed: "SECURE"); set cloudType to "SECURE"',
    ]);
    expect(run("endpoint", { gpuTypeIds: ["NVIDIA L4"] })).toEqual([
      'Endpoint "r": dataCenterIds (not declared) leaves the data center to the service, which may pick one that is not allowed (allowed: "EU-RO-1", "EU-SE-1"); set dataCenterIds to some of "EU-RO-1", "EU-SE-1"',
    ]);
    expect(run("networkVolume", { dataCenterId: "US-TX-3" })[0]).toMatch(
      /^NetworkVolume "r": dataCenterId "US-TX-3" names "US-TX-3", not an allowed data center/,
    );
    expect(run("endpoint", { computeType: "CPU", cpuFlavorIds: ["cpu5c"], dataCenterIds: ["EU-RO-1"] })[0]).toMatch(
      /names "cpu5c", not an allowed CPU flavor/,
    );
  });

  it("takes the service's default cloud (SECURE, from the field table) when none is declared", () => {
    expect(run("pod", { gpuTypeIds: ["NVIDIA L4"], dataCenterIds: ["EU-RO-1"] }, { allowedCloudTypes: ["COMMUNITY"] })).toEqual([
      'Pod "r": cloudType "SECURE" is not an allowed cloud (allowed: "COMMUNITY"); set cloudType to "COMMUNITY"',
    ]);
  });

  it("refuses an unknown id in the config, naming the closest", () => {
    expect(() => run("pod", {}, { allowedGpuTypeIds: ["NVIDIA L5"] })).toThrow(
      /"NVIDIA L5" is not a known GPU type id \(did you mean "NVIDIA L4"\?\)/,
    );
  });
});
