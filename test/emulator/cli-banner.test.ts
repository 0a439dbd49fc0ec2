/**
 * The emulator CLI's startup lines offer the URLs to copy into the settings: today's management API
 * (/api/v2) and the job API (/v2), each with the setting it goes in; v1 marked as the earlier API.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const CLI = path.resolve(__dirname, "..", "..", "dist", "emulator", "cli.js");

describe("the emulator's startup lines", () => {
  it("print the v2 URLs to copy, each with its setting, and v1 as the earlier API", async () => {
    const child = spawn(process.execPath, [CLI, "--port", "0", "--api-key", "banner-key"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("export GPUCLOUD_API_URL")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
    } finally {
      child.kill("SIGTERM");
    }
    const lines = out.split("\n");
    const port = /127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    const base = `http://127.0.0.1:${port}`;
    expect(lines.slice(0, 5)).toEqual([
      "gpucloud-emulator listening",
      `  management API:  ${base}/api/v2   (gpucloud:apiUrl)`,
      `  job API:         ${base}/v2   (gpucloud:serverlessUrl)`,
      "  API key:         banner-key   (gpucloud:apiKey)",
      `  earlier API v1:  ${base}/v1   (the management API's earlier version)`,
    ]);
    expect(out).toContain(`export GPUCLOUD_API_URL=${base}/api/v2 GPUCLOUD_SERVERLESS_URL=${base}/v2 GPUCLOUD_API_KEY=banner-key`);
  });
});
