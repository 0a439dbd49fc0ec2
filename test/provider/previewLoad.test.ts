// What the provider process loads to serve a preview of an unchanged endpoint, in a fresh Node
// process on the compiled package, through the endpoint's shim as the dynamic provider host calls
// it (configure, check, diff): none of what only a call to the service needs. The management clients,
// the transport and its HTTP library (undici) and the wire schemas load on the first call
// (model/backend/lazyApi.ts); the job API client with the smoke tests. The preview makes one call,
// the connection check (client/connectionProof.ts), as a single node:http request (client/oneRequest.ts),
// which loads none of them: the provider reaches the emulator through a counting proxy. The provider
// plugin's process (the typed classes' path), served the same preview over gRPC, loads none of them
// either, nor @pulumi/pulumi's SDK (its own gRPC server and log need only the protocol's modules).
// Run after `npm run build`.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { countingProxy, type CountingProxy } from "../../scripts/lib/countingProxy";
import { repoRoot } from "../../scripts/lib/repoRoot";
import { probePlugin } from "../../scripts/lib/pluginProbe";
import { probeStartup, recordEndpoint, type RecordedEndpoint } from "../../scripts/lib/startupProbe";

const root = repoRoot();

/** The package's modules only a call to the service loads, by their path under dist/. */
const LOADED_BY_CALLS = [
  "client/transport.js",
  "client/management.js",
  "client/managementV2.js",
  "client/schemas.js",
  "client/schemasV2.js",
  "client/jobClient.js",
  "model/backend/openApi.js",
  "model/backend/v1Backend.js",
  "model/backend/v2Backend.js",
];

describe.each(["v2", "v1"] as const)("a preview of an unchanged endpoint in a fresh provider process, on %s", (api) => {
  let emulator: RunningEmulator;
  let proxy: CountingProxy;
  let endpoint: RecordedEndpoint;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001 });
    const apiUrl = api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl;
    proxy = await countingProxy(apiUrl);
    endpoint = await recordEndpoint({
      apiUrl,
      apiKey: emulator.apiKey,
      serverlessUrl: emulator.serverlessUrl,
      previewApiUrl: `${proxy.url}${new URL(apiUrl).pathname}`,
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await emulator?.close();
  });

  it("makes one call, the connection check, and loads no HTTP library, no transport, no client and no wire schema", async () => {
    proxy.take();
    const { modules } = await probeStartup("provider", root, endpoint);
    expect(proxy.take().map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET ${api === "v2" ? "/api/v2/catalog/datacenters" : "/v1/networkvolumes"}`,
    ]);
    const dist = path.join(root, "dist");
    const ours = modules.filter((file) => file.startsWith(dist + path.sep)).map((file) => path.relative(dist, file));
    // The probe loaded the provider code and served the preview (it fails on a check failure or a diff).
    expect(ours).toEqual(expect.arrayContaining(["provider/index.js", "provider/resources/endpoint.js"].map((f) => path.normalize(f))));
    // The check did run in this process (it is loaded at the first check, on its own).
    expect(ours).toContain(path.normalize("client/connectionProof.js"));
    expect(modules.filter((file) => /[\\/]node_modules[\\/]undici[\\/]/.test(file))).toEqual([]);
    expect(ours.filter((file) => LOADED_BY_CALLS.map((f) => path.normalize(f)).includes(file))).toEqual([]);
  });

  it("in the provider plugin's process: the same one call, and no @pulumi/pulumi SDK, HTTP library, transport, client or wire schema", async () => {
    proxy.take();
    const { modules } = await probePlugin(root, endpoint);
    expect(proxy.take().map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET ${api === "v2" ? "/api/v2/catalog/datacenters" : "/v1/networkvolumes"}`,
    ]);
    const dist = path.join(root, "dist");
    const ours = modules.filter((file) => file.startsWith(dist + path.sep)).map((file) => path.relative(dist, file));
    // The plugin served the preview (the probe fails on a check failure or a diff) with the check's proof.
    expect(ours).toEqual(
      expect.arrayContaining(
        ["provider/plugin/server.js", "provider/resources/endpoint.js", "client/connectionProof.js"].map((f) => path.normalize(f)),
      ),
    );
    // The protocol's modules come from @pulumi/pulumi's proto/ folder; its SDK (index.js and all it loads) stays out.
    const sdk = path.join("node_modules", "@pulumi", "pulumi") + path.sep;
    expect(modules.filter((file) => file.includes(sdk) && !file.includes(`${sdk}proto${path.sep}`))).toEqual([]);
    expect(modules.filter((file) => /[\\/]node_modules[\\/]undici[\\/]/.test(file))).toEqual([]);
    expect(ours.filter((file) => LOADED_BY_CALLS.map((f) => path.normalize(f)).includes(file))).toEqual([]);
  });
});
