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

/**
 * What is measured: the body as the client sent it, as compact JSON (management-api-v2-today.md 5.2:
 * "request body over **102,400 bytes** [...] also when the body *expanded with the referenced
 * template* exceeds it"), never fields the client did not send, such as the defaults the emulator
 * reads into a request (`cloud`, `globalNetworking`, `gpu.count`, an empty `env`). The expansion
 * adds what the body omits and the template has.
 */
describe("the size a pod create is measured at", () => {
  /** `base` with an env value making its compact JSON exactly `bytes` long. */
  function sized(base: Record<string, unknown>, bytes: number): Record<string, unknown> {
    const shell = { ...base, env: { BIG: "" } };
    const body = { ...base, env: { BIG: "x".repeat(bytes - Buffer.byteLength(JSON.stringify(shell))) } };
    expect(Buffer.byteLength(JSON.stringify(body))).toBe(bytes);
    return body;
  }

  it("is the body as sent: 102,400 bytes naming a template it fully overrides is created, 102,401 refused", async () => {
    const template = (await v2.post("/templates", { name: "overridden-tpl", image: "tpl/overridden:1" })).body;
    // Every setting the template would resolve into, given by the body; no cloud, globalNetworking or gpu.count.
    const base = {
      name: "exact",
      templateId: template.id,
      image: "example/app:1",
      gpu: { id: "NVIDIA A40" },
      disk: 20,
      ports: ["22/tcp"],
      startSsh: false,
      startJupyter: false,
    };
    const created = await v2.post("/pods", sized(base, LIMIT));
    expect(created.status).toBe(201);
    expect(created.body.cloud).toBe("SECURE");
    expectProblem(await post(v2, JSON.stringify(sized({ ...base, name: "exact-over" }, LIMIT + 1))), 413);
  });

  it("adds the template's fields the body omits, and only those", async () => {
    const template = (await v2.post("/templates", { name: "image-only-tpl", image: "tpl/image:1" })).body;
    // The template's image is all it adds: its disk and flags are given, its empty command, ports and env add nothing.
    const base = { name: "no-image", templateId: template.id, gpu: { id: "NVIDIA A40" }, disk: 20, startSsh: false, startJupyter: false };
    const added = Buffer.byteLength(`,"image":${JSON.stringify("tpl/image:1")}`);
    expect((await v2.post("/pods", sized(base, LIMIT - added))).status).toBe(201);
    const problem = expectProblem(await v2.post("/pods", sized({ ...base, name: "no-imagf" }, LIMIT - added + 1)), 413);
    expect(problem.detail).toContain(`template ${template.id} is ${LIMIT + 1} bytes`);
    expect(problem.detail).toContain(`the body itself ${LIMIT - added + 1}`);
  });
});
