/**
 * Hostile JSON on every surface: bodies nested thousands of levels deep get a 400 that says so
 * before anything walks them, error messages that echo a value stay short whatever its size, a job
 * accepted with the deepest input allowed can still be read back, and so can a job whose handler
 * returned something JSON cannot render.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJsonBody, tooDeepAt } from "../../../emulator/http/body";
import { describeValue } from "../../../emulator/http/errors";
import { type EmulatorWithEndpoint, call, emulatorWithEndpoint, nestedArrays, nestedObjects } from "./hardening-helpers";

const DEEP = 5000;

let h: EmulatorWithEndpoint;
beforeAll(async () => {
  h = await emulatorWithEndpoint();
});
afterAll(async () => {
  await h.emu.close();
});

function expectDepthError(res: { status: number; text: string }): void {
  expect(res.status).toBe(400);
  expect(res.text).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
  expect(res.text).toContain("flatten the structure");
}

describe(`bodies nested ${DEEP} levels deep`, () => {
  it("/v1 creates and updates answer 400 naming the depth limit", async () => {
    expectDepthError(await call(`${h.emu.apiUrl}/templates`, "POST", `{"name": ${nestedArrays(DEEP)}, "imageName": "x"}`));
    expectDepthError(await call(`${h.emu.apiUrl}/pods`, "POST", `{"name": "p", "env": ${nestedObjects(DEEP)}}`));
    expectDepthError(await call(`${h.emu.apiUrl}/endpoints/${h.endpointId}`, "PATCH", nestedArrays(DEEP)));
  });

  it("/api/v2 answers 400 problem+json naming the depth limit", async () => {
    const res = await call(`${h.emu.apiUrlV2}/templates`, "POST", `{"name": ${nestedObjects(DEEP)}}`);
    expectDepthError(res);
    expect(res.json).toMatchObject({ status: 400, title: "Bad Request" });
  });

  it("the job API answers 400 for a deep input, policy, webhook or s3Config, on /run and /runsync", async () => {
    const base = `${h.emu.serverlessUrl}/${h.endpointId}`;
    for (const route of ["run", "runsync"]) {
      expectDepthError(await call(`${base}/${route}`, "POST", `{"input": ${nestedObjects(DEEP)}}`));
      expectDepthError(await call(`${base}/${route}`, "POST", `{"input": {}, "policy": ${nestedObjects(DEEP)}}`));
      expectDepthError(await call(`${base}/${route}`, "POST", `{"input": {}, "webhook": ${nestedArrays(DEEP)}}`));
      expectDepthError(await call(`${base}/${route}`, "POST", `{"input": {}, "s3Config": ${nestedObjects(DEEP)}}`));
    }
    expectDepthError(await call(`${base}/purge-queue`, "POST", nestedArrays(DEEP)));
  });

  it("brackets inside strings do not count as nesting", async () => {
    const res = await call(
      `${h.emu.serverlessUrl}/${h.endpointId}/runsync`,
      "POST",
      JSON.stringify({ input: { text: "[{".repeat(DEEP) } }),
    );
    expect(res.status).toBe(200);
  });
});

describe("a job with the deepest input allowed", () => {
  it("is accepted, and its /status and /stream answer 200 with the input echoed back", async () => {
    const base = `${h.emu.serverlessUrl}/${h.endpointId}`;
    // The body itself is level 1 and "input" level 2.
    const input = nestedObjects(MAX_JSON_DEPTH - 1);
    const run = await call(`${base}/run`, "POST", `{"input": ${input}}`);
    expect(run.status).toBe(200);
    const { id } = run.json as { id: string };
    let status: { status: number; text: string } = { status: 0, text: "" };
    for (let i = 0; i < 100; i++) {
      status = await call(`${base}/status/${id}`, "GET");
      if (status.status !== 200 || status.text.includes('"COMPLETED"')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status.status).toBe(200);
    expect(status.text).toContain('"COMPLETED"');
    const stream = await call(`${base}/stream/${id}`, "GET");
    expect(stream.status).toBe(200);
    // One level more is refused.
    expectDepthError(await call(`${base}/run`, "POST", `{"input": ${nestedObjects(MAX_JSON_DEPTH)}}`));
  });
});

describe("messages that echo a value stay short", () => {
  it("a 100,000-item array where a string belongs is shown as its first characters", async () => {
    const name = JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i));
    const res = await call(`${h.emu.apiUrl}/templates`, "POST", `{"name": ${name}, "imageName": "x"}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/invalid name: must be a string, got \[0,1,2,.*\.\.\./);
    expect(res.text.length).toBeLessThan(300);
  });

  it("10,000 unknown keys are named by the first few", async () => {
    const body: Record<string, number> = { name: 1 };
    for (let i = 0; i < 10_000; i++) body[`k${i}`] = i;
    const v1 = await call(`${h.emu.apiUrl}/templates`, "POST", JSON.stringify({ ...body, name: "t", imageName: "x" }));
    expect(v1.status).toBe(400);
    expect(v1.text).toContain("(10000 in all)");
    expect(v1.text.length).toBeLessThan(1000);
    const job = await call(`${h.emu.serverlessUrl}/${h.endpointId}/run`, "POST", JSON.stringify({ input: {}, policy: body }));
    expect(job.status).toBe(400);
    expect(job.text).toContain("in all)");
    expect(job.text.length).toBeLessThan(1000);
  });

  it("a deep (but allowed) value in a job's policy is echoed in at most 80 characters", async () => {
    const res = await call(`${h.emu.serverlessUrl}/${h.endpointId}/run`, "POST", `{"input": {}, "policy": {"ttl": ${nestedArrays(100)}}}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/policy\.ttl.*got \[\[\[\[.*\.\.\."/);
    expect(res.text.length).toBeLessThan(300);
  });
});

describe("a handler output JSON cannot render", () => {
  it("is answered with the offending parts replaced, so /status and /stream keep answering 200", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-odd-handler-"));
    const file = path.join(dir, "odd.js");
    fs.writeFileSync(
      file,
      `exports.handler = async (job) => {
        let deep = "bottom";
        for (let i = 0; i < 20000; i++) deep = [deep];
        const cyclic = { name: "loop" };
        cyclic.self = cyclic;
        return { kind: job.input.kind, deep, cyclic, big: 10n ** 30n };
      };`,
    );
    const odd = await emulatorWithEndpoint({ handlers: { "acme/odd": file } }, "acme/odd:1");
    try {
      const base = `${odd.emu.serverlessUrl}/${odd.endpointId}`;
      const run = await call(`${base}/runsync`, "POST", JSON.stringify({ input: { kind: "odd" } }));
      expect(run.status).toBe(200);
      expect(run.text).toContain("nested deeper than");
      expect(run.text).toContain("a reference to itself");
      expect(run.text).toContain('"big":"1000000000000000000000000000000"');
      const { id } = run.json as { id: string };
      expect((await call(`${base}/status/${id}`, "GET")).status).toBe(200);
      expect((await call(`${base}/stream/${id}`, "GET")).status).toBe(200);
    } finally {
      await odd.emu.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the helpers under it", () => {
  it("tooDeepAt counts brackets outside strings only, escaped quotes included", () => {
    expect(tooDeepAt(Buffer.from('{"a": "\\"[[[[[[", "b": [[1]]}'), 3)).toBe(-1);
    expect(tooDeepAt(Buffer.from('{"a": "\\"[[[[[[", "b": [[[1]]]}'), 3)).toBe(25);
    expect(tooDeepAt(Buffer.from(nestedArrays(DEEP)), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH);
  });

  it("parseJsonBody refuses the shortest body one level too deep (short bodies are not scanned)", () => {
    // 2 * (MAX_JSON_DEPTH + 1) bytes: as short as valid JSON that deep can be.
    expect(() => parseJsonBody(Buffer.from(nestedArrays(MAX_JSON_DEPTH + 1)))).toThrow(`more than ${MAX_JSON_DEPTH} levels deep`);
    expect(parseJsonBody(Buffer.from(nestedArrays(MAX_JSON_DEPTH)))).toHaveLength(1);
    expect(() => parseJsonBody(Buffer.from("[".repeat(2 * MAX_JSON_DEPTH + 1)))).toThrow("not valid JSON");
  });

  it("describeValue stops early on huge, deep and cyclic values", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic["self"] = cyclic;
    expect(describeValue(cyclic)).toMatch(/^\{"name":"loop","self":\{"name":"loop","self":.*\.\.\.$/);
    expect(describeValue(JSON.parse(nestedArrays(DEEP)) as unknown)).toBe(`${"[".repeat(77)}...`);
    expect(describeValue("x".repeat(1_000_000))).toHaveLength(80);
    expect(describeValue({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(describeValue(undefined)).toBe("nothing");
  });
});
