/**
 * A load-balancing endpoint through the real engine against the emulator: a serverless Template,
 * an Endpoint with type LOAD_BALANCER (scalerType REQUEST_COUNT, workersMin 1) and a JobRunner whose
 * HTTP cases hit the built-in echo worker. The stack uses the v2 API, where the type is the
 * service's own field: the service stores the declared name as it is (no " -lb" marker), and
 * preview and refresh find nothing to change, also after a rename. Smoke tests that fail (an unmet expectation; a user server module
 * answering 500) fail `pulumi up` with the request, the status and the response in the message.
 * Changing `type` plans a replacement; LOAD_BALANCER with scalerType QUEUE_DELAY fails at preview.
 */
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ManagementClient } from "../../client/management";
import { ManagementClientV2 } from "../../client/managementV2";
import type { JobRunnerCaseResult, JobRunnerHttpCase } from "../../sdk/index";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";
import { accountOf, emulatorConfig, loadSdk, marker, resourceOfType } from "./provider-support";

const gpucloud = loadSdk();

const STATUS_SERVER_IMAGE = "acme/lb-status-server:1";
const RUN_TYPE = "pulumi-nodejs:dynamic/gpucloud:SmokeTest";
const ENDPOINT_TYPE = "pulumi-nodejs:dynamic/gpucloud:Endpoint";

/** What the program declares; each step changes it and runs the engine again. */
interface Phase {
  endpointName: string;
  type: "QUEUE" | "LOAD_BALANCER";
  scalerType: "QUEUE_DELAY" | "REQUEST_COUNT";
  cases: JobRunnerHttpCase[];
  /** Adds a second LB endpoint running the user server module, gated by these cases. */
  userServerCases?: JobRunnerHttpCase[] | undefined;
}

const PASSING_CASES: JobRunnerHttpCase[] = [
  {
    name: "generate",
    request: { method: "POST", path: "/v1/generate", body: { prompt: "hello", max_tokens: 8 } },
    expect: { bodySubset: { method: "POST", path: "/v1/generate", body: { prompt: "hello" } } },
    timeoutSeconds: 60,
  },
  {
    name: "health",
    request: { path: "/ping?probe=smoke", headers: { "x-smoke": "1" } },
    expect: {
      status: 200,
      bodyPredicates: [
        { path: "query.probe", op: "equals", value: "smoke" },
        { path: "headers.x-smoke", op: "equals", value: "1" },
      ],
      bodyContains: '"method":"GET"',
    },
    timeoutSeconds: 60,
  },
];

describe("a load-balancing endpoint through the real engine", { timeout: 300_000 }, () => {
  const tag = marker();
  const phase: Phase = { endpointName: `lb-chat-${tag}`, type: "LOAD_BALANCER", scalerType: "REQUEST_COUNT", cases: PASSING_CASES };

  let emulator: RunningEmulator;
  let engine: EngineStack;
  let client: ManagementClient;
  let clientV2: ManagementClientV2;

  beforeAll(async () => {
    emulator = await startEmulator({
      timeScale: 0.02,
      handlers: { [STATUS_SERVER_IMAGE]: path.join(__dirname, "..", "support", "fixtures", "lb-status-server.cjs") },
    });
    client = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey: emulator.apiKey, maxRetries: 0 });
    clientV2 = new ManagementClientV2({ baseUrl: emulator.apiUrlV2, apiKey: emulator.apiKey, maxRetries: 0 });
    engine = await createEngineStack({
      projectName: "lb-endpoint",
      // Load-balancing endpoints are native on the v2 API (refused on v1).
      config: emulatorConfig(emulator, emulator.apiKey, "v2"),
      program: async () => {
        const template = new gpucloud.Template("server", {
          name: `lb-server-${tag}`,
          imageName: "example/http-server:1.0",
          isServerless: true,
          env: { PORT: "8000", PORT_HEALTH: "8001", HEALTH_CHECK_PATH: "/ping" },
        });
        const endpoint = new gpucloud.Endpoint("chat", {
          templateId: template.id,
          name: phase.endpointName,
          type: phase.type,
          scalerType: phase.scalerType,
          scalerValue: 2,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 1,
          workersMax: 2,
        });
        const smoke = new gpucloud.JobRunner("smoke", { endpoint, template, cases: phase.cases });
        if (phase.userServerCases) {
          const userTemplate = new gpucloud.Template("user-server", {
            name: `lb-user-server-${tag}`,
            imageName: STATUS_SERVER_IMAGE,
            isServerless: true,
          });
          const userEndpoint = new gpucloud.Endpoint("user", {
            templateId: userTemplate.id,
            name: `lb-user-${tag}`,
            type: "LOAD_BALANCER",
            scalerType: "REQUEST_COUNT",
            workersMin: 1,
            workersMax: 1,
          });
          new gpucloud.JobRunner("user-smoke", { endpoint: userEndpoint, template: userTemplate, cases: phase.userServerCases });
        }
        return { endpointId: endpoint.id, endpointName: endpoint.name, endpointType: endpoint.type, results: smoke.results };
      },
    });
  });

  afterAll(async () => {
    try {
      if (engine && accountOf(emulator).endpoints.length > 0) await engine.stack.destroy().catch(() => undefined);
    } finally {
      await engine?.dispose();
      await client?.close();
      await clientV2?.close();
      await emulator?.close();
    }
  });

  /** The endpoint's id in the state. */
  async function endpointIdInState(name = "chat"): Promise<string | undefined> {
    return declaredResources(await engine.exportState()).find((r) => r.type === ENDPOINT_TYPE && r.urn.endsWith(`::${name}`))?.id;
  }

  /** The name and type the service holds for an endpoint (read through the v2 API: no marker involved). */
  async function stored(endpointId: string | undefined): Promise<{ name: string | undefined; type: string | undefined }> {
    const endpoint = await clientV2.endpoints.get(endpointId ?? "");
    return { name: endpoint.name, type: endpoint.type };
  }

  /** Runs `up`, expects it to fail, and returns the error's message. */
  async function failingUp(): Promise<string> {
    let thrown: unknown;
    try {
      await engine.stack.up();
    } catch (error) {
      thrown = error;
    }
    expect(thrown, "pulumi up should have failed").toBeInstanceOf(Error);
    return (thrown as Error).message;
  }

  /** The engine's planned operation and changed properties per resource name, for one preview. */
  /** The engine's planned steps per resource name (a replacement is several steps), for one preview. */
  async function previewPlan(): Promise<{ summary: Record<string, number>; ops: Record<string, string>; stdout: string }> {
    const steps: Record<string, string[]> = {};
    const preview = await engine.stack.preview({
      onEvent: (event: EngineEvent) => {
        const meta = event.resourcePreEvent?.metadata;
        if (meta) {
          const name = meta.urn.split("::").pop() ?? meta.urn;
          steps[name] = [...(steps[name] ?? []), meta.op];
        }
      },
    });
    const ops = Object.fromEntries(Object.entries(steps).map(([name, list]) => [name, list.join(",")]));
    return { summary: preview.changeSummary as Record<string, number>, ops, stdout: preview.stdout };
  }

  /** Every resource but the smoke-test runs (the stack, provider, template, endpoint, runner) is planned "same". */
  function expectSameExceptRuns(ops: Record<string, string>): void {
    const planned = Object.entries(ops).filter(([name]) => !name.endsWith("-run"));
    expect(planned.map(([name]) => name)).toEqual(expect.arrayContaining(["server", "chat", "smoke"]));
    expect(Object.fromEntries(planned)).toEqual(Object.fromEntries(planned.map(([name]) => [name, "same"])));
  }

  it("deploys the endpoint as LOAD_BALANCER and runs the HTTP smoke tests against its worker", async () => {
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    // Stack, Template, Endpoint, the JobRunner component and its run.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });

    const endpointId = up.outputs["endpointId"]?.value as string;
    expect(endpointId).toEqual(await endpointIdInState());
    expect(up.outputs["endpointName"]?.value).toBe(phase.endpointName);
    expect(up.outputs["endpointType"]?.value).toBe("LOAD_BALANCER");
    // The service made a load-balancing endpoint under the declared name.
    expect(await stored(endpointId)).toEqual({ name: phase.endpointName, type: "LOAD_BALANCER" });
    const live = await client.getEndpoint(endpointId, { includeWorkers: true });
    expect(live).toMatchObject({ name: phase.endpointName, scalerType: "REQUEST_COUNT", workersMin: 1 });
    const workerIds = (live.workers ?? []).map((w) => w.id);
    expect(workerIds.length).toBeGreaterThanOrEqual(1);

    const results = up.outputs["results"]?.value as JobRunnerCaseResult[];
    expect(results.map((r) => [r.name, r.target, r.status, r.httpStatus, r.passed, r.problems])).toEqual([
      ["generate", "POST /v1/generate", "HTTP 200", 200, true, []],
      ["health", "GET /ping?probe=smoke", "HTTP 200", 200, true, []],
    ]);
    const [generate, health] = results;
    // The echo worker's answer is the output: what reached the worker's own server.
    expect(generate?.output).toMatchObject({ method: "POST", path: "/v1/generate", body: { prompt: "hello", max_tokens: 8 } });
    expect(health?.output).toMatchObject({ method: "GET", path: "/ping", query: { probe: "smoke" } });
    for (const r of results) {
      expect(r.workerId).toMatch(/^[0-9a-z]{13}$/);
      expect(workerIds).toContain(r.workerId);
      expect(r.executionTime).toEqual(expect.any(Number));
      expect(r.jobId).toBeUndefined();
    }

    // The state holds the declared name and the type, never the marker.
    const state = await engine.exportState();
    const endpointState = resourceOfType(declaredResources(state), "Endpoint");
    expect(endpointState?.outputs).toMatchObject({ name: phase.endpointName, type: "LOAD_BALANCER" });
    expect(state.raw).not.toContain(`${phase.endpointName} -lb`);
    expect((await engine.exportState()).resources.find((r) => r.type === RUN_TYPE)?.outputs?.["results"]).toEqual(results);
    // The cases went where the endpoint's v2 requestUrls say (the emulator's path form of the base).
    expect(declaredResources(state).find((r) => r.type === RUN_TYPE)?.outputs?.["requestBase"]).toBe(
      `${emulator.serverlessUrl}/${endpointId}`,
    );
  });

  it("plans nothing for the endpoint or the template afterwards, and refresh finds no drift (the marker causes no diff)", async () => {
    const plan = await previewPlan();
    expectSameExceptRuns(plan.ops);
    expect(plan.stdout).not.toMatch(/gpucloud:Endpoint\s+chat\s+(update|replace)/);

    const refresh = await engine.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
    const endpointState = resourceOfType(declaredResources(await engine.exportState()), "Endpoint");
    expect(endpointState?.outputs).toMatchObject({ name: phase.endpointName, type: "LOAD_BALANCER" });
    expect(endpointState?.inputs).toMatchObject({ name: phase.endpointName, type: "LOAD_BALANCER" });

    const again = await previewPlan();
    expectSameExceptRuns(again.ops);
  });

  it("`pulumi preview --expect-no-changes` passes after an up", async () => {
    // The whole stack, the smoke-test run included: its revision digest over the endpoint's and the
    // template's outputs must come out the same in a preview as in the up that recorded it.
    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 5 });
  });

  it("renames in place: the endpoint stays load-balancing, and the next preview plans nothing for it", async () => {
    const before = await endpointIdInState();
    phase.endpointName = `lb-chat-renamed-${tag}`;
    const plan = await previewPlan();
    expect(plan.ops["chat"]).toBe("update");
    // The engine lists every input that differs: the name only, the cost estimate's figures being the same.
    expect(plan.stdout).toMatch(/gpucloud:Endpoint\s+chat\s+update\s+\[diff: ~name\]/);

    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ update: 2 }); // the endpoint, and its smoke run again
    expect(await endpointIdInState()).toBe(before);
    expect(await stored(before)).toEqual({ name: phase.endpointName, type: "LOAD_BALANCER" });
    const results = up.outputs["results"]?.value as JobRunnerCaseResult[];
    expect(results.map((r) => [r.name, r.httpStatus, r.passed])).toEqual([
      ["generate", 200, true],
      ["health", 200, true],
    ]);
    expect(up.outputs["endpointName"]?.value).toBe(phase.endpointName);

    const after = await previewPlan();
    expectSameExceptRuns(after.ops);
  });

  it("fails the up when an expectation is not met, with the request, the status and the response", async () => {
    const endpointId = await endpointIdInState();
    phase.cases = [{ ...PASSING_CASES[0]!, expect: { status: 201, bodySubset: { method: "POST" } } }];
    let message: string;
    try {
      message = await failingUp();
    } finally {
      phase.cases = PASSING_CASES;
    }
    expect(message).toContain(`smoke tests failed on endpoint ${endpointId}: 1 of 1 case(s) failed`);
    expect(message).toContain(
      'case "generate": POST /v1/generate answered HTTP 200; status is 200, expected 201; response: {"method":"POST","path":"/v1/generate"',
    );
    // The excerpt shows what the worker received, the request body included.
    const response = /response: (\{.*\})\s*$/m.exec(message)?.[1] ?? "";
    expect(response).toContain('"body":{');
    expect(response).toContain('"prompt":"hello"');
    expect(response).toContain('"max_tokens":8');
    expect(engine.output()).toContain("smoke tests failed on endpoint");

    // The failed run kept the last passing verdict.
    const run = declaredResources(await engine.exportState()).find((r) => r.type === RUN_TYPE);
    expect((run!.outputs!["results"] as JobRunnerCaseResult[]).map((r) => r.name)).toEqual(["generate", "health"]);
  });

  it("fails the up when the user's server answers 500, with the server's body in the message", async () => {
    phase.userServerCases = [
      { name: "text", request: { path: "/text" }, expect: { bodyContains: "plain answer" } },
      { name: "generate", request: { method: "POST", path: "/fail/500", body: { prompt: "x" } }, timeoutSeconds: 60 },
    ];
    const message = await failingUp();
    phase.userServerCases = undefined;
    const userEndpointId = await endpointIdInState("user");
    expect(userEndpointId).toBeDefined();
    expect(await stored(userEndpointId)).toEqual({ name: `lb-user-${tag}`, type: "LOAD_BALANCER" });
    expect(message).toContain(`smoke tests failed on endpoint ${userEndpointId}: 1 of 2 case(s) failed`);
    expect(message).toContain('case "generate": POST /fail/500 answered HTTP 500; status is 500, expected 200');
    expect(message).toContain('response: {"error":"the worker answered 500 on purpose","code":500,"method":"POST"}');
    // The passing case is not listed.
    expect(message).not.toContain('case "text"');

    // Fixed: the cases expect what the server answers, and the up passes.
    phase.userServerCases = [
      { name: "text", request: { path: "/text" }, expect: { bodyContains: "plain answer" } },
      { name: "missing", request: { path: "/nope" }, expect: { status: 404, body: "no route for GET /nope" } },
    ];
    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const userRun = declaredResources(await engine.exportState()).find((r) => r.type === RUN_TYPE && r.urn.endsWith("::user-smoke-run"));
    expect((userRun!.outputs!["results"] as JobRunnerCaseResult[]).map((r) => [r.name, r.httpStatus, r.passed, r.output])).toEqual([
      ["text", 200, true, "plain answer from the worker"],
      ["missing", 404, true, "no route for GET /nope"],
    ]);
  });

  it("plans a replacement when `type` changes", async () => {
    phase.userServerCases = undefined;
    const back = await engine.stack.up(); // back to the single endpoint: the user server's are deleted
    expect(back.summary.resourceChanges).toMatchObject({ delete: 4 });
    expect(accountOf(emulator).endpoints).toHaveLength(1);
    const before = await endpointIdInState();

    phase.type = "QUEUE";
    let plan: Awaited<ReturnType<typeof previewPlan>>;
    try {
      plan = await previewPlan();
    } finally {
      phase.type = "LOAD_BALANCER";
    }
    expect(plan.ops["chat"]?.split(",")).toContain("replace");
    expect(plan.ops["server"]).toBe("same");
    expect(plan.summary["replace"]).toBe(1);
    expect(plan.stdout).toMatch(/\+-\s+pulumi-nodejs:dynamic\/gpucloud:Endpoint\s+chat\s+replace\s+\[diff: ~type\]/);
    // A preview changes nothing.
    expect(await endpointIdInState()).toBe(before);
    expect((await stored(before)).type).toBe("LOAD_BALANCER");
  });

  it("fails preview for a LOAD_BALANCER endpoint with scalerType QUEUE_DELAY, naming scalerType", async () => {
    phase.scalerType = "QUEUE_DELAY";
    try {
      await expect(engine.stack.preview()).rejects.toThrow(/scalerType/);
    } finally {
      phase.scalerType = "REQUEST_COUNT";
    }
    expect(engine.output()).toMatch(
      /Endpoint resource 'chat': property scalerType value \{QUEUE_DELAY\} has a problem: scalerType: a load-balancing endpoint scales on requests in flight, so it needs scalerType "REQUEST_COUNT" \(got "QUEUE_DELAY"\)/,
    );
    // Nothing changed on the service.
    expect((await client.getEndpoint((await endpointIdInState()) ?? "")).scalerType).toBe("REQUEST_COUNT");
    const plan = await previewPlan();
    expectSameExceptRuns(plan.ops);
  });
});
