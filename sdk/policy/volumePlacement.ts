// Consistency: a network volume lives in one data center, and a pod or endpoint can mount it only
// there. A pod or endpoint that names data centers must name the volume's.

import { z } from "zod";
import type { StackValidationPolicy } from "@pulumi/policy";
import { gpuStackPolicy, type StackViolation } from "./define";
import { gpuResourceOf, stringOf, stringsOf, violationText, type GpuResource } from "./resources";

/** Config of {@link volumePlacementPolicy} (`gpucloud-volume-placement`): none. */
export type VolumePlacementPolicyConfig = Record<string, never>;

const volumePlacementConfig: z.ZodType<VolumePlacementPolicyConfig> & z.ZodObject = z.object({});

const VOLUME_FIELDS = ["networkVolumeId", "networkVolumeIds"] as const;

/** Network volumes in the data centers of the pods and endpoints that mount them (a stack policy). */
export const volumePlacementPolicy: StackValidationPolicy = gpuStackPolicy({
  name: "gpucloud-volume-placement",
  description: "A network volume is in a data center of each pod and endpoint that mounts it (they name it in dataCenterIds).",
  enforcementLevel: "mandatory",
  config: volumePlacementConfig,
  check: (resources) => {
    const volumes = resources
      .map((r) => ({ r, volume: gpuResourceOf(r) }))
      .filter((v): v is { r: (typeof resources)[number]; volume: GpuResource } => v.volume?.kind === "networkVolume");
    const out: StackViolation[] = [];
    for (const r of resources) {
      const user = gpuResourceOf(r);
      if (user?.kind !== "pod" && user?.kind !== "endpoint") continue;
      const dataCenters = stringsOf(user.props["dataCenterIds"]);
      if (dataCenters.length === 0) continue; // none named: the service places it with its volume
      const ids = [
        ...stringsOf(user.props["networkVolumeIds"]),
        ...[stringOf(user.props["networkVolumeId"])].filter((i) => i !== undefined),
      ];
      const depends = VOLUME_FIELDS.flatMap((f) => r.propertyDependencies[f] ?? []);
      for (const { r: vr, volume } of volumes) {
        const id = stringOf(volume.props["id"]);
        if (!depends.includes(vr.urn) && !(id !== undefined && ids.includes(id))) continue;
        const volumeDc = stringOf(volume.props["dataCenterId"]);
        if (volumeDc === undefined || dataCenters.includes(volumeDc)) continue;
        out.push({
          urn: r.urn,
          message: violationText({
            resource: user,
            field: "dataCenterIds",
            value: dataCenters,
            rule: `leaves out ${JSON.stringify(volumeDc)}, the data center of the network volume it mounts (NetworkVolume ${JSON.stringify(volume.name)})`,
            fix: `add ${JSON.stringify(volumeDc)} to dataCenterIds, or create the volume in one of ${dataCenters.map((d) => JSON.stringify(d)).join(", ")}`,
          }),
        });
      }
    }
    return out;
  },
});
