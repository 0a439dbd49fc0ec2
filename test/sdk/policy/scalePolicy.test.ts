import { describe, expect, it } from "vitest";
import { scalePolicy } from "../../../sdk/policy";
import { DECLARATIONS, runResourcePolicy, UNKNOWN } from "../../support/policyHarness";

describe.each(DECLARATIONS)("gpucloud-scale, declared as a %s resource", (via) => {
  const endpoint = (props: Record<string, unknown>, config: object = {}) =>
    runResourcePolicy(scalePolicy, { kind: "endpoint", via, name: "inference", props }, config);

  it("passes within the defaults (workersMin 2, workersMax 20, gpuCount 8) and skips values not known yet", () => {
    expect(endpoint({ workersMin: 2, workersMax: 20, gpuCount: 8 })).toEqual([]);
    expect(endpoint({ workersMin: UNKNOWN })).toEqual([]);
    expect(runResourcePolicy(scalePolicy, { kind: "pod", via, props: { gpuCount: 8 } })).toEqual([]);
  });

  it("reports workersMin, workersMax and gpuCount over the caps", () => {
    expect(endpoint({ workersMin: 2, workersMax: 5, gpuCount: 2 }, { maxWorkersMin: 1, maxWorkersMax: 4, maxGpuCount: 1 })).toEqual([
      'Endpoint "inference": workersMin 2 is more than maxWorkersMin (1): always-on workers are billed while idle; set workersMin to 1 or less, or ask the platform team to raise maxWorkersMin',
      'Endpoint "inference": workersMax 5 is more than maxWorkersMax (4); set workersMax to 4 or less, or ask the platform team to raise maxWorkersMax',
      'Endpoint "inference": gpuCount 2 is more than maxGpuCount (1) GPUs per worker; set gpuCount to 1 or less, or ask the platform team to raise maxGpuCount',
    ]);
    expect(runResourcePolicy(scalePolicy, { kind: "pod", via, name: "big", props: { gpuCount: 16 } })).toEqual([
      'Pod "big": gpuCount 16 is more than maxGpuCount (8); set gpuCount to 8 or less, or ask the platform team to raise maxGpuCount',
    ]);
  });

  it("refuses a config its schema refuses, naming the key and the value", () => {
    expect(() => endpoint({}, { maxWorkersMax: -1 })).toThrow(/policy gpucloud-scale: config maxWorkersMax -1: .*--policy-pack-config/);
  });
});
