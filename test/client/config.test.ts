import { describe, expect, it } from "vitest";
import {
  ConfigError,
  apiVersionOf,
  configuredApiVersion,
  normalizeBaseUrl,
  resolveConnection,
  resolveJobConnection,
  resolveManagementConnection,
} from "../../client/config";

const KEY = "key-from-config-123";
const full = {
  "gpucloud:apiKey": KEY,
  "gpucloud:apiUrl": "http://127.0.0.1:4000/v1",
  "gpucloud:serverlessUrl": "http://127.0.0.1:4000/v2",
};

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveConnection", () => {
  it("reads stack config", () => {
    expect(resolveConnection(full, {})).toEqual({
      apiKey: KEY,
      apiUrl: "http://127.0.0.1:4000/v1",
      serverlessUrl: "http://127.0.0.1:4000/v2",
    });
  });

  it("falls back to GPUCLOUD_* environment variables", () => {
    const env = {
      GPUCLOUD_API_KEY: "env-key",
      GPUCLOUD_API_URL: "https://mgmt.example.test/v1/",
      GPUCLOUD_SERVERLESS_URL: "https://jobs.example.test/v2",
    };
    expect(resolveConnection({}, env)).toEqual({
      apiKey: "env-key",
      apiUrl: "https://mgmt.example.test/v1",
      serverlessUrl: "https://jobs.example.test/v2",
    });
  });

  it("stack config wins over env; empty config values fall through", () => {
    const env = { GPUCLOUD_API_KEY: "env-key", GPUCLOUD_API_URL: "http://env/v1", GPUCLOUD_SERVERLESS_URL: "http://env/v2" };
    const c = resolveConnection({ ...full, "gpucloud:apiUrl": "  " }, env);
    expect(c.apiKey).toBe(KEY);
    expect(c.apiUrl).toBe("http://env/v1");
    expect(c.serverlessUrl).toBe("http://127.0.0.1:4000/v2");
  });

  it("strips trailing slashes", () => {
    expect(resolveConnection({ ...full, "gpucloud:apiUrl": "http://h:1/base/v1//" }, {}).apiUrl).toBe("http://h:1/base/v1");
  });

  it("missing key: says how to set it", () => {
    const e = errorOf(() => resolveConnection({ ...full, "gpucloud:apiKey": undefined }, {}));
    expect(e.message).toContain("pulumi config set --secret gpucloud:apiKey");
    expect(e.message).toContain("GPUCLOUD_API_KEY");
    expect(e.setting).toBe("gpucloud:apiKey");
  });

  it("missing apiUrl: says which settings and points at the emulator", () => {
    const e = errorOf(() => resolveConnection({ "gpucloud:apiKey": KEY }, {}));
    expect(e.message).toContain("gpucloud:apiUrl");
    expect(e.message).toContain("GPUCLOUD_API_URL");
    expect(e.message).toContain("emulator");
    expect(e.message).not.toContain(KEY);
  });

  it("missing serverlessUrl is an error for resolveConnection but not for resolveManagementConnection", () => {
    const partial = { "gpucloud:apiKey": KEY, "gpucloud:apiUrl": "http://h/v1" };
    expect(errorOf(() => resolveConnection(partial, {})).message).toContain("GPUCLOUD_SERVERLESS_URL");
    expect(resolveManagementConnection(partial, {})).toEqual({ apiKey: KEY, apiUrl: "http://h/v1" });
    expect(resolveJobConnection({ "gpucloud:apiKey": KEY, "gpucloud:serverlessUrl": "http://h/v2" }, {})).toEqual({
      apiKey: KEY,
      serverlessUrl: "http://h/v2",
    });
  });

  it("a management URL without /v1 or /v2: names the value, the source and the fix", () => {
    const e = errorOf(() => resolveConnection({ ...full, "gpucloud:apiUrl": "http://127.0.0.1:4000/" }, {}));
    expect(e.message).toBe(
      'stack config gpucloud:apiUrl must be a management API base, ending in /v2 (today\'s API) or /v1 (the earlier one) (got "http://127.0.0.1:4000/"): ' +
        "the emulator's is \"http://127.0.0.1:4000/api/v2\" (the URL it prints as the management API), the service's ends in /v2.",
    );
    expect(e.message).not.toContain(KEY);
  });

  it("the management URL's ending picks the API version", () => {
    const v2 = resolveManagementConnection({}, { GPUCLOUD_API_KEY: "k", GPUCLOUD_API_URL: "http://h/api/v2/" });
    expect(v2.apiUrl).toBe("http://h/api/v2");
    expect(apiVersionOf(v2.apiUrl)).toBe("v2");
    expect(apiVersionOf(resolveManagementConnection({}, { GPUCLOUD_API_KEY: "k", GPUCLOUD_API_URL: "http://h/v1" }).apiUrl)).toBe("v1");
    expect(configuredApiVersion({ "gpucloud:apiUrl": "http://h/v2" }, {})).toBe("v2");
    expect(configuredApiVersion({}, { GPUCLOUD_API_URL: "http://h/v1/" })).toBe("v1");
  });

  it("swapped URLs are called out", () => {
    const e = errorOf(() =>
      resolveConnection({}, { GPUCLOUD_API_KEY: "k", GPUCLOUD_API_URL: "http://h/v2", GPUCLOUD_SERVERLESS_URL: "http://h/v1" }),
    );
    expect(e.message).toContain("environment variable GPUCLOUD_SERVERLESS_URL must end in /v2");
    expect(e.message).toContain("swapped");
  });

  it("rejects non-URLs and non-http schemes", () => {
    expect(errorOf(() => normalizeBaseUrl("localhost:4000/v1", "/v1", "gpucloud:apiUrl")).message).toMatch(/http/);
    expect(errorOf(() => normalizeBaseUrl("not a url", "/v1", "gpucloud:apiUrl")).message).toContain('got "not a url"');
    expect(errorOf(() => normalizeBaseUrl("ftp://h/v1", "/v1", "gpucloud:apiUrl")).message).toContain("http or https");
  });

  it("never echoes credentials embedded in a URL", () => {
    const e = errorOf(() => normalizeBaseUrl("http://user:hunter2@h/", "/v1", "gpucloud:apiUrl"));
    expect(e.message).not.toContain("hunter2");
  });
});
