import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { parseErrorBody } from "../../client/errorBody";
import {
  ApiError,
  ApiRetiredError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  isAmbiguousFailure,
  isNotFound,
  makeApiError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../../client/errors";
import { redactHeaders, redactText, REDACTED } from "../../client/redact";

const base = { operation: "CreatePod", method: "POST", url: "/v1/pods", idempotent: false } as const;

describe("makeApiError: class per status", () => {
  const table: Array<[number, new (...args: never[]) => ApiError]> = [
    [400, BadRequestError],
    [422, BadRequestError],
    [401, AuthenticationError],
    [402, PaymentRequiredError],
    [403, PermissionDeniedError],
    [410, ApiRetiredError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
  ];
  it.each(table)("%i -> %o", (status, cls) => {
    const e = makeApiError({ ...base, status });
    expect(e).toBeInstanceOf(cls);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe(cls.name);
    expect(e.status).toBe(status);
  });

  it("other statuses are plain ApiError", () => {
    const e = makeApiError({ ...base, status: 418 });
    expect(e.constructor).toBe(ApiError);
    expect(e.message).toBe("CreatePod failed: 418 I'm a Teapot");
  });

  it("kinds map to ConnectionError / TimeoutError / ResponseValidationError with no status", () => {
    expect(makeApiError({ ...base, kind: "connect" })).toBeInstanceOf(ConnectionError);
    expect(makeApiError({ ...base, kind: "connection" })).toBeInstanceOf(ConnectionError);
    const t = makeApiError({ ...base, kind: "timeout", detail: "no complete answer within 30000 ms" });
    expect(t).toBeInstanceOf(TimeoutError);
    expect(t.status).toBeUndefined();
    expect(t.message).toBe("CreatePod failed: no complete answer within 30000 ms (POST /v1/pods)");
    const v = makeApiError({ ...base, status: 200, kind: "invalid_response", detail: "id: Invalid input" });
    expect(v).toBeInstanceOf(ResponseValidationError);
    expect(v.retryable).toBe(false);
    expect(v.message).toContain("id: Invalid input");
  });
});

describe("makeApiError: the live service's refusals say what to do", () => {
  it("a 410 from a /v1 URL says v1 is retired and how to set gpucloud:apiUrl to /v2; elsewhere a 410 is a plain ApiError", () => {
    const e = makeApiError({ ...base, url: "/v1/pods", status: 410, serviceMessage: "Gone" });
    expect(e).toBeInstanceOf(ApiRetiredError);
    expect(e.retryable).toBe(false);
    expect(e.message).toBe(
      "CreatePod failed: 410 Gone: Gone. The service's REST v1 API is retired (the live service answers 410 Gone since 2026-11-15): point the stack at the " +
        "management API v2, i.e. the same origin with /v2 instead of /v1: `pulumi config set gpucloud:apiUrl https://<api host>/v2` " +
        "(or GPUCLOUD_API_URL; the local emulator serves v2 at http://<host>:<port>/api/v2)",
    );
    expect(makeApiError({ ...base, url: "/proxy/v1?x=1", status: 410 })).toBeInstanceOf(ApiRetiredError);
    const v2 = makeApiError({ ...base, url: "/v2/pods", status: 410 });
    expect(v2.constructor).toBe(ApiError);
    expect(v2.message).toBe("CreatePod failed: 410 Gone");
  });

  it("a 403 names the operation and the scope the key lacks, from the problem detail when it names one", () => {
    const named = makeApiError({
      ...base,
      url: "/v2/pods",
      status: 403,
      serviceMessage: 'access denied: createPod (POST /pods) needs the API key scope "pods:write", which this key lacks',
    });
    expect(named.message).toContain(
      '. The API key lacks the scope "pods:write" that CreatePod (POST /v2/pods) needs: use a key with it, or add it to this key in the console',
    );
    const bare = makeApiError({ ...base, url: "/v2/pods", status: 403, serviceMessage: "access denied" });
    expect(bare.message).toBe(
      "CreatePod failed: 403 Forbidden: access denied. The API key is valid but lacks the permission (scope) for CreatePod (POST /v2/pods): use a key whose permissions include it (Read/Write for this API in the console)",
    );
  });

  it("a 402 names the spend cap (the service's figure when it gives one) and says retrying does not help", () => {
    const e = makeApiError({
      ...base,
      url: "/v2/pods",
      status: 402,
      serviceMessage: "spend cap exceeded: ... over its spend cap of $80.00/hour (spendRate, ...)",
    });
    expect(e).toBeInstanceOf(PaymentRequiredError);
    expect(e.retryable).toBe(false);
    expect(e.message).toContain(
      "The service refused to start anything more for the account: its hourly spend cap of $80.00/hour or its balance.",
    );
    expect(e.message).toContain("retrying does not help");
    expect(makeApiError({ ...base, status: 402 }).message).toContain(
      "its hourly spend cap (GET /v2/account/limits, spendRate; $80/hour by default) or its balance",
    );
  });
});

describe("makeApiError: message and fields", () => {
  it("reads 'Operation failed: status reason: service message'", () => {
    const e = makeApiError({ ...base, status: 400, serviceMessage: "gpuCount must be >= 1 (got 0)" });
    expect(e.message).toBe("CreatePod failed: 400 Bad Request: gpuCount must be >= 1 (got 0)");
    expect(e.serviceMessage).toBe("gpuCount must be >= 1 (got 0)");
    expect(e.operation).toBe("CreatePod");
    expect(e.method).toBe("POST");
    expect(e.url).toBe("/v1/pods");
    expect(e.stack?.split("\n")[0]).toBe(`BadRequestError: ${e.message}`);
  });

  it("without a service message there is no trailing colon", () => {
    expect(makeApiError({ ...base, status: 500 }).message).toBe("CreatePod failed: 500 Internal Server Error");
  });

  it("retryable follows the retry policy and idempotency", () => {
    expect(makeApiError({ ...base, status: 503 }).retryable).toBe(false);
    expect(makeApiError({ ...base, status: 503, idempotent: true }).retryable).toBe(true);
    expect(makeApiError({ ...base, status: 429 }).retryable).toBe(true);
    expect(makeApiError({ ...base, status: 404, idempotent: true }).retryable).toBe(false);
  });

  it("RateLimitError carries retryAfterMs", () => {
    const e = makeApiError({ ...base, status: 429, retryAfterMs: 2000 });
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.retryAfterMs).toBe(2000);
  });

  it("isNotFound and isAmbiguousFailure", () => {
    expect(isNotFound(makeApiError({ ...base, status: 404 }))).toBe(true);
    expect(isNotFound(makeApiError({ ...base, status: 400 }))).toBe(false);
    expect(isNotFound(new Error("x"))).toBe(false);
    expect(isAmbiguousFailure(makeApiError({ ...base, status: 500 }))).toBe(true);
    expect(isAmbiguousFailure(makeApiError({ ...base, kind: "timeout" }))).toBe(true);
    expect(isAmbiguousFailure(makeApiError({ ...base, kind: "connection" }))).toBe(true);
    expect(isAmbiguousFailure(makeApiError({ ...base, kind: "connect" }))).toBe(false);
    expect(isAmbiguousFailure(makeApiError({ ...base, status: 400 }))).toBe(false);
    expect(isAmbiguousFailure(makeApiError({ ...base, status: 429 }))).toBe(false);
    expect(isAmbiguousFailure(makeApiError({ ...base, status: 200, kind: "invalid_response" }))).toBe(false);
  });
});

describe("redaction", () => {
  const key = "sk_live_SECRET_1234567890";

  it("the key never appears in message, stack, JSON, inspect or cause", () => {
    const cause = new Error(`socket hang up while sending Authorization: Bearer ${key}`);
    const e = makeApiError({
      ...base,
      status: 401,
      serviceMessage: `invalid key ${key}`,
      url: `/v1/pods?token=${key}`,
      requestId: key,
      cause,
      secrets: [key],
    });
    const views = [e.message, e.stack ?? "", JSON.stringify(e), inspect(e, { depth: 5 }), String(e.cause), e.url, e.serviceMessage ?? ""];
    for (const view of views) expect(view).not.toContain(key);
    expect(e.message).toBe(`CreatePod failed: 401 Unauthorized: invalid key ${REDACTED}`);
    expect(e.url).toBe(`/v1/pods?token=${REDACTED}`);
    expect((e.cause as Error).message).toContain(REDACTED);
  });

  it("the key is scrubbed from network error details", () => {
    const e = makeApiError({ ...base, kind: "connection", detail: `reset (${key})`, secrets: [key] });
    expect(e.message).not.toContain(key);
    expect(JSON.stringify(e)).not.toContain(key);
  });

  it("redactText scrubs bearer tokens even when the value is unknown", () => {
    expect(redactText("Authorization: Bearer abc.def")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('{"authorization":"rawkey"}')).toBe(`{"authorization":"${REDACTED}"}`);
    expect(redactText("nothing here")).toBe("nothing here");
  });

  it("redactHeaders replaces Authorization and scrubs other values", () => {
    expect(redactHeaders({ Authorization: "Bearer x", "x-echo": `k=${key}`, accept: "application/json" }, [key])).toEqual({
      Authorization: REDACTED,
      "x-echo": `k=${REDACTED}`,
      accept: "application/json",
    });
  });
});

describe("parseErrorBody", () => {
  it("reads {error}, {message}, validation lists, plain text and HTML", () => {
    expect(parseErrorBody('{"error":"pod not found","status":404}')).toBe("pod not found");
    expect(parseErrorBody('{"message":"Unauthorized"}')).toBe("Unauthorized");
    expect(parseErrorBody('{"error":{"message":"nested"}}')).toBe("nested");
    expect(parseErrorBody('{"detail":[{"loc":["body","foo"],"msg":"Extra input keys"}]}')).toBe("body.foo: Extra input keys");
    expect(parseErrorBody("upstream connect error")).toBe("upstream connect error");
    expect(parseErrorBody("<html><title>502 Bad Gateway</title></html>")).toBe("502 Bad Gateway");
    expect(parseErrorBody("")).toBeUndefined();
    expect(parseErrorBody('{"unknown":1}')).toBe('{"unknown":1}');
    expect(parseErrorBody("x".repeat(2000))?.length).toBeLessThan(600);
  });
});
