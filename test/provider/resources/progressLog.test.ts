// What the provider process prints: warnings always, progress detail only with gpucloud:verbose or
// GPUCLOUD_VERBOSE, a plan's outline (notice) always. Outside the engine, Pulumi's log writes to the
// console as `info: [runtime] ...`, the lines a user saw under every resource before.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getStackConfig, setStackConfig } from "../../../model/stackConfig";
import { pulumiLog } from "../../../provider/resources/deps";

describe("the provider's progress log", () => {
  const saved = { config: getStackConfig(), env: process.env["GPUCLOUD_VERBOSE"] };
  let printed: string[];

  beforeEach(() => {
    printed = [];
    delete process.env["GPUCLOUD_VERBOSE"];
    setStackConfig({});
    for (const method of ["log", "warn", "error"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    }
  });
  afterEach(() => {
    vi.restoreAllMocks();
    setStackConfig(saved.config);
    if (saved.env === undefined) delete process.env["GPUCLOUD_VERBOSE"];
    else process.env["GPUCLOUD_VERBOSE"] = saved.env;
  });

  async function lines(): Promise<string[]> {
    // Pulumi's log resolves its engine connection before it prints.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return printed;
  }

  it("by default prints warnings and notices, not progress detail", async () => {
    pulumiLog.info('endpoint "inference": waiting until ready');
    pulumiLog.warn('pod "trainer": readyTimeoutSeconds is short');
    pulumiLog.notice?.('rollout "r": version 2 is checked on a canary first');
    expect(await lines()).toEqual([
      'warning: [runtime] pod "trainer": readyTimeoutSeconds is short',
      'info: [runtime] rollout "r": version 2 is checked on a canary first',
    ]);
  });

  it.each([
    ["stack config gpucloud:verbose", () => setStackConfig({ "gpucloud:verbose": "true" })],
    [
      "GPUCLOUD_VERBOSE",
      () => {
        process.env["GPUCLOUD_VERBOSE"] = "1";
      },
    ],
  ])("prints progress detail with %s", async (_name, turnOn) => {
    turnOn();
    pulumiLog.info('endpoint "inference": waiting until ready');
    expect(await lines()).toEqual(['info: [runtime] endpoint "inference": waiting until ready']);
  });
});
