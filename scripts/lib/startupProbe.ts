/**
 * What a fresh Node process loads, and the time it spends, to start this package the way a Pulumi
 * operation does (scripts/bench-startup.ts prints the figures; test/sdk/programLoad.test.ts and
 * test/provider/previewLoad.test.ts hold what must not be loaded). Three kinds of process:
 *   - floor: loads @pulumi/pulumi alone (the program's and the provider's processes both do);
 *   - program: @pulumi/pulumi, then the SDK (dist/sdk/index.js), as `import * as gpucloud` does;
 *   - provider: @pulumi/pulumi, then, as the dynamic provider host serves a preview of an unchanged
 *     endpoint, the endpoint's shim as the state's `require` names it, `configure`, `check` and
 *     `diff` through it (the shim's first call loads the provider code). It fails when check
 *     refuses the endpoint or diff finds a change.
 * The processes run the compiled package (dist/), from the checkout, whose self link
 * (scripts/link-self.js) lets the shim find `pulumi-gpucloud/provider` as an installed copy would.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as path from "node:path";

export type StartupSide = "floor" | "program" | "provider";

/** An endpoint as the engine holds it after an up: what check and diff are given at the next preview. */
export interface RecordedEndpoint {
  /** The stack config the provider is configured with. */
  config: Record<string, string>;
  /** The program's inputs (check's news; unchanged since the up). */
  inputs: Record<string, unknown>;
  /** The inputs check returned at the up (check's olds). */
  checked: Record<string, unknown>;
  id: string;
  /** The outputs create returned (diff's olds). */
  outputs: Record<string, unknown>;
}

/** What one fresh process reports. */
export interface StartupSample {
  /** Every module in require.cache at the end, by its real path. */
  modules: string[];
  /** CPU time the process used from its start (user + system), in ms. */
  cpuMs: number;
  /** Wall time from the process's start, in ms. */
  wallMs: number;
}

/** The serialized provider an installed copy stores in an endpoint's state. */
const ENDPOINT_PROVIDER = "require('pulumi-gpucloud/provider/shims/endpoint')";

/** The code a fresh process runs (`node -e`): self-contained, so that nothing but what it names is loaded. */
function probeScript(side: StartupSide, root: string, endpoint: RecordedEndpoint | undefined): string {
  const pulumi = require.resolve("@pulumi/pulumi", { paths: [root] });
  const work =
    side === "program"
      ? `require(${JSON.stringify(path.join(root, "dist", "sdk", "index.js"))});`
      : side === "provider"
        ? `const shim = require("pulumi-gpucloud/provider/shims/endpoint");
           const e = ${JSON.stringify(endpoint)};
           await shim.configure({ config: { get: (key) => e.config[key] } });
           const checked = await shim.check(e.checked, e.inputs);
           if (checked.failures && checked.failures.length > 0) throw new Error("check failed: " + JSON.stringify(checked.failures));
           const diff = await shim.diff(e.id, e.outputs, { ...checked.inputs, __provider: e.inputs.__provider });
           if (diff.changes !== false) throw new Error("the unchanged endpoint has a diff: " + JSON.stringify(diff));`
        : "";
  return `(async () => {
    require(${JSON.stringify(pulumi)});
    ${work}
    const cpu = process.cpuUsage();
    const wallMs = performance.now();
    process.stdout.write(JSON.stringify({ modules: Object.keys(require.cache), cpuMs: (cpu.user + cpu.system) / 1000, wallMs }));
  })().catch((e) => { console.error(e); process.exit(1); });`;
}

/** Runs one fresh process of `side` (the provider's needs `endpoint`) and returns what it reports. */
export async function probeStartup(side: StartupSide, root: string, endpoint?: RecordedEndpoint): Promise<StartupSample> {
  if (side === "provider" && endpoint === undefined) throw new Error("probeStartup: the provider side needs a recorded endpoint");
  // The checkout as the working directory: the shim's `require("pulumi-gpucloud/provider")` finds
  // it through its self link, as an installed copy would be found.
  // Not synchronous: the provider's check proves the connection with one call, which an emulator in
  // the calling process must be free to answer.
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", probeScript(side, root, endpoint)], {
    cwd: root,
    encoding: "utf8",
  });
  return JSON.parse(stdout) as StartupSample;
}

/** Modules of a sample by where they come from: this package's compiled code, zod, undici, the rest. */
export function moduleCounts(sample: StartupSample, root: string): { ours: number; zod: number; undici: number; other: number } {
  const dist = path.join(root, "dist") + path.sep;
  const inPackage = (name: string) => `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  const counts = { ours: 0, zod: 0, undici: 0, other: 0 };
  for (const file of sample.modules) {
    if (file.startsWith(dist)) counts.ours++;
    else if (file.includes(inPackage("zod"))) counts.zod++;
    else if (file.includes(inPackage("undici"))) counts.undici++;
    else counts.other++;
  }
  return counts;
}

/**
 * Creates a template and an endpoint through the provider code of this process (`dispatch`, as the
 * shims call it) on `apiUrl`, and returns the endpoint as the engine records it, configured for
 * `previewApiUrl` (e.g. a counting proxy, to see any call a preview makes).
 */
export async function recordEndpoint(connection: {
  apiUrl: string;
  apiKey: string;
  serverlessUrl: string;
  previewApiUrl: string;
}): Promise<RecordedEndpoint> {
  const { dispatch } = await import("../../provider/dispatch");
  const { closeClients } = await import("../../model/connection");
  const config = (apiUrl: string) => ({
    "gpucloud:apiUrl": apiUrl,
    "gpucloud:apiKey": connection.apiKey,
    "gpucloud:serverlessUrl": connection.serverlessUrl,
  });
  await dispatch({ k: "endpoint" }, "configure", [{ config: config(connection.apiUrl) }]);
  try {
    const created = async (kind: string, inputs: Record<string, unknown>) => {
      const check = (await dispatch({ k: kind }, "check", [{}, inputs])) as { inputs: Record<string, unknown>; failures?: unknown[] };
      if (check.failures?.length) throw new Error(`recordEndpoint: ${kind} check failed: ${JSON.stringify(check.failures)}`);
      const { id, outs } = (await dispatch({ k: kind }, "create", [check.inputs])) as { id: string; outs: Record<string, unknown> };
      return { checked: { ...check.inputs, __provider: ENDPOINT_PROVIDER }, id, outputs: { ...outs, __provider: ENDPOINT_PROVIDER } };
    };
    const template = await created("template", { name: "startup-worker", imageName: "example/echo-worker:1.0", isServerless: true });
    const inputs = {
      __provider: ENDPOINT_PROVIDER,
      name: "startup",
      templateId: template.id,
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 0,
      workersMax: 1,
    };
    return { config: config(connection.previewApiUrl), inputs, ...(await created("endpoint", inputs)) };
  } finally {
    await closeClients();
  }
}
