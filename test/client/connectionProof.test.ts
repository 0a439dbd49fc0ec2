import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proveConnection, type SettingsToProve } from "../../client/connectionProof";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { dropConnection, hang, json, refusedPort, startScriptedServer, type ScriptedServer } from "../support/scriptedServer";

const KEY = "gpc_proof_key_never_shown_7";
const fromConfig = (setting: string): string => `stack config gpucloud:${setting}`;

function settings(apiUrl: string, serverlessUrl?: string, apiKey = KEY): SettingsToProve {
  return {
    apiKey: { value: apiKey, source: fromConfig("apiKey") },
    apiUrl: { value: apiUrl, source: fromConfig("apiUrl") },
    serverlessUrl: serverlessUrl === undefined ? undefined : { value: serverlessUrl, source: fromConfig("serverlessUrl") },
  };
}

async function problems(toProve: SettingsToProve) {
  const found = await proveConnection(toProve, { timeoutMs: 5_000 });
  for (const p of found) {
    expect(p.message).not.toContain(KEY);
    expect(p.message).not.toContain("wrong-key-also-never-shown");
  }
  return found.map((p) => ({ setting: p.setting, message: p.message }));
}

describe("proveConnection: the service's own answer to the settings, one read per API", { timeout: 60_000 }, () => {
  let emulator: RunningEmulator;
  const servers: ScriptedServer[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [KEY, { key: "scoped-key", scopes: ["pods:read"] }] });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await emulator?.close();
  });

  it("passes the emulator's URLs with a key it accepts, on both APIs and both management versions", async () => {
    expect(await problems(settings(emulator.apiUrlV2, emulator.serverlessUrl))).toEqual([]);
    expect(await problems(settings(emulator.apiUrl, emulator.serverlessUrl))).toEqual([]);
  });

  it("passes a restricted key that lacks the read's scope (403: the service knows the key)", async () => {
    expect(await problems(settings(emulator.apiUrlV2, emulator.serverlessUrl, "scoped-key"))).toEqual([]);
  });

  it("a wrong key names the setting it came from and the fix, never the key", async () => {
    const [p, ...rest] = await problems(settings(emulator.apiUrlV2, undefined, "wrong-key-also-never-shown"));
    expect(rest).toEqual([]);
    expect(p?.setting).toBe("gpucloud:apiKey");
    expect(p?.message).toContain("(stack config gpucloud:apiKey) was refused by the management API");
    expect(p?.message).toContain("401 Unauthorized");
    expect(p?.message).toContain("pulumi config set --secret gpucloud:apiKey <key>");
    const fromEnv = await proveConnection({
      ...settings(emulator.apiUrlV2),
      apiKey: { value: "wrong-key-also-never-shown", source: "environment variable GPUCLOUD_API_KEY" },
    });
    expect(fromEnv.map((e) => e.setting)).toEqual(["GPUCLOUD_API_KEY"]);
  });

  it("a refused port names the setting, the value and asks whether the emulator runs on that port", async () => {
    const port = await refusedPort();
    const [p, ...rest] = await problems(settings(`http://127.0.0.1:${port}/api/v2`, emulator.serverlessUrl));
    expect(rest).toEqual([]);
    expect(p?.setting).toBe("gpucloud:apiUrl");
    expect(p?.message).toContain(`stack config gpucloud:apiUrl is "http://127.0.0.1:${port}/api/v2"`);
    expect(p?.message).toContain("ECONNREFUSED");
    expect(p?.message).toContain(`Is the emulator running on ${port}?`);
    const [job] = await problems(settings(emulator.apiUrlV2, `http://127.0.0.1:${port}/v2`));
    expect(job?.setting).toBe("gpucloud:serverlessUrl");
    expect(job?.message).toContain(`Is the emulator running on ${port}?`);
  });

  it("something that is not the service (a web page, another API) names the setting and the emulator's URL", async () => {
    const page = await startScriptedServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>");
    });
    servers.push(page);
    const [p] = await problems(settings(`${page.origin}/api/v2`));
    expect(p?.setting).toBe("gpucloud:apiUrl");
    expect(p?.message).toContain("is not the service's management API: it answered GET /catalog/datacenters with 200 (text/html)");
    expect(p?.message).toContain(`"${page.origin}/api/v2"`);
    // The management API where the job API should be, and the job API where the management API should be.
    const origin = new URL(emulator.apiUrlV2).origin;
    const [job] = await problems(settings(emulator.apiUrlV2, emulator.apiUrlV2));
    expect(job?.setting).toBe("gpucloud:serverlessUrl");
    expect(job?.message).toContain("is not the service's job API");
    const [management] = await problems(settings(`${origin}/v2`));
    expect(management?.setting).toBe("gpucloud:apiUrl");
    expect(management?.message).toContain("is not the service's management API: it answered GET /catalog/datacenters with 404");
  });

  it("sends one request, never retried, and a 5xx or 429 proves nothing either way", async () => {
    const failing = await startScriptedServer((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"busy"}');
    });
    servers.push(failing);
    expect(await problems(settings(`${failing.origin}/api/v2`))).toEqual([]);
    expect(failing.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /api/v2/catalog/datacenters"]);
    expect(failing.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a host that does not answer in time names the setting, the read and the time waited", async () => {
    const silent = await startScriptedServer(hang);
    servers.push(silent);
    const found = await proveConnection(settings(`${silent.origin}/api/v2`), { timeoutMs: 1_000 });
    expect(found.map((p) => p.setting)).toEqual(["gpucloud:apiUrl"]);
    expect(found[0]?.message).toContain(
      `stack config gpucloud:apiUrl is "${silent.origin}/api/v2": nothing answered GET /catalog/datacenters there within 1 s`,
    );
    expect(found[0]?.message).toContain("Is the emulator running on");
  });

  it("a host name that is not known names the host and the code", async () => {
    const [p] = await problems(settings("http://gpucloud-no-such-host.invalid/api/v2"));
    expect(p?.setting).toBe("gpucloud:apiUrl");
    expect(p?.message).toMatch(/the host "gpucloud-no-such-host\.invalid" is not known \((ENOTFOUND|EAI_AGAIN)\)/);
    expect(p?.message).toContain("Check the host and port in gpucloud:apiUrl");
  });

  it("counts its read in the account's rate limit: a window its answer shows spent holds the next check back, which proves nothing", async () => {
    // The answer says the minute window is spent for another 60 s: the process's gate (rateLimitGate.ts),
    // shared with the transport's calls, now holds every request to this API and key.
    const spent = await startScriptedServer(json(200, [], { ratelimit: '"minute";r=0;t=60', "ratelimit-policy": '"minute";q=10;w=60' }));
    servers.push(spent);
    const toProve = settings(`${spent.origin}/api/v2`, undefined, "rate-limited-key");
    expect(await problems(toProve)).toEqual([]);
    expect(await problems(toProve)).toEqual([]);
    expect(spent.requests).toHaveLength(1);
  });

  it("a connection reset after it was set up proves nothing either way (the host was reached)", async () => {
    const resetting = await startScriptedServer(dropConnection);
    servers.push(resetting);
    expect(await problems(settings(`${resetting.origin}/api/v2`))).toEqual([]);
    expect(resetting.requests).toHaveLength(1);
  });
});
