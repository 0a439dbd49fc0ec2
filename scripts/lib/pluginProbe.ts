/**
 * What the provider plugin's process loads, and the CPU it spends, to serve a preview of an unchanged
 * endpoint (startupProbe.ts's "plugin" side): a fresh Node process starts the compiled plugin
 * (dist/provider/plugin/main.js, as plugin/pulumi-resource-gpucloud does), and this process speaks
 * to it over gRPC as the engine does: Configure, Check, Diff. Then the plugin process reports its
 * modules and CPU time on a line of its own. It fails when check refuses the endpoint or diff finds
 * a change.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as readline from "node:readline";
import type { RecordedEndpoint, StartupSample } from "./startupProbe";

/** The type token and a URN of the endpoint, as the engine names them for the plugin. */
const TYPE = "gpucloud:index:Endpoint";
const URN = `urn:pulumi:startup::startup::${TYPE}::startup`;

/** The plugin, started as its launcher does; on a line on stdin it prints its modules and CPU time and exits. */
function pluginScript(root: string): string {
  const main = path.join(root, "dist", "provider", "plugin", "main.js");
  return `process.stdin.once("data", () => {
    const cpu = process.cpuUsage();
    process.stdout.write(JSON.stringify({ modules: Object.keys(require.cache), cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() }) + "\\n");
    process.exit(0);
  });
  require(${JSON.stringify(main)}).start();`;
}

/** The dynamic path's `__provider` input is no input of the plugin's resources. */
function withoutProvider(values: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _dropped, ...rest } = values;
  return rest;
}

/** Runs one fresh plugin process of the package at `root` through a preview of `endpoint` and returns what it reports. */
export async function probePlugin(root: string, endpoint: RecordedEndpoint): Promise<StartupSample> {
  const { grpc, providerGrpc, providerPb, structPb } = await import("../../provider/plugin/rpcModules");
  const struct = (values: Record<string, unknown>) => structPb.Struct.fromJavaScript(values as Record<string, never>);
  const child = spawn(process.execPath, ["-e", pluginScript(root)], { cwd: root, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (what: string): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error(`probePlugin: the plugin process ended before printing ${what} (exit code ${await exited})`);
    return line.value;
  };
  const client = new providerGrpc.ResourceProviderClient(
    `127.0.0.1:${Number(await nextLine("its port"))}`,
    grpc.credentials.createInsecure(),
  );
  try {
    const call = <Res>(method: "configure" | "check" | "diff", request: unknown): Promise<Res> =>
      new Promise((resolve, reject) =>
        (client[method] as unknown as (req: unknown, cb: (e: Error | null, r: Res) => void) => void).call(
          client,
          request,
          (error, response) => (error ? reject(error) : resolve(response)),
        ),
      );
    const configure = new providerPb.ConfigureRequest().setArgs(struct({})).setAcceptsecrets(true);
    for (const [key, value] of Object.entries(endpoint.config))
      configure.getVariablesMap().set(key.replace(/^gpucloud:/, "gpucloud:config:"), value);
    await call("configure", configure);
    const checked = await call<import("@pulumi/pulumi/proto/provider_pb").CheckResponse>(
      "check",
      new providerPb.CheckRequest()
        .setUrn(URN)
        .setType(TYPE)
        .setName("startup")
        .setOlds(struct(withoutProvider(endpoint.checked)))
        .setNews(struct(withoutProvider(endpoint.inputs))),
    );
    const failures = checked.getFailuresList().map((failure) => failure.getReason());
    if (failures.length > 0) throw new Error(`probePlugin: check failed: ${failures.join("; ")}`);
    const diff = await call<import("@pulumi/pulumi/proto/provider_pb").DiffResponse>(
      "diff",
      new providerPb.DiffRequest()
        .setUrn(URN)
        .setType(TYPE)
        .setId(endpoint.id)
        .setOlds(struct(withoutProvider(endpoint.outputs)))
        .setNews(checked.getInputs() ?? struct({})),
    );
    if (diff.getChanges() !== providerPb.DiffResponse.DiffChanges.DIFF_NONE)
      throw new Error(`probePlugin: the unchanged endpoint has a diff: ${diff.getDiffsList().join(", ")}`);
    child.stdin.write("report\n");
    return JSON.parse(await nextLine("its report")) as StartupSample;
  } finally {
    client.close();
    child.kill();
    await exited;
  }
}
