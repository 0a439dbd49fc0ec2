/**
 * The account side of /api/v2: the account and its limits (the hourly spend cap checked when a pod
 * or worker starts, the worker quota on the sum of workers.max), account secrets (CRUD rules, the
 * write-only value, placeholders resolved when a pod or worker boots).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { GPU_POD, KEY_B, type Api, api, startTestEmulator, waitFor } from "../../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2, expectProblem, waitForStatus } from "../../../support/v2Helpers";

/** RTX 4090 pods cost 0.69 USD/hour in the emulator's catalog. */
const POD_PER_HOUR = 0.69;

describe("account and limits", () => {
  let emu: RunningEmulator;
  let v2: Api;
  beforeAll(async () => {
    emu = await startTestEmulator({ spendCapPerHour: 1, serverlessWorkerQuota: 5, bootDelayMs: 0 });
    v2 = apiV2(emu);
  });
  afterAll(() => emu.close());

  it("GET /account names the key's account; GET /account/limits reports the cap and quota with their use", async () => {
    const account = await v2.get("/account");
    expect(account.status).toBe(200);
    expect(account.body).toEqual({ id: emu.accountIdOf(emu.apiKey), email: null });
    const limits = await v2.get("/account/limits");
    expect(limits.status).toBe(200);
    expect(limits.body).toEqual({ spendRate: { limit: 1, current: 0 }, serverlessWorkers: { limit: 5, current: 0 } });
    expect(limits.headers.get("ratelimit")).toMatch(/"minute";r=\d+/);
  });

  it("refuses a pod create, start or restart that would take the running hourly cost over the spend cap (402 naming the cap)", async () => {
    const first = await v2.post("/pods", { ...V2_GPU_POD, name: "first" });
    expect(first.status).toBe(201);
    expect((await v2.get("/account/limits")).body.spendRate).toEqual({ limit: 1, current: POD_PER_HOUR });

    const second = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, name: "second" }), 402);
    expect(second.detail).toMatch(
      /spend cap exceeded: starting pod "second" \(\$0\.69\/hour\) would take the account's running cost from \$0\.69\/hour to \$1\.38\/hour, over its spend cap of \$1\.00\/hour/,
    );
    expect(
      emu
        .inspect()
        .flatMap((a) => a.pods)
        .map((p) => p.name),
    ).toEqual(["first"]);

    // Stopped, the first pod frees the budget; a second pod runs; the first cannot start again.
    await waitForStatus(v2, first.body.id, "RUNNING");
    expect((await v2.post(`/pods/${first.body.id}/action`, { action: "stop" })).status).toBe(200);
    const third = await v2.post("/pods", { ...V2_GPU_POD, name: "third" });
    expect(third.status).toBe(201);
    const start = expectProblem(await v2.post(`/pods/${first.body.id}/action`, { action: "start" }), 402);
    expect(start.detail).toMatch(new RegExp(`starting pod ${first.body.id} .*spend cap of \\$1\\.00/hour`));
    expect((await v2.get(`/pods/${first.body.id}`)).body.status).toBe("EXITED");
    await v2.del(`/pods/${third.body.id}`);
    await v2.del(`/pods/${first.body.id}`);
  });

  it("refuses an endpoint create or update that takes the sum of workers.max over the quota (400 naming quota, sum and cap)", async () => {
    const a = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "a", workers: { min: 0, max: 3 } });
    expect(a.status).toBe(201);
    const b = expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "b", workers: { min: 0, max: 3 } }), 400);
    expect(b.detail).toMatch(
      /serverless worker quota is exceeded: the sum of workers\.max over the account's endpoints would be 6 \(this endpoint 3\), over the quota of 5/,
    );
    const c = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "c", workers: { min: 0, max: 2 } });
    expect(c.status).toBe(201);
    expect((await v2.get("/account/limits")).body.serverlessWorkers).toEqual({ limit: 5, current: 5 });
    const raise = expectProblem(await v2.patch(`/serverless/${c.body.id}`, { workers: { max: 3 } }), 400);
    expect(raise.detail).toMatch(/would be 6 \(this endpoint 3\), over the quota of 5/);
    // Lowering is always allowed; the other account has its own quota.
    expect((await v2.patch(`/serverless/${c.body.id}`, { workers: { max: 1 } })).status).toBe(200);
    expect((await apiV2(emu, KEY_B).post("/serverless", { ...V2_QUEUE_ENDPOINT, workers: { min: 0, max: 5 } })).status).toBe(201);
    await v2.del(`/serverless/${a.body.id}`);
    await v2.del(`/serverless/${c.body.id}`);
  });
});

it("a worker that would take the account over its spend cap stays unstarted and the endpoint reports it throttled", async () => {
  const emu = await startTestEmulator({ spendCapPerHour: 0.5 });
  try {
    const v2 = apiV2(emu);
    const endpoint = await v2.post("/serverless", {
      ...V2_QUEUE_ENDPOINT,
      gpu: { pools: ["ADA_24"], count: 1 },
      workers: { min: 1, max: 1 },
    });
    expect(endpoint.status).toBe(201);
    const health = await waitFor("a throttled worker", async () => {
      const res = await fetch(`${emu.serverlessUrl}/${String(endpoint.body.id)}/health`, {
        headers: { authorization: `Bearer ${emu.apiKey}` },
      });
      const body = (await res.json()) as { workers: { throttled: number; ready: number; idle: number; initializing: number } };
      return body.workers.throttled === 1 ? body : undefined;
    });
    expect(health.workers).toMatchObject({ ready: 0, idle: 0, initializing: 0 });
    expect((await v2.get("/account/limits")).body.spendRate).toEqual({ limit: 0.5, current: 0 });
  } finally {
    await emu.close();
  }
});

describe("account secrets", () => {
  let emu: RunningEmulator;
  let v2: Api;
  beforeAll(async () => {
    emu = await startTestEmulator({ bootDelayMs: 0 });
    v2 = apiV2(emu);
  });
  afterAll(() => emu.close());

  it("creates, reads, lists by name (case-insensitively), updates and deletes; no answer carries the value", async () => {
    const created = await v2.post("/account/secrets", { name: "Hf_Token", value: "hf-123", description: "model hub" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[a-z0-9]{12}$/),
      name: "Hf_Token",
      description: "model hub",
      createdAt: expect.any(String),
      valueLastUpdatedAt: created.body.createdAt,
    });
    const id = created.body.id as string;
    expect((await v2.get(`/account/secrets/${id}`)).body).toEqual(created.body);
    expect((await v2.get("/account/secrets", { name: "hf_token" })).body).toEqual({ secrets: [created.body] });
    expect((await v2.get("/account/secrets", { name: "other" })).body).toEqual({ secrets: [] });
    expect((await v2.get("/account/secrets")).body.secrets).toHaveLength(1);
    expect((await apiV2(emu, KEY_B).get("/account/secrets")).body).toEqual({ secrets: [] });

    expectProblem(await v2.post("/account/secrets", { name: "HF_TOKEN", value: "x" }), 409);

    await new Promise((r) => setTimeout(r, 20)); // service time moves on (time scale 0.01)
    const rotated = await v2.patch(`/account/secrets/${id}`, { value: "hf-456" });
    expect(rotated.status).toBe(200);
    expect(rotated.body.valueLastUpdatedAt > created.body.valueLastUpdatedAt).toBe(true);
    const described = await v2.patch(`/account/secrets/${id}`, { description: "" });
    expect(described.body).toMatchObject({ description: null, valueLastUpdatedAt: rotated.body.valueLastUpdatedAt });
    for (const answer of [created, rotated, described, await v2.get("/account/secrets")]) expect(answer.text).not.toMatch(/hf-\d+/);

    expect((await v2.del(`/account/secrets/${id}`)).status).toBe(204);
    expectProblem(await v2.get(`/account/secrets/${id}`), 404);
    expectProblem(await v2.patch(`/account/secrets/${id}`, { value: "x" }), 404);
    expectProblem(await v2.del(`/account/secrets/${id}`), 404);
  });

  it("checks names, values and bodies as the reference states them", async () => {
    for (const name of ["1abc", "has space", "a*b", "", "x".repeat(192)])
      expectProblem(await v2.post("/account/secrets", { name, value: "v" }), 422);
    expect((await v2.post("/account/secrets", { name: `_a.b-c/d${"x".repeat(183)}`, value: "v" })).status).toBe(201);
    for (const name of ["GPUCLOUD_X", "gpuCloudThing", "gpucloud"]) {
      const problem = expectProblem(await v2.post("/account/secrets", { name, value: "v" }), 400);
      expect(problem.detail).toMatch(/reserved prefix GPUCLOUD/);
    }
    expectProblem(await v2.post("/account/secrets", { name: "novalue", value: "" }), 422);
    expectProblem(await v2.post("/account/secrets", { name: "extra", value: "v", owner: "me" }), 422);
    const made = await v2.post("/account/secrets", { name: "keep", value: "v1" });
    const id = made.body.id as string;
    expect(expectProblem(await v2.patch(`/account/secrets/${id}`, {}), 422).detail).toMatch(/at least one of value, description/);
    expectProblem(await v2.patch(`/account/secrets/${id}`, { name: "renamed" }), 422);
    expect(
      expectProblem(await v2.post("/account/secrets", { name: "big", value: "v", description: "é".repeat(32_768) }), 400).detail,
    ).toMatch(/65535 bytes/);
  });

  it("a PATCH of value and description is not atomic: a failing description leaves the new value in force", async () => {
    const made = await v2.post("/account/secrets", { name: "nonatomic", value: "old" });
    const id = made.body.id as string;
    await new Promise((r) => setTimeout(r, 20));
    const failed = expectProblem(await v2.patch(`/account/secrets/${id}`, { value: "new", description: "é".repeat(40_000) }), 400);
    expect(failed.detail).toMatch(/new value was written before the description failed/);
    const after = (await v2.get(`/account/secrets/${id}`)).body;
    expect(after.valueLastUpdatedAt > made.body.valueLastUpdatedAt).toBe(true);
    expect(after.description).toBeNull();
    // The value in force is the new one: a pod booting now receives it.
    const pod = await v2.post("/pods", { ...V2_GPU_POD, name: "reads nonatomic", env: { S: "{{ GPUCLOUD_SECRET_nonatomic }}" } });
    expect(emu.inspect()[0]?.podBootEnv[pod.body.id]?.S).toBe("new");
    await v2.del(`/pods/${pod.body.id}`);
  });

  it("resolves placeholders when a pod boots: the stored env keeps them, a rotation reaches only the next boot, a deleted secret stays literal", async () => {
    const secret = await v2.post("/account/secrets", { name: "db_password", value: "first" });
    const env = {
      A: "{{ GPUCLOUD_SECRET_db_password }}",
      B: "{{GPUCLOUD_SECRET_DB_PASSWORD}}",
      C: "x-{{  GPUCLOUD_SECRET_db_password\t}}-y",
      D: "{{ GPUCLOUD_SECRET_missing }}",
      E: "plain",
    };
    const pod = await v2.post("/pods", { ...V2_GPU_POD, name: "with secrets", env });
    expect(pod.status).toBe(201);
    const podId = pod.body.id as string;
    expect(pod.body.env).toMatchObject(env);
    expect((await v2.get(`/pods/${podId}`)).body.env).toMatchObject(env);
    const bootEnv = () => emu.inspect().find((a) => a.pods.some((p) => p.id === podId))?.podBootEnv[podId];
    expect(bootEnv()).toMatchObject({ A: "first", B: "first", C: "x-first-y", D: "{{ GPUCLOUD_SECRET_missing }}", E: "plain" });

    await v2.patch(`/account/secrets/${secret.body.id}`, { value: "second" });
    expect(bootEnv()?.A).toBe("first");
    await waitForStatus(v2, podId, "RUNNING");
    expect((await v2.post(`/pods/${podId}/action`, { action: "restart" })).status).toBe(200);
    expect(bootEnv()?.A).toBe("second");

    await v2.del(`/account/secrets/${secret.body.id}`);
    await waitForStatus(v2, podId, "RUNNING");
    expect((await v2.post(`/pods/${podId}/action`, { action: "restart" })).status).toBe(200);
    expect(bootEnv()?.A).toBe("{{ GPUCLOUD_SECRET_db_password }}");
    await v2.del(`/pods/${podId}`);
  });

  it("a pod made from a template with a placeholder boots with the value; the template keeps the placeholder", async () => {
    await v2.post("/account/secrets", { name: "tpl_secret", value: "from-template" });
    const template = await v2.post("/templates", {
      name: "tpl with secret",
      image: "example/app:1",
      env: { T: "{{ GPUCLOUD_SECRET_tpl_secret }}" },
    });
    expect(template.status).toBe(201);
    const pod = await v2.post("/pods", {
      name: "from tpl",
      templateId: template.body.id,
      gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
    });
    expect(pod.status).toBe(201);
    expect(emu.inspect()[0]?.podBootEnv[pod.body.id]?.T).toBe("from-template");
    expect((await v2.get(`/templates/${template.body.id}`)).body.env).toEqual({ T: "{{ GPUCLOUD_SECRET_tpl_secret }}" });
    await v2.del(`/pods/${pod.body.id}`);
  });
});

it("an external worker process really holds the secret's value in its environment", async () => {
  const logDir = mkdtempSync(join(tmpdir(), "v2-account-"));
  const emu = await startTestEmulator({
    workers: { "sh/env": "sh -c 'echo got=$MY_TOKEN; sleep 30'" },
    serverless: { workerLogDir: logDir },
  });
  try {
    const v2 = apiV2(emu);
    await v2.post("/account/secrets", { name: "token", value: "s3cret-value" });
    const endpoint = await v2.post("/serverless", {
      ...V2_QUEUE_ENDPOINT,
      image: "sh/env:1",
      env: { MY_TOKEN: "{{ GPUCLOUD_SECRET_token }}" },
      workers: { min: 1, max: 1 },
    });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.env).toMatchObject({ MY_TOKEN: "{{ GPUCLOUD_SECRET_token }}" });
    const output = await waitFor(
      "the worker's output",
      async () => {
        const log = emu
          .inspect()
          .flatMap((a) => a.workerLogs)
          .find((l) => l.endpointId === endpoint.body.id);
        const text = log && existsSync(log.path) ? readFileSync(log.path, "utf8") : "";
        return text.includes("got=") ? text : undefined;
      },
      8000,
    );
    expect(output).toContain("got=s3cret-value");
  } finally {
    await emu.close();
    rmSync(logDir, { recursive: true, force: true });
  }
});

it("--spend-cap and --worker-quota set the limits; bad values are refused naming the flag", async () => {
  const { parseCliArgs } = await import("../../../../emulator/cliArgs");
  expect(parseCliArgs(["--spend-cap", "12.5", "--worker-quota", "7"])).toMatchObject({
    options: { spendCapPerHour: 12.5, serverlessWorkerQuota: 7 },
  });
  expect(() => parseCliArgs(["--spend-cap=-1"])).toThrow(/--spend-cap must be a number of USD >= 0, got "-1"/);
  expect(() => parseCliArgs(["--worker-quota", "2.5"])).toThrow(/--worker-quota must be an integer >= 0, got "2.5"/);
  await expect(startTestEmulator({ spendCapPerHour: Number.NaN })).rejects.toThrow(/spendCapPerHour must be a number >= 0/);
});

it("secrets survive a restart with a state file, and a pod restored as running boots with the value", async () => {
  const dir = mkdtempSync(join(tmpdir(), "v2-account-state-"));
  const statePath = join(dir, "state.json");
  try {
    const first = await startTestEmulator({ statePath });
    const made = await apiV2(first).post("/account/secrets", { name: "kept", value: "kept-value", description: "d" });
    const pod = await apiV2(first).post("/pods", { ...V2_GPU_POD, env: { K: "{{ GPUCLOUD_SECRET_kept }}" } });
    await first.close();
    const second = await startTestEmulator({ statePath });
    try {
      expect((await apiV2(second).get(`/account/secrets/${made.body.id}`)).body).toEqual(made.body);
      expect(second.inspect()[0]?.podBootEnv[pod.body.id]?.K).toBe("kept-value");
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("the spend cap holds on /v1 too: a create or start over it is a 402 naming the cap", async () => {
  const emu = await startTestEmulator({ spendCapPerHour: 1, bootDelayMs: 0 });
  try {
    const v1 = api(emu);
    const first = await v1.post("/pods", GPU_POD);
    expect(first.status).toBe(201);
    const second = await v1.post("/pods", { ...GPU_POD, name: "second" });
    expect(second.status).toBe(402);
    expect(second.body.error).toMatch(/over its spend cap of \$1\.00\/hour/);
    expect((await v1.post(`/pods/${first.body.id}/stop`)).status).toBe(200);
    const other = await v1.post("/pods", { ...GPU_POD, name: "other" });
    expect(other.status).toBe(201);
    const start = await v1.post(`/pods/${first.body.id}/start`);
    expect(start.status).toBe(402);
    expect(start.body.error).toMatch(new RegExp(`starting pod ${first.body.id} `));
  } finally {
    await emu.close();
  }
});
