/**
 * createPod's body limit (management-api-v2-today.md 5.2, the POST /v2/pods status table): "`413` |
 * request body over **102,400 bytes**, rejected before auth — also when the body *expanded with the
 * referenced template* exceeds it | shrink env/command values (own or template's)". Other routes
 * keep the surface's 1 MB.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, apiV2, expectProblem } from "../../../support/v2Helpers";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  emu = await startTestEmulator({ rateLimit: { perMinute: 100_000 } });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

const LIMIT = 102_400;

/** A pod body of exactly `bytes` bytes, its size made up by one env value. */
function podBodyOf(bytes: number, extra: Record<string, unknown> = {}): string {
  const shell = { ...V2_GPU_POD, ...extra, env: { BIG: "" } };
  const text = JSON.stringify({ ...shell, env: { BIG: "x".repeat(bytes - Buffer.byteLength(JSON.stringify(shell))) } });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

const post = (client: Api, body: string) => client.raw("POST", "/pods", { headers: { "content-type": "application/json" }, body });

describe("a pod create body over 102,400 bytes", () => {
  it("is a 413 problem before auth (no key, a bad key or a good one), naming the limit and the fix, and not counted", async () => {
    const over = podBodyOf(LIMIT + 1);
    for (const client of [apiV2(emu, null), apiV2(emu, "no-such-key"), v2]) {
      const res = await post(client, over);
      const problem = expectProblem(res, 413);
      expect(problem.detail).toContain("102400 bytes");
      expect(problem.detail).toContain("shrink the env and command values");
      // Refused before the account is known: no rate-limit state on the answer.
      expect(res.headers.get("ratelimit")).toBeNull();
    }
  });

  it("is accepted at exactly 102,400 bytes", async () => {
    expect((await post(v2, podBodyOf(LIMIT, { name: "at-the-limit" }))).status).toBe(201);
  });

  it("other routes keep the surface's limit (a 200 kB template is created)", async () => {
    const res = await v2.post("/templates", { name: "big-tpl", image: "tpl/big:1", env: { BIG: "x".repeat(200_000) } });
    expect(res.status).toBe(201);
  });
});

describe("a pod create body expanded with its template over 102,400 bytes", () => {
  it("is a 413 naming the template and the fix, once the template is known; the same body without it is created", async () => {
    const template = (await v2.post("/templates", { name: "half-tpl", image: "tpl/half:1", env: { TPL: "t".repeat(60_000) } })).body;
    const own = { ...V2_GPU_POD, name: "own-half", env: { OWN: "o".repeat(60_000) } };
    const problem = expectProblem(await v2.post("/pods", { ...own, templateId: template.id }), 413);
    expect(problem.detail).toContain(`template ${template.id}`);
    expect(problem.detail).toContain("102400 bytes");
    expect(problem.detail).toContain("the template it names");
    expect((await v2.post("/pods", own)).status).toBe(201);
    // A body key the template also has replaces it, so the expansion is counted once.
    const overriding = { ...V2_GPU_POD, name: "overrides", env: { TPL: "o".repeat(60_000) }, templateId: template.id };
    expect((await v2.post("/pods", overriding)).status).toBe(201);
  });

  it("counts the template's command too", async () => {
    const long = ["python", "-c", "p".repeat(LIMIT)];
    const template = (await v2.post("/templates", { name: "cmd-tpl", image: "tpl/cmd:1", cmd: long })).body;
    const problem = expectProblem(await v2.post("/pods", { name: "cmd-pod", templateId: template.id, gpu: { id: "NVIDIA A40" } }), 413);
    expect(problem.detail).toContain(`template ${template.id}`);
  });
});
