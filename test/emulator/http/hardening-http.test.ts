/**
 * Malformed HTTP and oversized bodies over raw TCP: every one gets a complete JSON answer (never an
 * empty body, never a dropped connection), and routes match whole paths.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorWithEndpoint, type RawResponse, emulatorWithEndpoint, rawExchange, rawRequest } from "./hardening-helpers";

let h: EmulatorWithEndpoint;
beforeAll(async () => {
  h = await emulatorWithEndpoint();
});
afterAll(async () => {
  await h.emu.close();
});

function only(responses: readonly RawResponse[]): RawResponse {
  expect(responses).toHaveLength(1);
  return responses[0] as RawResponse;
}

function expectJsonError(res: RawResponse, status: number, message: RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toContain("json");
  const body = JSON.parse(res.body) as { error: string; status: number };
  expect(body).toMatchObject({ status });
  expect(body.error).toMatch(message);
}

describe("malformed HTTP gets a JSON error, then the connection closes", () => {
  const cases: [string, string, number, RegExp][] = [
    ["a garbage request line", "GARBAGE\r\n\r\n", 400, /malformed request line/],
    ["an unknown method", "FROB /v1/pods HTTP/1.1\r\nhost: x\r\n\r\n", 400, /unknown HTTP method/],
    ["a non-numeric Content-Length", "POST /v1/templates HTTP/1.1\r\nhost: x\r\ncontent-length: ten\r\n\r\n", 400, /Content-Length/],
    [
      "two different Content-Lengths",
      "POST /v1/templates HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}",
      400,
      /Content-Length/,
    ],
    [
      "a malformed chunked body",
      "POST /v2/ep/run HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
      400,
      /malformed chunked/,
    ],
    ["a NUL byte in a header", "GET /v1/pods HTTP/1.1\r\nhost: x\r\nx-a: a\0b\r\n\r\n", 400, /invalid character in a header/],
    [
      "headers over 16 KiB",
      `GET /v1/pods HTTP/1.1\r\nhost: x\r\nx-a: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
      /headers are larger than the limit/,
    ],
    ["an unknown HTTP version", "GET /v1/pods HTTP/3.0\r\nhost: x\r\n\r\n", 505, /unsupported HTTP version/],
    ["CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n", 405, /CONNECT is not supported/],
  ];
  for (const [what, bytes, status, message] of cases) {
    it(`${what}: ${status}`, async () => {
      const { responses, socketError } = await rawExchange(h.emu.port, [bytes]);
      expect(socketError).toBeUndefined();
      const res = only(responses);
      expectJsonError(res, status, message);
      expect(res.headers.connection).toBe("close");
    });
  }

  it("a malformed chunked body on an authenticated /v1 create also gets the JSON 400", async () => {
    const head = rawRequest("POST", "/v1/templates", { headers: ["transfer-encoding: chunked"] });
    const { responses } = await rawExchange(h.emu.port, [head, '5\r\n{"a":\r\nnot-a-size\r\n\r\n']);
    expectJsonError(only(responses), 400, /malformed chunked/);
  });
});

describe("an oversized body written in full before reading gets 413 on a connection that stays usable", () => {
  const EIGHT_MIB = 8 * 1024 * 1024;
  const next = rawRequest("GET", "/v1/pods", { close: true });
  const routes: [string, string, number][] = [
    ["/v1", "/v1/templates", EIGHT_MIB],
    ["/api/v2", "/api/v2/templates", EIGHT_MIB],
    ["the job API /run", "/v2/{ep}/run", 12 * 1024 * 1024],
    ["the job API /runsync", "/v2/{ep}/runsync", 21 * 1024 * 1024],
  ];
  for (const [what, path, size] of routes) {
    it(`${what}: ${size} bytes`, async () => {
      const target = path.replace("{ep}", h.endpointId);
      const body = Buffer.alloc(size, 0x61);
      const { responses, socketError } = await rawExchange(h.emu.port, [rawRequest("POST", target, { body: size }), body, next], 15_000);
      expect(socketError).toBeUndefined();
      expect(responses.map((r) => r.status)).toEqual([413, 200]);
      const first = responses[0] as RawResponse;
      expect(first.body).toMatch(/larger than the \d+ MB limit \(\d+ bytes\)/);
    });
  }

  it("a body refused before it was read (unknown route) is drained too", async () => {
    const body = Buffer.alloc(EIGHT_MIB, 0x61);
    const { responses, socketError } = await rawExchange(
      h.emu.port,
      [rawRequest("POST", "/v1/nothing-here", { body: EIGHT_MIB }), body, next],
      15_000,
    );
    expect(socketError).toBeUndefined();
    expect(responses.map((r) => r.status)).toEqual([404, 200]);
  });
});

describe("routes match whole paths", () => {
  it("dot segments and extra segments after a job API route are 404", async () => {
    for (const path of [
      `/v2/${h.endpointId}/health/../../../v1/pods`,
      `/v2/${h.endpointId}/health/extra`,
      `/v2/${h.endpointId}/status/some-job/extra`,
      `/v2/${h.endpointId}/run/x`,
    ]) {
      const method = path.includes("/run/") ? "POST" : "GET";
      const { responses } = await rawExchange(h.emu.port, [
        rawRequest(method, path, { close: true, ...(method === "POST" ? { body: '{"input":{}}' } : {}) }),
      ]);
      const res = only(responses);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).error).toContain("no such path");
    }
  });

  it("extra segments on /v1 and /api/v2 are 404", async () => {
    for (const path of ["/v1/pods/../../v1/pods", "/v1/templates/x/y", "/api/v2/pods/x/y/z"]) {
      const { responses } = await rawExchange(h.emu.port, [rawRequest("GET", path, { close: true })]);
      expect(only(responses).status, path).toBe(404);
    }
  });
});

describe("pipelined requests are answered in order, on every surface", () => {
  const health = (): string => rawRequest("GET", `/v2/${h.endpointId}/health`);
  const surfaces: [string, () => string][] = [
    ["the job API", health],
    ["/v1", () => rawRequest("GET", "/v1/pods")],
    ["/api/v2", () => rawRequest("GET", "/api/v2/pods")],
  ];
  for (const [surface, first] of surfaces) {
    it(`${surface}: two requests, then a malformed one: two answers, then its 400, then the close`, async () => {
      const { responses, socketError } = await rawExchange(h.emu.port, [`${first()}${health()}GARBAGE\r\n\r\n`]);
      expect(socketError).toBeUndefined();
      expect(responses.map((r) => r.status)).toEqual([200, 200, 400]);
      expect(JSON.parse(responses[1]?.body ?? "")).toHaveProperty("jobs");
      expectJsonError(responses[2] as RawResponse, 400, /malformed request line/);
      expect(responses[2]?.headers.connection).toBe("close");
    });
  }

  it("the job API: a health check, then one whose header is malformed: the first is answered, then the 400", async () => {
    const bad = `GET /v2/${h.endpointId}/health HTTP/1.1\r\nhost: x\r\nx-a: a\0b\r\n\r\n`;
    const { responses } = await rawExchange(h.emu.port, [health() + bad]);
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expect(JSON.parse(responses[0]?.body ?? "")).toHaveProperty("workers");
  });

  it("the job API: three health checks on one connection get three whole answers", async () => {
    const { responses } = await rawExchange(h.emu.port, [
      health() + health() + rawRequest("GET", `/v2/${h.endpointId}/health`, { close: true }),
    ]);
    expect(responses.map((r) => [r.status, Object.keys(JSON.parse(r.body) as object)])).toEqual(
      Array.from({ length: 3 }, () => [200, ["jobs", "workers"]]),
    );
  });
});
