/**
 * The provider plugin under a Node.js older than it needs (the system's Node 20 at /usr/bin/node,
 * named by GPUCLOUD_NODE): a preview fails with the package's one line, naming the version and the
 * fix, as the provider's error, and not the engine's words about a provider that crashed ("this is
 * *always* a bug in the provider"), which it printed above the line when the plugin exited.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createEngineStack } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";

const OLD_NODE = "/usr/bin/node";
const oldNodeMajor = fs.existsSync(OLD_NODE) ? /v(\d+)/.exec(execFileSync(OLD_NODE, ["--version"], { encoding: "utf8" }))?.[1] : undefined;
const LINE =
  /pulumi-gpucloud needs Node\.js >= 22, but the gpucloud provider plugin \(pulumi-resource-gpucloud\) runs on Node\.js v\d+\.\d+\.\d+ \(\/usr\/bin\/node\)\. Fix: install Node\.js 22 or later/;
const ENGINE_TEXT = "This is *always* a bug in the provider";

describe("the provider plugin under an old Node.js", { timeout: 300_000 }, () => {
  it("fails the preview with one clear line before the engine's text", async () => {
    expect(Number(oldNodeMajor), `${OLD_NODE} must be a Node.js older than 22 for this test`).toBeLessThan(22);
    const engine = await createEngineStack({
      projectName: "plugin-old-node",
      projectSettings: pluginProjectSettings(),
      env: { GPUCLOUD_NODE: OLD_NODE },
      config: {
        "gpucloud:apiUrl": { value: "http://127.0.0.1:9/api/v2" },
        "gpucloud:apiKey": { value: "old-node-key", secret: true },
      },
      program: async () => {
        new PluginResource("NetworkVolume", "data", { name: "data", size: 10, dataCenterId: "EU-RO-1" });
        return {};
      },
    });
    try {
      const error = await engine.stack.preview().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error, "the preview must fail").toBeInstanceOf(Error);
      const text = `${error?.message ?? ""}\n${engine.output()}`;
      const line = LINE.exec(text);
      expect(line, text).not.toBeNull();
      // The engine's words about a broken provider are not said at all (they were, above the line).
      expect(text).not.toContain(ENGINE_TEXT);
      expect(text).toContain(`error: rpc error: code = FailedPrecondition desc = ${line?.[0]}`);
      expect(text).not.toContain("old-node-key");
    } finally {
      await engine.dispose();
    }
  });
});
