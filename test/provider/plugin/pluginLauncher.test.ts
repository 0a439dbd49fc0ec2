/**
 * The plugin's executable (plugin/pulumi-resource-gpucloud, running the compiled dist/): it prints
 * the port the engine connects to and serves there; without Node.js it says what to install; under
 * a Node.js too old it loads nothing of the provider and refuses every call with the version and the
 * fix. Needs a current dist/.
 */
import { execFile, spawn } from "node:child_process";
import * as path from "node:path";
import { nodeVersionProblem } from "../../../client/nodeVersion";
import { refusingService } from "../../../provider/plugin/refusal";
import { describe, expect, it } from "vitest";
import { emptyPb, grpc, providerGrpc } from "../../../provider/plugin/rpcModules";

const root = path.resolve(__dirname, "..", "..", "..");
const launcher = path.join(root, "plugin", "pulumi-resource-gpucloud");
const nodeDir = path.dirname(process.execPath);

describe("the plugin's executable", { timeout: 60_000 }, () => {
  it("prints the port it serves on, where it answers as the gpucloud provider", async () => {
    const child = spawn(launcher, ["127.0.0.1:1"], {
      env: { ...process.env, PATH: `${nodeDir}${path.delimiter}${process.env["PATH"] ?? ""}` },
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(port).toBeGreaterThan(0);
      const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const version = await new Promise<string>((resolve, reject) =>
        client.getPluginInfo(new emptyPb.Empty(), (error, info) => (error ? reject(error) : resolve(info.getVersion()))),
      );
      client.close();
      expect(version).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      child.kill();
    }
  });

  it("without Node.js, says to install it or name it", async () => {
    const result = await run(launcher, [], { GPUCLOUD_NODE: "/nonexistent/node" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no Node.js (`/nonexistent/node`) on PATH. Install Node.js 22 or later");
  });

  it("under a Node.js too old, serves only a refusal of every call, naming the version and the fix", async () => {
    const main = path.join(root, "dist", "provider", "plugin", "main.js");
    // Started as a launcher starts it; the process serves until it is ended, so it is ended once it printed its port.
    const script =
      `Object.defineProperty(process, "version", { value: "v20.11.1" }); require(${JSON.stringify(main)}).start();` +
      `setTimeout(() => process.exit(0), 3000);`;
    const result = await runWithOutput(process.execPath, ["-e", script]);
    expect(result.stdout).toMatch(/^\d+\n$/);
    // Nothing on stderr: the engine reads a plugin's stderr as a crash's output.
    expect(result.stderr).toBe("");
    const refusal = refusingService(nodeVersionProblem("the plugin", "v20.11.1", "/usr/bin/node") ?? "", "0.0.0");
    const answer = await new Promise<{ code?: number; details?: string } | null>((resolve) =>
      (refusal.configure as unknown as (call: unknown, callback: (error: { code?: number; details?: string } | null) => void) => void)(
        {},
        resolve,
      ),
    );
    expect(answer?.details).toContain("pulumi-gpucloud needs Node.js >= 22, but the plugin runs on Node.js v20.11.1 (/usr/bin/node)");
    expect(answer?.details).toContain("Fix: install Node.js 22 or later");
  });
});

function runWithOutput(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });
}

function run(file: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env } }, (error, _stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}
