import { describe, expect, it } from "vitest";
import { volumePlacementPolicy } from "../../../sdk/policy";
import { DECLARATIONS, runStackPolicy, typeOf, UNKNOWN } from "../../support/policyHarness";

describe.each(DECLARATIONS)("gpucloud-volume-placement, declared as %s resources", (via) => {
  const volume = { type: typeOf("networkVolume", via), name: "models", props: { dataCenterId: "EU-RO-1", id: UNKNOWN } };
  const pod = (dataCenterIds: unknown) => ({
    type: typeOf("pod", via),
    name: "trainer",
    props: { networkVolumeId: UNKNOWN, dataCenterIds },
    propertyDependencies: { networkVolumeId: ["models"] },
  });

  it("passes a pod in its volume's data center, or naming none", () => {
    expect(runStackPolicy(volumePlacementPolicy, [volume, pod(["EU-RO-1", "EU-SE-1"])])).toEqual([]);
    expect(runStackPolicy(volumePlacementPolicy, [volume, pod(undefined)])).toEqual([]);
  });

  it("reports a pod or endpoint whose data centers leave out the volume's", () => {
    expect(runStackPolicy(volumePlacementPolicy, [volume, pod(["EU-SE-1"])])).toEqual([
      'Pod "trainer": dataCenterIds ["EU-SE-1"] leaves out "EU-RO-1", the data center of the network volume it mounts (NetworkVolume "models"); add "EU-RO-1" to dataCenterIds, or create the volume in one of "EU-SE-1"',
    ]);
    // An existing volume named by id (known after its create).
    const known = { ...volume, props: { dataCenterId: "EU-RO-1", id: "vol-1" } };
    const endpoint = {
      type: typeOf("endpoint", via),
      name: "inference",
      props: { networkVolumeIds: ["vol-1"], dataCenterIds: ["US-TX-3"] },
    };
    expect(runStackPolicy(volumePlacementPolicy, [known, endpoint])[0]).toMatch(
      /^Endpoint "inference": dataCenterIds \["US-TX-3"\] leaves out "EU-RO-1"/,
    );
  });
});
