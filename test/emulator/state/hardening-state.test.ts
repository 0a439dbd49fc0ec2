/**
 * A state file that cannot be written: the change that needed it is answered 503 (never 200) on
 * /v1 and /api/v2, the emulator keeps serving and retries, the CLI says state is not being saved,
 * and after a crash and a restart nothing that was answered 2xx is missing. Temporary files a crash
 * left beside the state file are removed at start.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator, StateStatus } from "../../../emulator";
import { removeStaleTempFiles } from "../../../emulator/state/stateFile";
import { type EmulatorProcess, freePort, startEmulatorProcess } from "../../support/emulatorProcess";
import { KEY_A, api, startTestEmulator, waitFor } from "../../support/managementHelpers";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-state-"));
  dirs.push(dir);
  return dir;
}

/**
 * Makes the state file's directory unusable (it becomes a regular file, so no temporary file can be
 * created in it, even for root) and returns how to put it back.
 */
function breakStateDir(stateDir: string): () => void {
  const aside = `${stateDir}.aside`;
  fs.renameSync(stateDir, aside);
  fs.writeFileSync(stateDir, "not a directory");
  return () => {
    fs.rmSync(stateDir);
    fs.renameSync(aside, stateDir);
  };
}

let emu: RunningEmulator | undefined;
let child: EmulatorProcess | undefined;
afterEach(async () => {
  await emu?.close().catch(() => undefined);
  emu = undefined;
  await child?.kill();
  child = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a failing state write, in process", () => {
  it("answers 503 on /v1 and /api/v2, keeps serving reads, reports the status and recovers by itself", async () => {
    const stateDir = path.join(tempDir(), "state");
    emu = await startTestEmulator({ statePath: path.join(stateDir, "state.json"), stateDebounceMs: 10 });
    const statuses: StateStatus[] = [];
    emu.onStateStatus((status) => statuses.push(status));
    const a = api(emu, KEY_A);
    expect((await a.post("/templates", { name: "before", imageName: "x" })).status).toBe(200);

    const repair = breakStateDir(stateDir);
    const failed = await a.post("/templates", { name: "during", imageName: "x" });
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatch(/could not be saved to the state file/);
    expect(failed.headers.get("retry-after")).toBe("1");
    const v2 = await fetch(`${emu.apiUrlV2}/templates`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "during-v2", image: "x" }),
    });
    expect(v2.status).toBe(503);
    expect(((await v2.json()) as { detail: string }).detail).toMatch(/could not be saved/);
    expect((await a.get("/templates")).status).toBe(200);
    expect(emu.stateStatus()).toMatchObject({ saving: false });
    expect(statuses).toEqual([expect.objectContaining({ saving: false })]);

    repair();
    // The retry (every second) writes the pending changes without any request.
    await waitFor("the state to be saved again", async () => (statuses.at(-1)?.saving ? true : undefined), 15_000);
    expect(emu.stateStatus()).toMatchObject({ saving: true, error: undefined });
    expect((await a.post("/templates", { name: "after", imageName: "x" })).status).toBe(200);
  });

  it("removes temporary files a crash left beside the state file, and nothing else", async () => {
    const dir = tempDir();
    const statePath = path.join(dir, "state.json");
    const stale = [path.join(dir, ".state.json.4242.deadbeef.tmp"), path.join(dir, ".state.json.7.0a1b.tmp")];
    const unrelated = [path.join(dir, ".other.json.4242.deadbeef.tmp"), path.join(dir, "notes.tmp"), path.join(dir, ".state.json.backup")];
    for (const file of [...stale, ...unrelated]) fs.writeFileSync(file, "x");
    expect((await removeStaleTempFiles(statePath)).sort()).toEqual([...stale].sort());
    expect(stale.filter((file) => fs.existsSync(file))).toEqual([]);
    expect(unrelated.filter((file) => fs.existsSync(file))).toEqual(unrelated);
    // And startEmulator does it at start.
    fs.writeFileSync(stale[0] as string, "x");
    emu = await startTestEmulator({ statePath });
    expect(fs.existsSync(stale[0] as string)).toBe(false);
  });
});

describe("durability with a failing state write (the CLI, SIGKILL, restart)", () => {
  it("loses nothing that was answered 2xx, and the CLI says when state is not being saved", async () => {
    const dir = tempDir();
    const stateDir = path.join(dir, "state");
    const statePath = path.join(stateDir, "state.json");
    const port = await freePort();
    child = await startEmulatorProcess({ port, statePath, apiKey: KEY_A });
    const acknowledged: string[] = [];
    const refused: number[] = [];
    const create = async (name: string): Promise<void> => {
      const res = await fetch(`${child?.apiUrl}/templates`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
        body: JSON.stringify({ name, imageName: "x" }),
      });
      const body = (await res.json()) as { id?: string };
      if (res.status >= 200 && res.status < 300) acknowledged.push(String(body.id));
      else refused.push(res.status);
    };
    const burst = (prefix: string) => Promise.all(Array.from({ length: 5 }, (_, i) => create(`${prefix}-${i}`)));

    await burst("before");
    const repair = breakStateDir(stateDir);
    await burst("during");
    expect(refused).toEqual([503, 503, 503, 503, 503]);
    await waitFor("the CLI to report it", async () => (child?.output().includes("state is NOT being saved") ? true : undefined));
    repair();
    await waitFor(
      "the CLI to report recovery",
      async () => (child?.output().includes("state is being saved again") ? true : undefined),
      15_000,
    );
    await burst("after");
    expect(acknowledged).toHaveLength(10);

    await child.kill();
    fs.writeFileSync(path.join(stateDir, ".state.json.99999.cafe.tmp"), "{ torn");
    child = await startEmulatorProcess({ port, statePath, apiKey: KEY_A });
    const listed = (await (await fetch(`${child.apiUrl}/templates`, { headers: { authorization: `Bearer ${KEY_A}` } })).json()) as {
      id: string;
    }[];
    const ids = new Set(listed.map((t) => t.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    expect(fs.readdirSync(stateDir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  }, 40_000);
});
