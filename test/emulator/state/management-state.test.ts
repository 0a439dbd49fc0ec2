import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { startEmulator } from "../../../emulator";
import { writeFileAtomic } from "../../../emulator/state/stateFile";
import {
  FakeServerless,
  GPU_POD,
  KEY_A,
  KEY_B,
  api,
  createServerlessTemplate,
  sleep,
  startTestEmulator,
  waitForBoot,
} from "../../support/managementHelpers";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "gpucloud-state-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("--state", () => {
  test("resources and billing survive a restart; running pods resume and boot again", async () => {
    const statePath = join(dir, "state.json");
    const first = await startTestEmulator({ statePath });
    const a = api(first, KEY_A);
    const pod = (await a.post("/pods", GPU_POD)).body;
    await waitForBoot(a, pod.id);
    const stopped = (await a.post("/pods", { ...GPU_POD, name: "stopped" })).body;
    await a.post(`/pods/${stopped.id}/stop`);
    const tpl = await createServerlessTemplate(a);
    const endpoint = (await a.post("/endpoints", { templateId: tpl.id, workersMax: 7 })).body;
    const volume = (await a.post("/networkvolumes", { name: "keep", size: 42, dataCenterId: "EU-RO-1" })).body;
    const auth = (await a.post("/containerregistryauth", { name: "creds", username: "u", password: "secret-pw" })).body;
    const bTemplate = (await api(first, KEY_B).post("/templates", { name: "b-only", imageName: "example/b:1" })).body;
    await sleep(50);
    const billedBefore = (await a.get("/billing/pods", { grouping: "podId", podId: pod.id, bucketSize: "year" })).body[0].timeBilledMs;
    const serviceTimeAtClose = first.clock.now();
    await first.close();

    const text = await readFile(statePath, "utf8");
    expect(text).not.toContain("secret-pw");
    expect(text).not.toContain(KEY_A);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    const fake = new FakeServerless();
    // A long boot (1 s real) so that "booting again" is observable however slow the machine is.
    const second = await startTestEmulator({ statePath, serverlessFactory: fake.factory, bootDelayMs: 100_000 });
    try {
      expect(second.clock.now()).toBeGreaterThanOrEqual(serviceTimeAtClose); // service time never runs backwards
      const a2 = api(second, KEY_A);
      const resumed = (await a2.get(`/pods/${pod.id}`)).body;
      expect(resumed).toMatchObject({ id: pod.id, desiredStatus: "RUNNING", name: GPU_POD.name, publicIp: null, portMappings: {} });
      expect((await a2.get(`/pods/${stopped.id}`)).body.desiredStatus).toBe("EXITED");
      expect((await a2.get(`/endpoints/${endpoint.id}`)).body).toMatchObject({ workersMax: 7, templateId: tpl.id });
      expect(fake.changed.map((spec) => spec.id)).toContain(endpoint.id); // the job side learns endpoints again
      expect((await a2.get(`/networkvolumes/${volume.id}`)).body).toEqual(volume);
      expect((await a2.get(`/containerregistryauth/${auth.id}`)).body).toEqual(auth);
      expect((await api(second, KEY_B).get(`/templates/${bTemplate.id}`)).body.name).toBe("b-only");
      expect((await a2.get(`/templates/${bTemplate.id}`)).status).toBe(404);
      // Billing continues from what was recorded (downtime not billed).
      const billedAfter = (await a2.get("/billing/pods", { grouping: "podId", podId: pod.id, bucketSize: "year" })).body[0].timeBilledMs;
      expect(billedAfter).toBeGreaterThanOrEqual(billedBefore);
      // The restored running pod still holds its capacity; ids stay unique.
      expect((await a2.post("/templates", { name: tpl.name, imageName: "x" })).status).toBe(409);
    } finally {
      await second.close();
    }
  });

  test("changes are written without close (debounced) and the file is always complete JSON", async () => {
    const statePath = join(dir, "live.json");
    const emu = await startTestEmulator({ statePath, stateDebounceMs: 10 });
    try {
      const c = api(emu);
      for (let i = 0; i < 20; i++) {
        await c.post("/networkvolumes", { name: `v${i}`, size: i, dataCenterId: "EU-RO-1" });
        const text = await readFile(statePath, "utf8").catch(() => "{}");
        expect(() => JSON.parse(text)).not.toThrow();
      }
      await sleep(50);
      const saved = JSON.parse(await readFile(statePath, "utf8"));
      expect(saved.format).toBe("gpucloud-emulator-state");
      expect(saved.accounts[0].networkVolumes).toHaveLength(20);
    } finally {
      await emu.close();
    }
  });

  test("a generated key is kept in the state file so the printed key keeps working", async () => {
    const statePath = join(dir, "generated.json");
    const first = await startEmulator({ statePath, timeScale: 0.01 });
    await api(first).post("/networkvolumes", { name: "v", size: 1, dataCenterId: "EU-RO-1" });
    await first.close();
    const second = await startEmulator({ statePath, timeScale: 0.01 });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect((await api(second).get("/networkvolumes")).body).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  test("a file that is not a state file is refused with a clear message", async () => {
    const statePath = join(dir, "bad.json");
    await writeFile(statePath, "{ not json");
    await expect(startTestEmulator({ statePath })).rejects.toThrow(/not valid JSON/);
    await writeFile(statePath, JSON.stringify({ hello: "world" }));
    await expect(startTestEmulator({ statePath })).rejects.toThrow(/not an emulator state file/);
  });

  test("an unwritable state path fails startup with the path in the message", async () => {
    // A missing directory is created (see faults-cli.test.ts); a path below a plain file cannot be.
    await writeFile(join(dir, "plain-file"), "x");
    const statePath = join(dir, "plain-file", "state.json");
    await expect(startTestEmulator({ statePath })).rejects.toThrow(/plain-file.*not a directory|not a directory.*plain-file/i);
  });

  test("atomic write: temp file in the same directory, renamed over the target", async () => {
    const target = join(dir, "atomic.json");
    await writeFileAtomic(target, "one");
    await writeFileAtomic(target, "two");
    expect(await readFile(target, "utf8")).toBe("two");
    expect(await readdir(dir)).toEqual(["atomic.json"]);
    // A missing parent directory is created rather than failing with ENOENT.
    await writeFileAtomic(join(dir, "missing-dir", "x.json"), "x");
    expect(await readFile(join(dir, "missing-dir", "x.json"), "utf8")).toBe("x");
  });
});
