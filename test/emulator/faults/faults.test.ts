/**
 * Fault injection in the emulator (emulator/faults): the SPEC, each kind of fault on the wire,
 * seeded determinism per route, counts, and switching faults at run time.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import type { ReplyEvent, RunningEmulator } from "../../../emulator";
import { FaultSpecError, formatFaultSpec, parseFaultSpec, toFaultPlan } from "../../../emulator/faults";
import { GPU_POD, KEY_A, api, startTestEmulator } from "../../support/managementHelpers";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(faults: string, onReply?: (event: ReplyEvent) => void): Promise<RunningEmulator> {
  emulator = await startTestEmulator({ faults, ...(onReply ? { onReply } : {}) });
  return emulator;
}

/** One raw request; resolves with the status, or with the socket error's code when there was no answer. */
function rawCall(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status?: number; headers?: Record<string, unknown>; text?: string; error?: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      `${emu.apiUrl}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${KEY_A}`,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(payload);
  });
}

describe("the SPEC", () => {
  test("parses the documented example and prints it back", () => {
    const plan = parseFaultSpec("seed=42;POST /v1/pods:lost=0.2,reset=0.1;*:429=0.05@200ms,500=0.05,latency=0.1@200ms");
    expect(plan).toEqual({
      seed: 42,
      rules: [
        {
          selector: "POST /v1/pods",
          faults: [
            { kind: "lost", probability: 0.2 },
            { kind: "reset", probability: 0.1 },
          ],
        },
        {
          selector: "*",
          faults: [
            { kind: "429", probability: 0.05, durationMs: 200 },
            { kind: "500", probability: 0.05 },
            { kind: "latency", probability: 0.1, durationMs: 200 },
          ],
        },
      ],
    });
    expect(formatFaultSpec(plan)).toBe("seed=42; POST /v1/pods: lost=0.2,reset=0.1; *: 429=0.05@200ms,500=0.05,latency=0.1@200ms");
    expect(parseFaultSpec(formatFaultSpec(plan))).toEqual(plan);
    // Newlines separate clauses too; spacing is free; no seed means 0.
    expect(parseFaultSpec("\n  CreatePod :  503 = 0.5 @ 1.5s \n")).toEqual({
      seed: 0,
      rules: [{ selector: "CreatePod", faults: [{ kind: "503", probability: 0.5, durationMs: 1500 }] }],
    });
  });

  test.each([
    ["*: 418=0.1", /unknown fault kind "418"/],
    ["*: 500=1.5", /probability of 500 must be a number from 0 to 1, got "1.5"/],
    ["*: 500=", /probability of 500/],
    ["*: latency=0.1@fast", /duration "fast" must be a number with ms or s/],
    ["*: reset=0.1@1s", /reset takes no @duration/],
    ["*: 500", /expected KIND=PROBABILITY/],
    ["seed=1; seed=2", /seed is given twice/],
    ["seed=-4", /seed must be an integer/],
    ["just words", /expected SELECTOR: KIND=P/],
    ["*: 500=0.1, 500=0.2", /names 500 twice/],
    ["*:", /lists no faults/],
  ])("rejects %j with a message naming the problem", (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(FaultSpecError);
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  test("a plan object is validated at the edge", () => {
    expect(() => toFaultPlan({ seed: 1, rules: [{ selector: "*", faults: [{ kind: "500", probability: 2 }] }] })).toThrow(
      /rules\.0\.faults\.0\.probability/,
    );
    expect(toFaultPlan({ seed: 3, rules: [] })).toEqual({ seed: 3, rules: [] });
  });

  test("startEmulator refuses selectors that match nothing and odds above 1, naming them", async () => {
    await expect(startTestEmulator({ faults: "POST /v1/pod: 500=0.1" })).rejects.toThrow(/selector "POST \/v1\/pod" matches no operation/);
    await expect(startTestEmulator({ faults: "CreatePod: lost=0.6; *: 500=0.6" })).rejects.toThrow(
      /on POST \/v1\/pods \(CreatePod\) the probabilities of 500=0.6, lost=0.6 add up to 1.200/,
    );
    await expect(startTestEmulator({ faults: "*: 500=0.1" }).then((e) => e.close())).resolves.toBeUndefined();
  });
});

describe("faults on the wire", () => {
  test("429 carries Retry-After and the operation does not run", async () => {
    const emu = await start("seed=1; CreatePod: 429=1@250ms; ListPods: 429=1");
    const res = await rawCall(emu, "POST", "/pods", GPU_POD);
    expect(res.status).toBe(429);
    expect(res.headers?.["retry-after"]).toBe("0.25");
    expect(JSON.parse(res.text ?? "")).toEqual({ error: "injected fault: 429 Too Many Requests on CreatePod", status: 429 });
    expect((await rawCall(emu, "GET", "/pods")).headers?.["retry-after"]).toBe("1");
    expect(emu.inspect().flatMap((a) => a.pods)).toEqual([]);
    expect(emu.faultStats().injected["429"]).toBe(2);
  });

  test("500 and 503 answer JSON errors; the operation does not run", async () => {
    const emu = await start("seed=1; CreatePod: 500=1; CreateNetworkVolume: 503=1@2s");
    const pod = await rawCall(emu, "POST", "/pods", GPU_POD);
    expect(pod.status).toBe(500);
    expect(pod.headers?.["retry-after"]).toBeUndefined();
    const volume = await rawCall(emu, "POST", "/networkvolumes", { name: "v", size: 10, dataCenterId: "EU-RO-1" });
    expect(volume.status).toBe(503);
    expect(volume.headers?.["retry-after"]).toBe("2");
    expect(JSON.parse(volume.text ?? "")).toMatchObject({ status: 503, error: expect.stringContaining("CreateNetworkVolume") });
    expect(emu.inspect().flatMap((a) => [...a.pods, ...a.networkVolumes])).toEqual([]);
  });

  test("latency delays the answer by the given time, and the operation still runs", async () => {
    const emu = await start("seed=1; ListPods: latency=1@150ms");
    const started = Date.now();
    const res = await rawCall(emu, "GET", "/pods");
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(emu.faultStats().injected.latency).toBe(1);
  });

  test("a request a latency fault holds when the emulator closes is cut, and its operation never runs", async () => {
    const replies: ReplyEvent[] = [];
    const emu = await start("seed=1; POST /v1/pods: latency=1@500ms", (e) => replies.push(e));
    const pending = rawCall(emu, "POST", "/pods", GPU_POD);
    await new Promise((resolve) => setTimeout(resolve, 100)); // held by the fault by now
    await emu.close();
    emulator = undefined;
    const res = await pending;
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/ECONNRESET|socket hang up/);
    // Past the fault's delay: the pod was not created on the closed emulator.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(emu.inspect().flatMap((a) => a.pods)).toEqual([]);
    expect(replies).toEqual([]);
  });

  test("reset: the connection is reset before the operation runs; nothing is created", async () => {
    const replies: ReplyEvent[] = [];
    const emu = await start("seed=1; POST /v1/pods: reset=1", (e) => replies.push(e));
    const res = await rawCall(emu, "POST", "/pods", GPU_POD);
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/ECONNRESET|socket hang up/);
    expect(emu.inspect().flatMap((a) => a.pods)).toEqual([]);
    expect(replies).toEqual([]);
    expect(emu.faultStats().injected.reset).toBe(1);
  });

  test("lost: the create happens, the client gets no answer", async () => {
    const replies: ReplyEvent[] = [];
    const emu = await start("seed=1; CreatePod: lost=1", (e) => replies.push(e));
    const res = await rawCall(emu, "POST", "/pods", { ...GPU_POD, name: "lost-one" });
    expect(res.status).toBeUndefined();
    expect(res.error).toMatch(/ECONNRESET|socket hang up/);
    const pods = emu.inspect().flatMap((a) => a.pods);
    expect(pods.map((p) => p.name)).toEqual(["lost-one"]);
    expect(replies).toEqual([
      expect.objectContaining({ operationId: "CreatePod", status: 201, lost: true, body: expect.objectContaining({ name: "lost-one" }) }),
    ]);
    // The rest of the API is untouched: the pod can be read normally.
    expect((await api(emu, KEY_A).get(`/pods/${pods[0]?.id}`)).status).toBe(200);
    expect(emu.faultStats().injected.lost).toBe(1);
  });

  test("lost also swallows a failing operation's answer (a 400 is not sent either)", async () => {
    const emu = await start("seed=1; CreatePod: lost=1");
    const res = await rawCall(emu, "POST", "/pods", { imageName: 42 });
    expect(res.status).toBeUndefined();
    expect(res.error).toBeDefined();
  });

  test("401 is never replaced: faults come after authentication", async () => {
    const emu = await start("seed=1; *: 500=1");
    const res = await api(emu, "not-a-key").get("/pods");
    expect(res.status).toBe(401);
    expect(emu.faultStats().requests).toBe(0);
  });

  test("a keep-alive connection stays usable after an injected error with an unread body", async () => {
    const emu = await start("seed=5; CreatePod: 503=1");
    const client = api(emu, KEY_A);
    for (let i = 0; i < 5; i++) expect((await client.post("/pods", GPU_POD)).status).toBe(503);
    expect((await client.get("/pods")).status).toBe(200);
  });
});

describe("seeds, counts and switching", () => {
  async function statuses(seed: number, calls: number): Promise<number[]> {
    const emu = await startTestEmulator({ faults: `seed=${seed}; ListPods: 500=0.3, 503=0.2; ListTemplates: 429=0.5@0s` });
    try {
      const client = api(emu, KEY_A);
      const out: number[] = [];
      for (let i = 0; i < calls; i++) {
        out.push((await client.get("/pods")).status);
        // Traffic on another route does not shift this route's stream.
        if (i % 3 === 0) await client.get("/templates");
      }
      return out;
    } finally {
      await emu.close();
    }
  }

  test("the same seed gives the same faults per route; another seed others", async () => {
    const a = await statuses(42, 40);
    const b = await statuses(42, 40);
    const c = await statuses(43, 40);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const faulted = a.filter((s) => s !== 200).length;
    // p = 0.5 over 40 calls: well inside 8..32 for any sane generator.
    expect(faulted).toBeGreaterThan(8);
    expect(faulted).toBeLessThan(32);
    expect(new Set(a)).toEqual(new Set([200, 500, 503]));
  });

  test("faultStats counts per kind and per operation; setFaults switches at run time and keeps counts", async () => {
    const emu = await start("seed=9; ListPods: 500=1; ListTemplates: 503=1");
    const client = api(emu, KEY_A);
    await client.get("/pods");
    await client.get("/pods");
    await client.get("/templates");
    await client.get("/endpoints"); // no faults on this route: not counted as a request
    expect(emu.faultStats()).toEqual({
      seed: 9,
      requests: 3,
      injected: {
        ...{ "429": 0, "500": 2, "502": 0, "503": 1, "504": 0, reset: 0, lost: 0, late: 0, land: 0, hidden: 0, latency: 0 },
        ...{ error: 0, fail: 0, crash: 0, slow: 0 },
      },
      byOperation: { ListPods: { "500": 2 }, ListTemplates: { "503": 1 } },
    });
    emu.setFaults(undefined);
    expect((await client.get("/pods")).status).toBe(200);
    expect(emu.faultStats().seed).toBeUndefined();
    emu.setFaults("seed=1; * /v1/pods/{id}: 504=1");
    expect((await client.get("/pods/abc")).status).toBe(504);
    expect((await client.get("/pods")).status).toBe(200);
    expect(emu.faultStats().injected).toMatchObject({ "500": 2, "503": 1, "504": 1 });
    expect(() => emu.setFaults("*: nonsense=1")).toThrow(FaultSpecError);
  });

  test("the first clause naming a kind wins; other kinds still come from later clauses", async () => {
    const emu = await start("seed=2; ListPods: 500=0; *: 500=1, latency=1@20ms");
    const client = api(emu, KEY_A);
    expect((await client.get("/pods")).status).toBe(200);
    expect((await client.get("/templates")).status).toBe(500);
    expect(emu.faultStats().byOperation).toEqual({ ListPods: { latency: 1 }, ListTemplates: { latency: 1, "500": 1 } });
  });

  test("a user routeInterceptor runs first; faults apply when it lets the request through", async () => {
    const seen: string[] = [];
    emulator = await startTestEmulator({
      faults: "seed=1; *: 503=1",
      routeInterceptor: ({ operationId, res }) => {
        seen.push(operationId);
        if (operationId !== "ListPods") return false;
        res.writeHead(418).end();
        return true;
      },
    });
    const client = api(emulator, KEY_A);
    expect((await client.get("/pods")).status).toBe(418);
    expect((await client.get("/templates")).status).toBe(503);
    expect(seen).toEqual(["ListPods", "ListTemplates"]);
  });
});
