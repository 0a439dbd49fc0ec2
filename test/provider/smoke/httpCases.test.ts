/**
 * Smoke-test cases for load-balancing endpoints (HTTP cases): the case schema, the expectations on
 * an answer (unmetHttpExpectations), one case run against a stubbed client (runHttpCase), and the
 * message that fails `pulumi up` (failureMessage) for an HTTP case.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { makeApiError } from "../../../client/errors";
import { JobClient, type EndpointHttpRequest, type EndpointHttpResponse } from "../../../client/jobClient";
import { casesSchema, HTTP_METHODS, httpCaseSchema, isHttpCase, type HttpCase, type SmokeCase } from "../../../provider/smoke/caseSchema";
import { failureMessage } from "../../../provider/smoke/report";
import { runHttpCase, unmetHttpExpectations } from "../../../provider/smoke/runHttpCase";
import type { CaseResult } from "../../../model/components/caseResult";

/** Issues as "path: message" lines ("(root)" for the top). */
function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(root)"}: ${i.message}`);
}

describe("httpCaseSchema", () => {
  it("accepts a minimal case and a full one", () => {
    expect(issuesOf(httpCaseSchema, { name: "ping", request: { path: "/ping" } })).toEqual([]);
    const full = {
      name: "generate",
      request: { method: "POST", path: "/v1/generate?stream=false", headers: { "x-trace": "1" }, body: { prompt: "hi" } },
      expect: {
        status: 201,
        body: { ok: true },
        bodySubset: { ok: true },
        bodyPredicates: [{ path: "ok", op: "equals", value: true }],
        bodyContains: "ok",
      },
      timeoutSeconds: 60,
    };
    expect(issuesOf(httpCaseSchema, full)).toEqual([]);
    expect(httpCaseSchema.parse(full)).toEqual(full);
  });

  it.each(HTTP_METHODS)("accepts method %s", (method) => {
    expect(issuesOf(httpCaseSchema, { name: "m", request: { method, path: "/" } })).toEqual([]);
  });

  it.each(["ping", "", "v1/generate", "http://host/ping"])("path %j must start with /", (path) => {
    expect(issuesOf(httpCaseSchema, { name: "p", request: { path } })).toEqual(['request.path: path must start with "/", e.g. "/ping"']);
  });

  it("a missing path is named at request.path", () => {
    expect(issuesOf(httpCaseSchema, { name: "p", request: {} })).toEqual([
      "request.path: Invalid input: expected string, received undefined",
    ]);
  });

  it.each(["HEAD", "OPTIONS", "get", "CONNECT"])("method %s is refused, listing the valid ones", (method) => {
    expect(issuesOf(httpCaseSchema, { name: "m", request: { method, path: "/" } })).toEqual([
      `request.method: method must be one of GET, POST, PUT, PATCH, DELETE (got ${JSON.stringify(method)})`,
    ]);
  });

  it.each([99, 600, 0, -200, 1000])("status %d is not an HTTP status", (status) => {
    expect(issuesOf(httpCaseSchema, { name: "s", request: { path: "/" }, expect: { status } })).toEqual([
      "expect.status: status must be an HTTP status (100..599)",
    ]);
  });

  it("status must be an integer number", () => {
    expect(issuesOf(httpCaseSchema, { name: "s", request: { path: "/" }, expect: { status: 200.5 } })).toHaveLength(1);
    expect(issuesOf(httpCaseSchema, { name: "s", request: { path: "/" }, expect: { status: "200" } })[0]).toMatch(/^expect\.status: /);
    expect(issuesOf(httpCaseSchema, { name: "s", request: { path: "/" }, expect: { status: 100 } })).toEqual([]);
    expect(issuesOf(httpCaseSchema, { name: "s", request: { path: "/" }, expect: { status: 599 } })).toEqual([]);
  });

  it("unknown keys are refused at every level, by name", () => {
    expect(issuesOf(httpCaseSchema, { name: "u", request: { path: "/" }, input: {} })).toEqual(['(root): Unrecognized key: "input"']);
    expect(issuesOf(httpCaseSchema, { name: "u", request: { path: "/", query: { a: "1" } } })).toEqual([
      'request: Unrecognized key: "query"',
    ]);
    expect(issuesOf(httpCaseSchema, { name: "u", request: { path: "/" }, expect: { statusCode: 200 } })).toEqual([
      'expect: Unrecognized key: "statusCode"',
    ]);
    // A job case's expectation keys are not HTTP expectation keys.
    expect(issuesOf(httpCaseSchema, { name: "u", request: { path: "/" }, expect: { outputSubset: {} } })).toEqual([
      'expect: Unrecognized key: "outputSubset"',
    ]);
  });

  it("headers are strings; predicates are checked like a job case's", () => {
    expect(issuesOf(httpCaseSchema, { name: "h", request: { path: "/", headers: { "x-n": 1 } } })).toEqual([
      "request.headers.x-n: Invalid input: expected string, received number",
    ]);
    expect(issuesOf(httpCaseSchema, { name: "p", request: { path: "/" }, expect: { bodyPredicates: [{ op: "gt", value: "1" }] } })).toEqual(
      ['expect.bodyPredicates.0.value: op "gt" compares numbers; value must be a number (got "1")'],
    );
  });

  it("name and timeoutSeconds follow the job cases' rules", () => {
    expect(issuesOf(httpCaseSchema, { name: "", request: { path: "/" } })).toEqual(["name: name must not be empty"]);
    expect(issuesOf(httpCaseSchema, { name: "t", request: { path: "/" }, timeoutSeconds: 0 })).toEqual([
      "timeoutSeconds: timeoutSeconds must be greater than 0",
    ]);
    expect(issuesOf(httpCaseSchema, { name: "t", request: { path: "/" }, timeoutSeconds: 3_601 })).toEqual([
      "timeoutSeconds: timeoutSeconds must be at most 3600",
    ]);
  });

  it("casesSchema: a case with `request` is an HTTP case; issues are placed at the case's index", () => {
    const parsed = casesSchema.parse([
      { name: "job", input: { prompt: "x" } },
      { name: "http", request: { path: "/ping" } },
    ]) as SmokeCase[];
    expect(parsed.map((c) => [c.name, isHttpCase(c)])).toEqual([
      ["job", false],
      ["http", true],
    ]);
    expect(
      issuesOf(casesSchema, [
        { name: "ok", request: { path: "/ping" } },
        { name: "bad", request: { path: "ping", method: "HEAD" } },
        { name: "ok", request: { path: "/" } },
      ]),
    ).toEqual([
      '1.request.method: method must be one of GET, POST, PUT, PATCH, DELETE (got "HEAD")',
      '1.request.path: path must start with "/", e.g. "/ping"',
      '2.name: case name "ok" is used twice; names must be unique',
    ]);
  });
});

/** An answer as JobClient.request gives it, with `body` as runHttpCase computes it. */
function answerOf(
  status: number,
  text: string,
  json?: unknown,
): { answer: { status: number; text: string; json: unknown }; body: unknown } {
  return { answer: { status, text, json }, body: json !== undefined ? json : text };
}

function jsonAnswer(status: number, value: unknown) {
  return answerOf(status, JSON.stringify(value), value);
}

describe("unmetHttpExpectations", () => {
  const echo = { method: "POST", path: "/v1/generate", query: {}, body: { prompt: "hi", n: 2 }, tokens: ["a", "b"] };

  it("with no expectation, a 200 passes and anything else fails on the status", () => {
    const ok = jsonAnswer(200, echo);
    expect(unmetHttpExpectations(ok.answer, ok.body)).toEqual([]);
    expect(unmetHttpExpectations(ok.answer, ok.body, {})).toEqual([]);
    for (const status of [201, 204, 404, 500]) {
      const a = answerOf(status, "");
      expect(unmetHttpExpectations(a.answer, a.body)).toEqual([`status is ${status}, expected 200`]);
    }
  });

  it("an expected non-200 status passes on it and fails on 200", () => {
    const notFound = answerOf(404, "no such model");
    expect(unmetHttpExpectations(notFound.answer, notFound.body, { status: 404 })).toEqual([]);
    const ok = answerOf(200, "");
    expect(unmetHttpExpectations(ok.answer, ok.body, { status: 404 })).toEqual(["status is 200, expected 404"]);
  });

  it("body: deep equality on the JSON body, or on the text when it is not JSON", () => {
    const a = jsonAnswer(200, { ok: true, items: [1, 2] });
    expect(unmetHttpExpectations(a.answer, a.body, { body: { ok: true, items: [1, 2] } })).toEqual([]);
    expect(unmetHttpExpectations(a.answer, a.body, { body: { ok: true, items: [2, 1] } })).toEqual([
      'body is not equal to the expected {"ok":true,"items":[2,1]}',
    ]);
    // Exact: a subset is not enough.
    expect(unmetHttpExpectations(a.answer, a.body, { body: { ok: true } })).toEqual(['body is not equal to the expected {"ok":true}']);
    const text = answerOf(200, "pong");
    expect(unmetHttpExpectations(text.answer, text.body, { body: "pong" })).toEqual([]);
    expect(unmetHttpExpectations(text.answer, text.body, { body: "ping" })).toEqual(['body is not equal to the expected "ping"']);
  });

  it("bodySubset: keys and array items of the JSON body; the first mismatch is named by its path", () => {
    const a = jsonAnswer(200, echo);
    expect(unmetHttpExpectations(a.answer, a.body, { bodySubset: { method: "POST", path: "/v1/generate" } })).toEqual([]);
    expect(unmetHttpExpectations(a.answer, a.body, { bodySubset: { body: { prompt: "hi" }, tokens: ["b"] } })).toEqual([]);
    expect(unmetHttpExpectations(a.answer, a.body, { bodySubset: { method: "GET" } })).toEqual(['body.method is "POST", expected "GET"']);
    expect(unmetHttpExpectations(a.answer, a.body, { bodySubset: { body: { model: "x" } } })).toEqual(["body.body.model is missing"]);
    expect(unmetHttpExpectations(a.answer, a.body, { bodySubset: { tokens: ["z"] } })).toEqual([
      'body.tokens has no item matching "z" (expected item 0)',
    ]);
  });

  it("bodySubset on a body that is not JSON fails: there is nothing to match keys in", () => {
    const text = answerOf(200, '{"looks":"like json"} but is text');
    expect(unmetHttpExpectations(text.answer, text.body, { bodySubset: { looks: "like json" } })).toEqual([
      "body is not JSON (bodySubset needs a JSON answer with a JSON content-type); use bodyContains or bodyPredicates for text",
    ]);
    // Nor does an empty answer.
    const empty = answerOf(204, "");
    expect(unmetHttpExpectations(empty.answer, empty.body, { status: 204, bodySubset: {} })).toEqual([
      "body is not JSON (bodySubset needs a JSON answer with a JSON content-type); use bodyContains or bodyPredicates for text",
    ]);
  });

  it("bodyPredicates on a JSON body: paths into it, messages say body rather than output", () => {
    const a = jsonAnswer(200, { choices: [{ text: "hello world" }], usage: { tokens: 12 } });
    const passing = [
      { path: "choices.0.text", op: "contains" as const, value: "world" },
      { path: "usage.tokens", op: "gt" as const, value: 10 },
      { path: "choices", op: "length" as const, value: 1 },
      { path: "usage", op: "type" as const, value: "object" },
      { path: "error", op: "absent" as const },
    ];
    expect(unmetHttpExpectations(a.answer, a.body, { bodyPredicates: passing })).toEqual([]);
    const problems = unmetHttpExpectations(a.answer, a.body, {
      bodyPredicates: [
        { path: "usage.tokens", op: "lt", value: 5 },
        { path: "model", op: "exists" },
        { path: "choices.0.text", op: "matches", value: "^bye" },
      ],
    });
    expect(problems).toEqual([
      "body.usage.tokens is not less (lt 5; actual 12)",
      "body.model is missing",
      'body.choices.0.text does not match (matches "^bye"; actual "hello world")',
    ]);
    for (const p of problems) expect(p).not.toMatch(/^output/);
  });

  it("bodyPredicates on a text body: the whole text is the value", () => {
    const text = answerOf(200, "OK: 3 models loaded");
    expect(
      unmetHttpExpectations(text.answer, text.body, {
        bodyPredicates: [
          { op: "matches", value: "^OK: \\d+ models" },
          { op: "contains", value: "loaded" },
          { op: "type", value: "string" },
        ],
      }),
    ).toEqual([]);
    expect(unmetHttpExpectations(text.answer, text.body, { bodyPredicates: [{ op: "contains", value: "failed" }] })).toEqual([
      'body does not contain it (contains "failed"; actual "OK: 3 models loaded")',
    ]);
    // A path into a text body finds nothing.
    expect(unmetHttpExpectations(text.answer, text.body, { bodyPredicates: [{ path: "status", op: "exists" }] })).toEqual([
      "body.status is missing",
    ]);
  });

  it("bodyContains searches the raw text, JSON bodies included", () => {
    const a = jsonAnswer(200, { message: "model ready" });
    expect(unmetHttpExpectations(a.answer, a.body, { bodyContains: '"message":"model ready"' })).toEqual([]);
    expect(unmetHttpExpectations(a.answer, a.body, { bodyContains: "not ready" })).toEqual(['body does not contain "not ready"']);
    const empty = answerOf(200, "");
    expect(unmetHttpExpectations(empty.answer, empty.body, { bodyContains: "x" })).toEqual(['body does not contain "x"']);
  });

  it("reports every unmet expectation, in order: status, body, bodySubset, bodyPredicates, bodyContains", () => {
    const a = jsonAnswer(500, { error: "CUDA out of memory" });
    expect(
      unmetHttpExpectations(a.answer, a.body, {
        body: { ok: true },
        bodySubset: { ok: true },
        bodyPredicates: [{ path: "ok", op: "equals", value: true }],
        bodyContains: 'ok":true',
      }),
    ).toEqual([
      "status is 500, expected 200",
      'body is not equal to the expected {"ok":true}',
      "body.ok is missing",
      "body.ok is not equal (equals true; actual missing)",
      'body does not contain "ok\\":true"',
    ]);
  });
});

/** A JobClient whose request() answers from a script, recording what it was asked. */
class ScriptedJobClient extends JobClient {
  readonly seen: { endpointId: string; request: EndpointHttpRequest }[] = [];
  constructor(private readonly answer: () => Promise<EndpointHttpResponse>) {
    super({ serverlessUrl: "http://127.0.0.1:9/v2", apiKey: "unused-key" });
  }
  override async request(endpointId: string, request: EndpointHttpRequest): Promise<EndpointHttpResponse> {
    this.seen.push({ endpointId, request });
    return this.answer();
  }
}

describe("runHttpCase", () => {
  const clock = (...times: number[]) => {
    let i = 0;
    return () => times[Math.min(i++, times.length - 1)]!;
  };

  it("sends the case's request (GET by default, timeout from timeoutSeconds) and records the answer", async () => {
    const client = new ScriptedJobClient(async () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      text: '{"method":"POST","path":"/v1/generate"}',
      json: { method: "POST", path: "/v1/generate" },
      workerId: "abcdefghijklm",
    }));
    const testCase: HttpCase = {
      name: "generate",
      request: { method: "POST", path: "/v1/generate", headers: { "x-a": "1" }, body: { prompt: "hi" } },
      expect: { bodySubset: { method: "POST" } },
      timeoutSeconds: 42,
    };
    const result = await runHttpCase(client, "ep-1", testCase, clock(1_000, 1_250));
    expect(client.seen).toEqual([
      {
        endpointId: "ep-1",
        request: { method: "POST", path: "/v1/generate", headers: { "x-a": "1" }, body: { prompt: "hi" }, timeoutMs: 42_000 },
      },
    ]);
    expect(result).toEqual({
      name: "generate",
      target: "POST /v1/generate",
      status: "HTTP 200",
      httpStatus: 200,
      output: { method: "POST", path: "/v1/generate" },
      executionTime: 250,
      workerId: "abcdefghijklm",
      passed: true,
      problems: [],
    });

    await runHttpCase(client, "ep-1", { name: "ping", request: { path: "/ping" } });
    expect(client.seen[1]?.request).toMatchObject({ method: "GET", path: "/ping", timeoutMs: 300_000 });
  });

  it("a text answer is the output as text; a failed expectation fails the case with its problems", async () => {
    const client = new ScriptedJobClient(async () => ({
      status: 500,
      headers: { "content-type": "text/plain" },
      text: "Internal Server Error",
      json: undefined,
    }));
    const result = await runHttpCase(client, "ep-1", { name: "health", request: { path: "/health" } }, clock(0, 5));
    expect(result).toMatchObject({
      target: "GET /health",
      status: "HTTP 500",
      httpStatus: 500,
      output: "Internal Server Error",
      passed: false,
      problems: ["status is 500, expected 200"],
    });
    expect(result).not.toHaveProperty("workerId");
  });

  it("no answer at all (a service error) fails the case as NO_ANSWER with the error's message", async () => {
    const error = makeApiError({
      kind: "timeout",
      operation: "EndpointRequest",
      method: "GET",
      url: "/v2/ep-1/slow",
      idempotent: false,
      secrets: [],
    });
    const client = new ScriptedJobClient(async () => {
      throw error;
    });
    const result = await runHttpCase(client, "ep-1", { name: "slow", request: { path: "/slow" } }, clock(0, 7));
    expect(result).toEqual({
      name: "slow",
      target: "GET /slow",
      status: "NO_ANSWER",
      passed: false,
      problems: [`no answer: ${error.message}`],
      executionTime: 7,
    });
  });

  it("an error that is not the service's (a bug) is thrown, not turned into a verdict", async () => {
    const client = new ScriptedJobClient(async () => {
      throw new TypeError("boom");
    });
    await expect(runHttpCase(client, "ep-1", { name: "x", request: { path: "/x" } })).rejects.toThrow("boom");
  });
});

describe("failureMessage for HTTP cases", () => {
  it("names the request, the status, what failed and an excerpt of the response", () => {
    const failed: CaseResult = {
      name: "generate",
      target: "POST /v1/generate",
      status: "HTTP 500",
      httpStatus: 500,
      output: { error: "CUDA error: out of memory", detail: "x".repeat(2_000) },
      workerId: "abcdefghijklm",
      passed: false,
      problems: ["status is 500, expected 200", "body.method is missing"],
    };
    const passed: CaseResult = {
      name: "ping",
      target: "GET /ping",
      status: "HTTP 200",
      httpStatus: 200,
      output: "",
      passed: true,
      problems: [],
    };
    const message = failureMessage("ep-lb", [passed, failed]);
    expect(message).toBeDefined();
    const lines = message!.split("\n");
    expect(lines[0]).toBe("smoke tests failed on endpoint ep-lb: 1 of 2 case(s) failed");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^ {2}- case "generate": POST \/v1\/generate answered HTTP 500; status is 500, expected 200; body\.method is missing; response: \{"error":"CUDA error: out of memory","detail":"x+\.\.\. \(\d+ chars\)$/,
    );
    // The excerpt is bounded; the passing case is not listed; it says response, not output or job.
    expect(message!.length).toBeLessThan(1_000);
    expect(message).not.toContain("ping");
    expect(message).not.toContain("output:");
    expect(message).not.toContain("job ");
  });

  it("a text response is quoted; a case that got no answer shows NO_ANSWER and no response", () => {
    const message = failureMessage("ep", [
      {
        name: "t",
        target: "GET /text",
        status: "HTTP 404",
        httpStatus: 404,
        output: "no route for GET /text",
        passed: false,
        problems: ["status is 404, expected 200"],
      },
      { name: "n", target: "GET /slow", status: "NO_ANSWER", passed: false, problems: ["no answer: EndpointRequest failed: timed out"] },
    ])!;
    expect(message.split("\n").slice(1)).toEqual([
      '  - case "t": GET /text answered HTTP 404; status is 404, expected 200; response: "no route for GET /text"',
      '  - case "n": GET /slow answered NO_ANSWER; no answer: EndpointRequest failed: timed out',
    ]);
  });
});
