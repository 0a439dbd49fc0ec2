// AccountSshKeys against the emulator's /api/v2/account/ssh-keys: create records the keys it
// replaces and registers the declared ones, read sees drift but not order, update replaces the set,
// delete restores what was there; check refuses malformed keys and the v1 API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { ManagementClientV2 } from "../../../client/managementV2";
import { accountSshKeysProviderWith } from "../../../provider/account/sshKeysProvider";

const A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyA a@laptop";
const B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyB b@laptop";
const OLD = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQOld old@box";

let emulator: RunningEmulator;
let client: ManagementClientV2;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.001 });
  client = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey, maxRetries: 1, sleep: async () => undefined });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

const log = { info: () => undefined, warn: () => undefined };

describe("AccountSshKeys", () => {
  it("create replaces the account's keys and records the old ones; delete puts them back", async () => {
    await client.replaceSshKeys([OLD]);
    const provider = accountSshKeysProviderWith({ api: () => client, backend: () => "v2", log });
    const checked = await provider.check!({}, { keys: [` ${A} `] });
    expect(checked.failures).toEqual([]);
    const created = await provider.create(checked.inputs);
    expect(created.outs).toMatchObject({ keys: [A], replacedKeys: [OLD] });
    expect(await client.sshKeys()).toEqual([A]);

    // Order is no change; another key is.
    expect((await provider.diff!(created.id, created.outs, { keys: [A] })).changes).toBe(false);
    expect((await provider.diff!(created.id, created.outs, { keys: [A, B] })).changes).toBe(true);
    const updated = await provider.update!(created.id, created.outs, { keys: [B, A] });
    expect(await client.sshKeys()).toEqual([B, A]);
    expect(updated.outs).toMatchObject({ replacedKeys: [OLD] });
    expect((await provider.read!(created.id, updated.outs)).props?.["keys"]).toEqual([B, A]);

    // Drift made outside Pulumi shows on read.
    await client.replaceSshKeys([B]);
    expect((await provider.read!(created.id, updated.outs)).props?.["keys"]).toEqual([B]);

    await provider.delete!(created.id, updated.outs ?? {});
    expect(await client.sshKeys()).toEqual([OLD]);
  });

  it("check refuses a line that is not a key, a duplicate, and the v1 API (naming the fix)", async () => {
    const v2 = accountSshKeysProviderWith({ api: () => client, backend: () => "v2", log });
    const bad = await v2.check!({}, { keys: ["not a key", A, A] });
    expect(bad.failures?.map((f) => f.property)).toEqual(["keys[0]", "keys"]);
    const v1 = accountSshKeysProviderWith({ api: () => "v1", backend: () => "v1", log });
    const refused = await v1.check!({}, { keys: [A] });
    expect(refused.failures?.[0]?.reason).toMatch(/v2 API .*gpucloud:apiUrl/);
  });
});
