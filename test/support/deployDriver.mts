/**
 * A deploying process as a CI job runs one: `node test/support/deployDriver.mts '<DriverArgs JSON>'`
 * runs one Pulumi operation (`up`, `preview` with expect-no-changes, or `destroy`) of an inline
 * program through the automation API, on a `file://` backend with a passphrase and its own
 * PULUMI_HOME, as test/support/engineStack.ts does in the test process. It is a process of its own
 * so that a test can start it in a session of its own and SIGKILL all of it (this script, the
 * `pulumi` CLI it starts and the dynamic provider host under that), as a runner's timeout does; a
 * later run with the same arguments is the rerun.
 *
 * The program declares every kind on the service's v2 API: registry credentials, an account secret,
 * a network volume, the account's SSH keys, a pod template and a serverless template (both pulling
 * with the credentials, their env naming the secret), a pod on the pod template that mounts the
 * volume, and a queue endpoint on the serverless template that keeps one worker up.
 *
 * It prints the engine's output as it comes, and last a line `@@driver-result {JSON}`
 * (DriverResult): whether the operation succeeded, its error diagnostics and its changes. Node 24
 * runs this file as it is (an ES module; its types are stripped), so it takes only types from the
 * TypeScript modules beside it.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { type EngineEvent, LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation/index.js";
import type * as Sdk from "../../sdk/index";
import type { DriverArgs, DriverResult } from "./interruptedDeploy";

/** Precedes the result line (interruptedDeploy.ts reads it; a value import of a .ts file would not run as it is). */
const RESULT_MARKER = "@@driver-result ";

// The compiled package, as a user's program loads it (the engine serializes its providers by name).
const require = createRequire(process.argv[1] ?? path.join(process.cwd(), "driver.js"));
const gpucloud = require("pulumi-gpucloud") as typeof Sdk;
const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

function program(args: DriverArgs): () => Promise<Record<string, unknown>> {
  return async () => {
    const config = new pulumi.Config();
    const { names } = args;
    const registry = new gpucloud.RegistryAuth("registry", {
      name: names.registry,
      username: "ci-bot",
      password: config.requireSecret("registryPassword"),
    });
    const token = new gpucloud.Secret("token", { name: names.secret, value: config.requireSecret("secretValue") });
    const models = new gpucloud.NetworkVolume("models", { name: names.networkVolume, size: 20, dataCenterId: "EU-RO-1" });
    const keys = new gpucloud.AccountSshKeys("ssh-keys", { keys: [args.sshKey] });
    const podTemplate = new gpucloud.Template("pod-template", {
      name: names.podTemplate,
      imageName: "example/pytorch:2.1.0",
      containerRegistryAuthId: registry.id,
      env: { HF_TOKEN: token.ref },
      ports: ["8888/http", "22/tcp"],
    });
    const workerTemplate = new gpucloud.Template("worker-template", {
      name: names.workerTemplate,
      imageName: "example/echo-worker:1.0",
      isServerless: true,
      containerRegistryAuthId: registry.id,
      env: { HF_TOKEN: token.ref },
    });
    const pod = new gpucloud.Pod(
      "notebook",
      {
        name: names.pod,
        templateId: podTemplate.id,
        imageName: "example/pytorch:2.1.0",
        containerRegistryAuthId: registry.id,
        networkVolumeId: models.id,
        dataCenterIds: [models.dataCenterId],
        gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
        gpuCount: 1,
        ports: ["8888/http", "22/tcp"],
      },
      // The keys reach pods created after them.
      { dependsOn: [keys] },
    );
    const endpoint = new gpucloud.Endpoint("inference", {
      name: names.endpoint,
      templateId: workerTemplate.id,
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      workersMin: 1,
      workersMax: 2,
      idleTimeout: 5,
    });
    return { podId: pod.id, endpointId: endpoint.id, secretRef: token.ref };
  };
}

async function run(args: DriverArgs): Promise<DriverResult> {
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(args.binDir) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: args.projectName, stackName: args.stackName, program: program(args) },
    {
      workDir: args.workDir,
      pulumiHome: args.env["PULUMI_HOME"] ?? path.join(args.workDir, ".pulumi-home"),
      envVars: args.env,
      pulumiCommand,
      projectSettings: { name: args.projectName, runtime: "nodejs", backend: { url: args.backendUrl } },
    },
  );
  await stack.setAllConfig({
    "gpucloud:apiUrl": { value: args.apiUrl },
    "gpucloud:serverlessUrl": { value: args.serverlessUrl },
    "gpucloud:apiKey": { value: args.apiKey, secret: true },
    // The emulator answers at once: a create it never made is known for certain after 10 s, not 2 min.
    "gpucloud:createTimeoutSeconds": { value: "10" },
    registryPassword: { value: args.registryPassword, secret: true },
    secretValue: { value: args.secretValue, secret: true },
  });
  const errors: string[] = [];
  const onEvent = (event: EngineEvent): void => {
    const d = event.diagnosticEvent;
    if (d && d.severity === "error") errors.push(d.message.trim());
  };
  const print = {
    onOutput: (out: string) => void process.stdout.write(out),
    onError: (out: string) => void process.stderr.write(out),
    onEvent,
  };
  try {
    let changes: Record<string, number> | undefined;
    if (args.op === "up") changes = (await stack.up(print)).summary.resourceChanges;
    else if (args.op === "preview") changes = (await stack.preview({ ...print, expectNoChanges: true })).changeSummary;
    else changes = (await stack.destroy(print)).summary.resourceChanges;
    return { op: args.op, ok: true, errors, changes: Object.fromEntries(Object.entries(changes ?? {}).filter(([op]) => op !== "same")) };
  } catch (error) {
    if (errors.length === 0) errors.push(error instanceof Error ? error.message : String(error));
    return { op: args.op, ok: false, errors, changes: {} };
  }
}

const raw = process.argv[2];
if (raw === undefined) {
  process.stderr.write("usage: node deployDriver.mts '<DriverArgs JSON>'\n");
  process.exit(2);
}
void run(JSON.parse(raw) as DriverArgs).then((result) => {
  process.stdout.write(`\n${RESULT_MARKER}${JSON.stringify(result)}\n`);
  process.exit(result.ok ? 0 : 1);
});
