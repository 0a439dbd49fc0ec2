// On v2, a GPU type or CPU flavor the catalog does not list fails check with the nearest listed id,
// once the catalog was read; when it could not be read, the static list's warning stays.
import { describe, expect, it } from "vitest";
import { priceSheetOf, type PriceLookup } from "../../../model/cost/priceSheet";
import type { Backend } from "../../../model/fields/fieldTable";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { recordingDeps } from "../../support/recordingDeps";

const lists = {
  gpus: [{ id: "NVIDIA L4", price: { secure: 0.43, community: 0.344, serverless: 0.69 } }],
  cpus: [{ id: "cpu3c", price: { securePerVcpu: 0.03, serverlessPerVcpu: 0.04 } }],
};

function providers(backend: Backend, prices: () => Promise<PriceLookup>) {
  const deps = recordingDeps({}, { backend: () => backend, prices });
  return { ...buildResourceProviders(deps), lines: deps.lines };
}
const read = async () => priceSheetOf(lists, new Date("2026-11-24T12:00:00.000Z"));
const unreadable = async (): Promise<PriceLookup> => ({ unavailable: "the price catalog could not be read: connection refused" });

describe("catalog ids at preview on v2", () => {
  it("an unknown GPU type fails with did-you-mean when the catalog was read", async () => {
    const { pod, lines } = providers("v2", read);
    const result = await pod.check!({}, { imageName: "me/img:1", gpuTypeIds: ["NVIDIA L5"], __provider: "shim" });
    expect(result.failures).toEqual([
      {
        property: "gpuTypeIds[0]",
        reason: '"NVIDIA L5" is not a GPU type in the service\'s catalog (did you mean "NVIDIA L4"?); getGpuTypes() lists the ids',
      },
    ]);
    expect(lines.warn.filter((w) => w.includes("gpuTypeIds"))).toEqual([]);
  });

  it("an unknown CPU flavor fails too; listed ids pass", async () => {
    const { pod } = providers("v2", read);
    const bad = await pod.check!({}, { imageName: "me/img:1", computeType: "CPU", cpuFlavorIds: ["cpu3x"], __provider: "shim" });
    expect(bad.failures).toEqual([
      expect.objectContaining({ property: "cpuFlavorIds[0]", reason: expect.stringContaining('(did you mean "cpu3c"?)') }),
    ]);
    const good = await pod.check!({}, { imageName: "me/img:1", gpuTypeIds: ["NVIDIA L4"], __provider: "shim" });
    expect(good.failures).toEqual([]);
  });

  it("stays a warning when the catalog could not be read, and on v1", async () => {
    for (const [backend, prices] of [
      ["v2", unreadable],
      ["v1", read],
    ] as const) {
      const { endpoint, lines } = providers(backend, prices);
      const result = await endpoint.check!({}, { templateId: "tpl1", name: "e", gpuTypeIds: ["NVIDIA L5"], __provider: "shim" });
      expect(result.failures, backend).toEqual([]);
      expect(
        lines.warn.some((w) => w.includes('"NVIDIA L5" is not among the values this provider knows')),
        backend,
      ).toBe(true);
    }
  });
});
