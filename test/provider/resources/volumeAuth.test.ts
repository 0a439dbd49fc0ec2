import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { networkVolumeTable } from "../../../model/kinds/networkVolume/networkVolumeFields";
import { registryAuthTable } from "../../../model/kinds/registryAuth/registryAuthFields";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timeScale: 0.001 });
});
afterAll(() => h.close());

describe("network volume against the emulator", () => {
  const args = { name: "models", size: 50, dataCenterId: "EU-RO-1", __provider: "shim" };
  let id = "";
  let outs: Record<string, unknown> = {};

  it("create, read without diff, grow and rename in place", async () => {
    const created = await h.providers.networkVolume.create(await checked(h.providers.networkVolume, args));
    id = created.id;
    outs = created.outs as Record<string, unknown>;
    expect(outs).toMatchObject({ name: "models", size: 50, dataCenterId: "EU-RO-1" });
    const read = await h.providers.networkVolume.read!(id, outs);
    expect(computeDiff(networkVolumeTable, read.props, read.inputs ?? {}).changes).toBe(false);
    const grown = await h.providers.networkVolume.update!(
      id,
      outs,
      await checked(h.providers.networkVolume, { ...args, name: "models-v2", size: 80 }, args),
    );
    outs = grown.outs as Record<string, unknown>;
    expect(await h.client.getNetworkVolume(id)).toMatchObject({ name: "models-v2", size: 80 });
  });

  it("a shrink fails at check with both sizes", async () => {
    const result = await h.providers.networkVolume.check!({ ...args, size: 80 }, { ...args, size: 60 });
    expect(result.failures?.[0]).toMatchObject({ property: "size" });
    expect(result.failures?.[0]?.reason).toContain("60 GB is smaller than the current size 80 GB");
  });

  it("delete of a volume in use names the pod holding it", async () => {
    const pod = await h.client.createPod({
      name: "reader",
      imageName: "img",
      gpuTypeIds: ["NVIDIA L4"],
      dataCenterIds: ["EU-RO-1"],
      networkVolumeId: id,
    });
    await expect(h.providers.networkVolume.delete!(id, outs)).rejects.toThrow(
      new RegExp(`network volume "models-v2" \\(id ${id}\\) cannot be deleted: .*attached to .*pod "reader" \\(id ${pod.id}\\)`),
    );
    await h.client.deletePod(pod.id);
    await h.providers.networkVolume.delete!(id, outs);
    await expect(h.providers.networkVolume.delete!(id, outs)).resolves.toBeUndefined();
    expect(await h.providers.networkVolume.read!(id, outs)).toEqual({});
  });

  it("adopts an existing volume (grow only); refuses another data center or a smaller size", async () => {
    const existing = await h.client.createNetworkVolume({ name: "old", size: 100, dataCenterId: "US-TX-3" });
    await expect(
      h.providers.networkVolume.create({ name: "old", size: 100, dataCenterId: "EU-RO-1", adoptId: existing.id }),
    ).rejects.toThrow(/dataCenterId is "US-TX-3" on the live resource but "EU-RO-1" is declared/);
    await expect(
      h.providers.networkVolume.create({ name: "old", size: 10, dataCenterId: "US-TX-3", adoptId: existing.id }),
    ).rejects.toThrow(/100 GB and cannot shrink to 10 GB/);
    const adopted = await h.providers.networkVolume.create({ name: "old", size: 150, dataCenterId: "US-TX-3", adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect((await h.client.getNetworkVolume(existing.id)).size).toBe(150);
  });
});

describe("registry auth against the emulator", () => {
  const args = { name: "ghcr", username: "bot", password: "s3cret-token", __provider: "shim" };

  it("create, read (name only: credentials kept from state), delete", async () => {
    const created = await h.providers.registryAuth.create(await checked(h.providers.registryAuth, args));
    expect(created.outs).toMatchObject({ name: "ghcr", username: "bot", password: "s3cret-token" });
    const read = await h.providers.registryAuth.read!(created.id, created.outs);
    expect(read.props).toMatchObject({ name: "ghcr", password: "s3cret-token" });
    expect(computeDiff(registryAuthTable, read.props, read.inputs ?? {}).changes).toBe(false);
    expect(await h.providers.registryAuth.diff!(created.id, created.outs, { ...args, password: "rotated" })).toEqual({
      changes: true,
      replaces: ["password"],
      deleteBeforeReplace: true,
    });
    await h.providers.registryAuth.delete!(created.id, created.outs);
    expect(await h.providers.registryAuth.read!(created.id, created.outs)).toEqual({});
    await expect(h.providers.registryAuth.delete!(created.id, created.outs)).resolves.toBeUndefined();
  });

  it("never puts the password in a log line", () => {
    expect([...h.lines.info, ...h.lines.warn].join("\n")).not.toContain("s3cret-token");
  });

  it("adoption checks the name and warns that credentials cannot be verified", async () => {
    const existing = await h.client.createRegistryAuth({ name: "manual", username: "u", password: "p" });
    await expect(h.providers.registryAuth.create({ name: "other", username: "u", password: "p", adoptId: existing.id })).rejects.toThrow(
      /name is "manual" on the live resource/,
    );
    const adopted = await h.providers.registryAuth.create({ name: "manual", username: "u", password: "p", adoptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(h.lines.warn.join("\n")).toContain("never returns the username or password");
  });
});
