/**
 * The load-time Node.js version check of the SDK, the provider process and the emulator CLI: one
 * line naming the version found, the version needed and the fix. The compiled entry points are
 * loaded under a Node.js that reports itself as v20 (a preload overrides process.version).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import * as client from "../../client/nodeVersion";
import * as emulator from "../../emulator/nodeVersion";

const root = path.resolve(__dirname, "..", "..");

describe("the Node.js version check", () => {
  it("needs the major version package.json's engines.node names, in both copies", () => {
    const engines = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } }).engines.node;
    expect(engines).toBe(`>=${client.NODE_MAJOR_REQUIRED}`);
    expect(emulator.NODE_MAJOR_REQUIRED).toBe(client.NODE_MAJOR_REQUIRED);
  });

  it("passes 22 and later, refuses older with the version found, the one needed and the fix", () => {
    expect(client.nodeVersionProblem("x", "v22.0.0")).toBeUndefined();
    expect(client.nodeVersionProblem("x", "v24.9.0")).toBeUndefined();
    const problem = client.nodeVersionProblem("this Pulumi program", "v20.11.1", "/usr/bin/node");
    expect(problem).toBe(
      "pulumi-gpucloud needs Node.js >= 22, but this Pulumi program runs on Node.js v20.11.1 (/usr/bin/node). " +
        "Fix: install Node.js 22 or later (e.g. `nvm install 22`) and make it the `node` first on PATH, then run again.",
    );
    expect(emulator.nodeVersionProblem("v18.19.0", "/usr/bin/node")).toMatch(
      /^gpucloud-emulator needs Node.js >= 22, but this is Node.js v18.19.0 \(\/usr\/bin\/node\)\. Fix: /,
    );
    expect(emulator.nodeVersionProblem("v23.1.0")).toBeUndefined();
  });

  describe("the compiled entry points under a Node.js that reports v20", () => {
    const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-node-")), "old-node.cjs");
    fs.writeFileSync(preload, 'Object.defineProperty(process, "version", { value: "v20.11.1" });\n');
    const run = (args: string[]) =>
      spawnSync(process.execPath, ["--require", preload, ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });

    it("the emulator CLI prints one line and exits 1", () => {
      const result = run([path.join(root, "dist", "emulator", "cli.js"), "--port", "0"]);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/^gpucloud-emulator needs Node.js >= 22, but this is Node.js v20\.11\.1 .*Fix: install Node.js 22/),
      ]);
    });

    it("the SDK and the provider refuse to load, with the one line as the whole error", () => {
      for (const [entry, where] of [
        ["sdk/index.js", "this Pulumi program"],
        ["provider/index.js", "the engine's provider process"],
      ] as const) {
        const script = `try { require(${JSON.stringify(path.join(root, "dist", entry))}); console.log("loaded"); } catch (e) { console.log(JSON.stringify({ message: e.message, stack: e.stack })); }`;
        const result = run(["-e", script]);
        const { message, stack } = JSON.parse(result.stdout) as { message: string; stack: string };
        expect(message).toBe(client.nodeVersionProblem(where, "v20.11.1", process.execPath));
        expect(stack).toBe(message);
      }
    });
  });
});
