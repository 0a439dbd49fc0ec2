import { describe, expect, it } from "vitest";
import { JobRequestError, RUN_PAYLOAD_LIMIT_BYTES, RUNSYNC_PAYLOAD_LIMIT_BYTES, validateJobRequest } from "../../client/jobRequest";

const SEVEN_DAYS_MS = 604_800_000;

function errorOf(request: unknown, route: "run" | "runsync" = "run"): JobRequestError {
  try {
    validateJobRequest(request, route);
  } catch (e) {
    expect(e).toBeInstanceOf(JobRequestError);
    return e as JobRequestError;
  }
  throw new Error(`expected ${JSON.stringify(request)?.slice(0, 100)} to be refused`);
}

/** A request whose JSON (as validateJobRequest measures it) is exactly `bytes` bytes long. */
function requestOfSize(bytes: number): { input: { s: string } } {
  const overhead = Buffer.byteLength(JSON.stringify({ input: { s: "" } }));
  const request = { input: { s: "x".repeat(bytes - overhead) } };
  expect(Buffer.byteLength(JSON.stringify(request))).toBe(bytes);
  return request;
}

describe("validateJobRequest: accepted requests", () => {
  it("a minimal request passes and comes back as parsed", () => {
    expect(validateJobRequest({ input: {} }, "run")).toEqual({ input: {} });
    expect(validateJobRequest({ input: { prompt: "hi", n: [1, 2] } }, "runsync")).toEqual({ input: { prompt: "hi", n: [1, 2] } });
  });

  it("a request with every field passes", () => {
    const request = {
      input: { prompt: "hi" },
      webhook: "https://hooks.example.test/done?token=1",
      policy: { executionTimeout: 600_000, lowPriority: true, ttl: 86_400_000 },
      s3Config: { accessId: "AKIA", accessSecret: "secret", bucketName: "bucket", endpointUrl: "https://s3.example.test" },
    };
    expect(validateJobRequest(request, "run")).toEqual(request);
  });

  it("plain http webhooks are accepted too", () => {
    expect(validateJobRequest({ input: {}, webhook: "http://127.0.0.1:9000/hook" }, "run").webhook).toBe("http://127.0.0.1:9000/hook");
  });

  it("JobRequestError is an Error named JobRequestError", () => {
    const e = errorOf({});
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("JobRequestError");
    expect(String(e)).toMatch(/^JobRequestError: invalid job request/);
  });
});

describe("validateJobRequest: policy bounds", () => {
  it.each([
    ["executionTimeout", 5_000],
    ["executionTimeout", SEVEN_DAYS_MS],
    ["ttl", 10_000],
    ["ttl", SEVEN_DAYS_MS],
  ])("policy.%s = %d (at the edge) is accepted", (field, value) => {
    expect(validateJobRequest({ input: {}, policy: { [field]: value } }, "run").policy).toEqual({ [field]: value });
  });

  it.each([
    ["executionTimeout", 4_999, "policy.executionTimeout must be at least 5000 ms (5 s)"],
    ["ttl", 9_999, "policy.ttl must be at least 10000 ms (10 s)"],
  ])("policy.%s = %d (just under) is refused naming the minimum", (field, value, rule) => {
    const e = errorOf({ input: {}, policy: { [field]: value } });
    expect(e.path).toBe(`policy.${field}`);
    expect(e.message).toBe(`invalid job request at policy.${field}: ${rule} (got ${value})`);
  });

  it.each([
    ["executionTimeout", SEVEN_DAYS_MS + 1],
    ["ttl", SEVEN_DAYS_MS + 1],
  ])("policy.%s = %d (just over 7 days) is refused naming the maximum", (field, value) => {
    const e = errorOf({ input: {}, policy: { [field]: value } });
    expect(e.path).toBe(`policy.${field}`);
    expect(e.message).toBe(`invalid job request at policy.${field}: policy.${field} must be at most 604800000 ms (7 days) (got ${value})`);
  });

  it("the bounds are the same for /run and /runsync", () => {
    expect(errorOf({ input: {}, policy: { ttl: 9_999 } }, "runsync").path).toBe("policy.ttl");
    expect(errorOf({ input: {}, policy: { executionTimeout: SEVEN_DAYS_MS + 1 } }, "runsync").path).toBe("policy.executionTimeout");
  });

  it("fractions of a millisecond are refused", () => {
    const e = errorOf({ input: {}, policy: { executionTimeout: 5_000.5 } });
    expect(e.path).toBe("policy.executionTimeout");
    expect(e.message).toContain("policy.executionTimeout must be a whole number of milliseconds");
    expect(e.message).toContain("5000.5");
  });

  it("a number given as a string is refused, showing the string", () => {
    const e = errorOf({ input: {}, policy: { ttl: "60000" } });
    expect(e.path).toBe("policy.ttl");
    expect(e.message).toMatch(/^invalid job request at policy\.ttl: policy\.ttl must be a number of milliseconds \(got "60000"\)/);
  });

  it("lowPriority must be a boolean", () => {
    const e = errorOf({ input: {}, policy: { lowPriority: "yes" } });
    expect(e.path).toBe("policy.lowPriority");
    expect(e.message).toContain('(got "yes")');
  });
});

describe("validateJobRequest: payload size", () => {
  it("exports the limits in decimal MB, as the service states them: 10 MB for /run, 20 MB for /runsync", () => {
    expect(RUN_PAYLOAD_LIMIT_BYTES).toBe(10_000_000);
    expect(RUNSYNC_PAYLOAD_LIMIT_BYTES).toBe(20_000_000);
  });

  it("/run: exactly 10 MB passes; one byte more is refused with the size, the limit and the fix", () => {
    expect(() => validateJobRequest(requestOfSize(RUN_PAYLOAD_LIMIT_BYTES), "run")).not.toThrow();
    const e = errorOf(requestOfSize(RUN_PAYLOAD_LIMIT_BYTES + 1), "run");
    expect(e.path).toBe("input");
    expect(e.message).toBe(
      `job request is ${RUN_PAYLOAD_LIMIT_BYTES + 1} bytes, over the 10 MB limit of /run; ` +
        "use runSync (20 MB) or pass large data by reference (e.g. s3Config and an object key)",
    );
  });

  it("/runsync takes what /run refuses, up to exactly 20 MB; one byte more is refused", () => {
    expect(() => validateJobRequest(requestOfSize(RUN_PAYLOAD_LIMIT_BYTES + 1), "runsync")).not.toThrow();
    expect(() => validateJobRequest(requestOfSize(RUNSYNC_PAYLOAD_LIMIT_BYTES), "runsync")).not.toThrow();
    const e = errorOf(requestOfSize(RUNSYNC_PAYLOAD_LIMIT_BYTES + 1), "runsync");
    expect(e.path).toBe("input");
    expect(e.message).toBe(
      `job request is ${RUNSYNC_PAYLOAD_LIMIT_BYTES + 1} bytes, over the 20 MB limit of /runsync; ` +
        "pass large data by reference (e.g. s3Config and an object key)",
    );
    expect(e.message).not.toContain("use runSync");
  });

  it("the size is counted in bytes of UTF-8, not characters", () => {
    // 2-byte characters: under the limit in characters, over it in bytes.
    const chars = Math.floor(RUN_PAYLOAD_LIMIT_BYTES / 2) + 10;
    const request = { input: { s: "é".repeat(chars) } };
    expect(JSON.stringify(request).length).toBeLessThan(RUN_PAYLOAD_LIMIT_BYTES);
    const e = errorOf(request, "run");
    expect(e.message).toContain(`job request is ${Buffer.byteLength(JSON.stringify(request))} bytes`);
  });

  it("everything sent counts, not only input", () => {
    const request = { ...requestOfSize(RUN_PAYLOAD_LIMIT_BYTES - 10), webhook: "https://hooks.example.test/x" };
    expect(errorOf(request, "run").message).toMatch(/over the 10 MB limit of \/run/);
  });
});

describe("validateJobRequest: unknown keys", () => {
  it("an unknown top-level key is named, with the keys a request has", () => {
    const e = errorOf({ input: {}, webhok: "https://x.example.test" });
    expect(e.path).toBe("");
    expect(e.message).toContain("unknown key(s) webhok");
    expect(e.message).toContain("a job request has input, webhook, policy and s3Config");
  });

  it("several unknown keys are all named", () => {
    const e = errorOf({ input: {}, a: 1, b: 2 });
    expect(e.message).toContain("unknown key(s) a, b");
  });

  it("an unknown key inside policy is reported at policy", () => {
    const e = errorOf({ input: {}, policy: { timeout: 1_000 } });
    expect(e.path).toBe("policy");
    expect(e.message).toContain("unknown key(s) timeout");
  });

  // Regression test for a fixed defect.
  it("an unknown key inside policy is answered with policy's own keys as the fix", () => {
    const e = errorOf({ input: {}, policy: { timeout: 1_000 } });
    expect(e.message).toMatch(/executionTimeout/);
    expect(e.message).toMatch(/lowPriority/);
    expect(e.message).toMatch(/\bttl\b/);
  });

  it("an unknown key inside s3Config is reported at s3Config", () => {
    const e = errorOf({
      input: {},
      s3Config: { accessId: "a", accessSecret: "s", bucketName: "b", endpointUrl: "https://s3.example.test", region: "eu" },
    });
    expect(e.path).toBe("s3Config");
    expect(e.message).toContain("unknown key(s) region");
  });
});

describe("validateJobRequest: webhook", () => {
  it.each(["ftp://files.example.test/hook", "not a url", "/relative/path", "hooks.example.test/done"])("%s is refused", (webhook) => {
    const e = errorOf({ input: {}, webhook });
    expect(e.path).toBe("webhook");
    expect(e.message).toBe(`invalid job request at webhook: webhook must be an absolute http(s) URL (got ${JSON.stringify(webhook)})`);
  });

  it("a non-string webhook is refused", () => {
    const e = errorOf({ input: {}, webhook: 42 });
    expect(e.path).toBe("webhook");
    expect(e.message).toContain("webhook must be an absolute http(s) URL");
  });
});

describe("validateJobRequest: s3Config", () => {
  const full = { accessId: "AKIA", accessSecret: "secret", bucketName: "bucket", endpointUrl: "https://s3.example.test" };

  it.each(["accessId", "accessSecret", "bucketName", "endpointUrl"] as const)("a missing %s is refused at s3Config.<field>", (field) => {
    const { [field]: _dropped, ...partial } = full;
    const e = errorOf({ input: {}, s3Config: partial });
    expect(e.path).toBe(`s3Config.${field}`);
    expect(e.message).toContain(`at s3Config.${field}`);
  });

  it("only accessId given: the first missing field is named", () => {
    const e = errorOf({ input: {}, s3Config: { accessId: "AKIA" } });
    expect(e.path).toBe("s3Config.accessSecret");
  });

  it.each(["accessId", "accessSecret", "bucketName"] as const)("an empty %s is refused", (field) => {
    const e = errorOf({ input: {}, s3Config: { ...full, [field]: "" } });
    expect(e.path).toBe(`s3Config.${field}`);
    expect(e.message).toBe(`invalid job request at s3Config.${field}: s3Config.${field} must not be empty (got "")`);
  });

  it("endpointUrl must be an absolute URL", () => {
    const e = errorOf({ input: {}, s3Config: { ...full, endpointUrl: "s3.example.test" } });
    expect(e.path).toBe("s3Config.endpointUrl");
    expect(e.message).toBe(
      'invalid job request at s3Config.endpointUrl: s3Config.endpointUrl must be an absolute URL (got "s3.example.test")',
    );
  });

  it("an empty s3Config object is refused", () => {
    expect(errorOf({ input: {}, s3Config: {} }).path).toBe("s3Config.accessId");
  });
});

describe("validateJobRequest: input and the request itself", () => {
  it("a missing input is refused with an example", () => {
    const e = errorOf({ webhook: "https://x.example.test" });
    expect(e.path).toBe("input");
    expect(e.message).toBe('invalid job request at input: input must be an object: the job\'s input, e.g. { prompt: "..." }');
  });

  it.each([[["a", "b"]], ["prompt"], [null], [7]])("input %j is refused, showing the value", (input) => {
    const e = errorOf({ input });
    expect(e.path).toBe("input");
    expect(e.message).toContain("input must be an object");
    expect(e.message).toContain(`(got ${JSON.stringify(input)})`);
  });

  it("a request that is not an object is refused at the root", () => {
    for (const request of [null, "text", [1]]) {
      const e = errorOf(request);
      expect(e.path).toBe("");
      expect(e.message).toMatch(/^invalid job request: /);
    }
  });

  it("long values are shown cut to 80 characters", () => {
    const e = errorOf({ input: {}, webhook: `nope-${"z".repeat(200)}` });
    expect(e.message).toContain(`(got "nope-${"z".repeat(74)}...)`);
    expect(e.message).not.toContain("z".repeat(100));
  });
});
