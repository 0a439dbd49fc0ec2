/**
 * The plugin's executable (plugin/pulumi-resource-gpucloud, running the compiled dist/): it prints
 * the port the engine connects to and serves there; without Node.js it says what to install; under
 * a Node.js too old it says so, with the fix, before anything else loads. Needs a current dist/.
 */
import { execFile, spawn } from "node:child_process";
import * as path from "node:path";
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

  it("under a Node.js too old, stops before loading anything, naming the version and the fix", async () => {
    const main = path.join(root, "dist", "provider", "plugin", "main.js");
    const script = `Object.defineProperty(process, "version", { value: "v20.11.1" }); require(${JSON.stringify(main)});`;
    const result = await run(process.execPath, ["-e", script], {});
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      "pulumi-gpucloud needs Node.js >= 22, but the gpucloud provider plugin (pulumi-resource-gpucloud) runs on Node.js v20.11.1",
    );
    expect(result.stderr).toContain("Fix: install Node.js 22 or later");
  });
});

function run(file: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env: { ...process.env, ...env } }, (error, _stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}
