/**
 * Account secrets through the real engine, with examples/secrets' own program: a pod and an
 * endpoint's worker whose env holds `secret.ref` boot with the value (the emulator resolves the
 * placeholder at boot: `inspect().podBootEnv`, and a real worker process that records its env);
 * a rotation with the documented pattern reaches the pod and the workers after one `up`; the value
 * is in no state file, no line the engine printed and no error; destroy deletes the consumers
 * before the secret.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { program } from "../../examples/secrets/program";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { accountOf } from "./provider-support";

const FIXTURE = path.resolve(__dirname, "fixtures/secret_env_worker.py");
const FIRST = "hf_first-token-9f3c1a77e2";
const SECOND = "hf_second-token-4b8d0e61c5";
const SECRET_NAME = "secrets-dev-HF_TOKEN";

/** The text of every file under dir (the file:// backend's checkpoints, backups and history). */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"));
}

/** Values the workers booted with, by worker id. */
function workerTokens(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".env"))
      .map((f) => [f.slice(0, -4), fs.readFileSync(path.join(dir, f), "utf8")]),
  );
}

async function eventually<T>(read: () => T, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(read())}`);
}

describe("account secrets (examples/secrets), through the real engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let engine: EngineStack;
  let workerDir: string;
  const deletes: string[] = [];

  beforeAll(async () => {
    workerDir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-secret-workers-"));
    emu = await startEmulator({
      timeScale: 0.02,
      workers: { "example/secret-worker": `python3 ${FIXTURE} ${workerDir}` },
      onReply: (event) => {
        if (event.method === "DELETE" && event.status < 300) deletes.push(event.operationId);
      },
    });
    engine = await createEngineStack({
      projectName: "gpucloud-secrets",
      stackName: "dev",
      program: async () => program(),
      config: {
        "gpucloud:apiUrl": { value: emu.apiUrlV2 },
        "gpucloud:serverlessUrl": { value: emu.serverlessUrl },
        "gpucloud:apiKey": { value: emu.apiKey, secret: true },
        "gpucloud-secrets:hfToken": { value: FIRST, secret: true },
        "gpucloud-secrets:workersMin": { value: "1" },
      },
    });
  });

  afterAll(async () => {
    await engine?.stack.destroy().catch(() => undefined);
    await engine?.dispose();
    await emu?.close();
    fs.rmSync(workerDir, { recursive: true, force: true });
  });

  it("a pod and an endpoint worker boot with the value; the configuration holds only the placeholder", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const placeholder = `{{ GPUCLOUD_SECRET_${SECRET_NAME} }}`;
    expect(up.outputs["secretRef"]?.value).toBe(placeholder);
    const account = accountOf(emu);
    const pod = account.pods[0]!;
    expect(pod.env).toMatchObject({ HF_TOKEN: placeholder });
    expect(account.podBootEnv[pod.id]).toMatchObject({ HF_TOKEN: FIRST });
    expect(account.templates.every((t) => t.env?.["HF_TOKEN"] === placeholder)).toBe(true);
    const tokens = await eventually(
      () => workerTokens(workerDir),
      (t) => Object.keys(t).length > 0,
      "a worker to boot",
    );
    expect(Object.values(tokens)).toEqual(Object.values(tokens).map(() => FIRST));
  });

  it("a rotation with the documented pattern reaches the pod and the workers after one up", async () => {
    const before = Object.keys(workerTokens(workerDir));
    await engine.stack.setConfig("gpucloud-secrets:hfToken", { value: SECOND, secret: true });
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ update: expect.any(Number) });
    const account = accountOf(emu);
    const pod = account.pods[0]!;
    expect(account.podBootEnv[pod.id]).toMatchObject({ HF_TOKEN: SECOND });
    // The template changed (SECRET_VERSION): a new release, whose workers boot with the new value.
    const fresh = await eventually(
      () => Object.entries(workerTokens(workerDir)).filter(([id]) => !before.includes(id)),
      (entries) => entries.length > 0,
      "a worker of the new release to boot",
    );
    expect(fresh.map(([, token]) => token)).toEqual(fresh.map(() => SECOND));
  });

  it("the value is in no state file, no line the engine printed, and the state holds it as a secret", async () => {
    const stateDir = path.join(path.dirname(engine.workDir), "state");
    const stored = filesUnder(stateDir);
    expect(stored.some((text) => text.includes(SECRET_NAME))).toBe(true);
    for (const value of [FIRST, SECOND]) {
      expect(stored.filter((text) => text.includes(value))).toEqual([]);
      expect(engine.rawStateFile()).not.toContain(value);
      expect(engine.output()).not.toContain(value);
    }
    const secret = declaredResources(await engine.exportState()).find((r) => r.type === "pulumi-nodejs:dynamic/gpucloud:Secret");
    expect(secret?.outputs).toMatchObject({ name: SECRET_NAME, description: "model hub read token" });
    expect(typeof secret?.outputs?.["valueLastUpdatedAt"]).toBe("string");
    // Marked secret in inputs and outputs (the exported form of a secret is an object, never the string).
    expect(typeof secret?.inputs?.["value"]).toBe("object");
    expect(typeof secret?.outputs?.["value"]).toBe("object");
  });

  it("a failing update does not print the value either", async () => {
    // A name the service reserves: refused at preview, with no value in the message.
    await engine.stack.setConfig("gpucloud-secrets:namePrefix", { value: "GPUCLOUD" });
    await expect(engine.stack.preview()).rejects.toThrow(/starts with GPUCLOUD, a prefix the service reserves/);
    await engine.stack.removeConfig("gpucloud-secrets:namePrefix");
    expect(engine.output()).not.toContain(SECOND);
  });

  it("destroy deletes the consumers (pod, endpoint, template) before the secret", async () => {
    deletes.length = 0;
    const destroy = await engine.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(deletes).toContain("deleteSecret");
    const secretAt = deletes.indexOf("deleteSecret");
    for (const consumer of ["deletePod", "deleteTemplate", "deleteEndpoint"]) {
      expect(deletes.indexOf(consumer), consumer).toBeGreaterThanOrEqual(0);
      expect(deletes.indexOf(consumer), consumer).toBeLessThan(secretAt);
    }
    expect(engine.output()).not.toContain(SECOND);
  });
});
