// The Secret provider against the emulator's v2 API: create, rotation and description in separate
// PATCHes (value first), a 409 that names the holder and the fix, adoption, v1 refused at check,
// and the value in no message.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { secretTable } from "../../../model/kinds/secret/secretFields";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { readExisting } from "../../../model/lookup/lookup";
import { ResourceInitError } from "../../../provider/resources/partialCreate";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

const VALUE = "hf_value-of-the-first-kind-0001";
const ROTATED = "hf_value-of-the-second-kind-0002";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timeScale: 0.001 }, "v2");
});
afterAll(() => h.close());

/** Every line the provider logged, for the value scan. */
const logged = (): string => [...h.lines.info, ...h.lines.warn].join("\n");

describe("secret against the emulator (v2)", () => {
  const args = { name: "HF_TOKEN", value: VALUE, description: "model hub token", __provider: "shim" };
  let id = "";
  let outs: Record<string, unknown> = {};

  it("creates it with createdAt and valueLastUpdatedAt; a read shows no diff", async () => {
    const created = await h.providers.secret.create(await checked(h.providers.secret, args));
    id = created.id;
    outs = created.outs as Record<string, unknown>;
    expect(outs).toMatchObject({ name: "HF_TOKEN", description: "model hub token" });
    expect(typeof outs["createdAt"]).toBe("string");
    expect(typeof outs["valueLastUpdatedAt"]).toBe("string");
    const read = await h.providers.secret.read!(id, outs);
    expect(computeDiff(secretTable, read.props, read.inputs ?? {}).changes).toBe(false);
  });

  it("a new value is an in-place update; a new name replaces, deleting first only when the name is the same but for case", () => {
    const rotate = computeDiff(secretTable, outs, { ...args, value: ROTATED });
    expect(rotate).toMatchObject({ changes: true, replaces: [] });
    expect(computeDiff(secretTable, outs, { ...args, name: "HF_TOKEN_2" })).toMatchObject({
      replaces: ["name"],
      deleteBeforeReplace: false,
    });
    expect(computeDiff(secretTable, outs, { ...args, name: "hf_token" })).toMatchObject({ replaces: ["name"], deleteBeforeReplace: true });
  });

  it("rotates the value and changes the description in two PATCHes, value first", async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.http.take();
    const news = await checked(h.providers.secret, { ...args, value: ROTATED, description: "" }, args);
    const updated = await h.providers.secret.update!(id, outs, news);
    const patches = h.http.take().filter((c) => c.method === "PATCH");
    expect(patches.map((c) => c.path)).toEqual([`/api/v2/account/secrets/${id}`, `/api/v2/account/secrets/${id}`]);
    const after = updated.outs as Record<string, unknown>;
    expect(after["valueLastUpdatedAt"]).not.toBe(outs["valueLastUpdatedAt"]);
    // "" cleared it: the service reports none, which the next diff takes as "".
    expect(computeDiff(secretTable, after, { ...args, value: ROTATED, description: "" }).changes).toBe(false);
    outs = after;
  });

  it("a name taken fails naming the name, the holder's id and the fix (adoptId / getSecret)", async () => {
    const twin = { name: "hf_token", value: VALUE, __provider: "shim" };
    const attempt = h.providers.secret.create(await checked(h.providers.secret, twin));
    await expect(attempt).rejects.toThrow(
      new RegExp(
        `a secret named "hf_token" already exists in the account \\(id ${id}, named "HF_TOKEN"\\).*adoptId.*getSecret\\(\\{ name: "hf_token" \\}\\)`,
      ),
    );
  });

  it("adopts by id, writing the declared value (a rotation) and saying so", async () => {
    const adopted = await h.providers.secret.create(await checked(h.providers.secret, { ...args, value: VALUE, adoptId: id }));
    expect(adopted.id).toBe(id);
    expect((adopted.outs as Record<string, unknown>)["valueLastUpdatedAt"]).not.toBe(outs["valueLastUpdatedAt"]);
    expect(h.lines.warn.join("\n")).toMatch(/the declared value is written to it/);
  });

  it("bad arguments fail at check without echoing the value", async () => {
    const tooBig = "x".repeat(16 * 1024 * 1024);
    const result = await h.providers.secret.check!({}, { name: "GPUCLOUD_X", value: tooBig, __provider: "shim" });
    const reasons = (result.failures ?? []).map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/name: "GPUCLOUD_X" starts with GPUCLOUD, a prefix the service reserves/);
    expect(reasons).toMatch(/value.*16777216 bytes of UTF-8/);
    expect(reasons).not.toContain("xxxxxxxx");
    // A value's failure names no property, so the engine prints no value beside it.
    expect(result.failures?.find((f) => f.reason.includes("bytes of UTF-8"))?.property).toBe("");
  });

  it("on v1, check fails saying secrets need v2 and how to set gpucloud:apiUrl", async () => {
    const v1 = buildResourceProviders({ ...h.deps, backend: () => "v1" });
    const result = await v1.secret.check!({}, { ...args });
    expect(result.failures?.map((f) => f.reason).join("\n")).toMatch(
      /account secrets need the service's v2 API.*pulumi config set gpucloud:apiUrl https:\/\/<api host>\/v2/,
    );
  });

  it("a lookup by name or id gives id, name, dates, never a value", async () => {
    const byName = await readExisting("secret", h.deps.client(), "v2", { name: "HF_TOKEN" }, "getSecret");
    expect(byName).toMatchObject({ id, name: "HF_TOKEN" });
    expect(Object.keys(byName).sort()).toEqual(["createdAt", "description", "id", "name", "valueLastUpdatedAt"]);
    expect(await readExisting("secret", h.deps.client(), "v2", { id }, "getSecret")).toEqual(byName);
    await expect(readExisting("secret", h.deps.client(), "v2", { name: "NOPE" }, "getSecret")).rejects.toThrow(
      /getSecret: no secret with name "NOPE"/,
    );
  });

  it("deletes it (again: already gone is done); no log line carried a value", async () => {
    await h.providers.secret.delete!(id, outs);
    await h.providers.secret.delete!(id, outs);
    expect(await h.providers.secret.read!(id, outs)).toEqual({});
    expect(logged()).not.toContain(VALUE);
    expect(logged()).not.toContain(ROTATED);
  });

  it("a rotation whose answer is lost is read back: valueLastUpdatedAt moved, so the new value is recorded as applied", async () => {
    const other = { name: "S3_KEY", value: VALUE, __provider: "shim" };
    const created = await h.providers.secret.create(await checked(h.providers.secret, other));
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.emulator.setFaults("seed=1; updateSecret: lost=1");
    const failed = await h.providers.secret.update!(
      created.id,
      created.outs as Record<string, unknown>,
      await checked(h.providers.secret, { ...other, value: ROTATED }, other),
    ).catch((error: unknown) => error);
    h.emulator.setFaults(undefined);
    expect(failed).toBeInstanceOf(ResourceInitError);
    const recorded = (failed as ResourceInitError).properties;
    expect(recorded["value"]).toBe(ROTATED);
    expect(recorded["valueLastUpdatedAt"]).not.toBe((created.outs as Record<string, unknown>)["valueLastUpdatedAt"]);
    expect((failed as Error).message).not.toContain(ROTATED);
    await h.providers.secret.delete!(created.id, recorded);
  });
});
