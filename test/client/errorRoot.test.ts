import { describe, expect, it } from "vitest";
import * as sdk from "../../sdk/index";
import { GpuCloudError } from "../../client/gpuCloudError";
import { JobClient } from "../../client/jobClient";

const exportedErrorClasses = Object.entries(sdk).filter(([name, value]) => name.endsWith("Error") && typeof value === "function");

describe("one error root", () => {
  it("the package exports GpuCloudError and ConfigError beside the others", () => {
    const names = exportedErrorClasses.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        "GpuCloudError",
        "ConfigError",
        "ApiError",
        "JobRequestError",
        "JobWaitTimeoutError",
        "BillingQueryError",
        "NotFoundError",
      ]),
    );
  });

  it.each(exportedErrorClasses)("%s extends GpuCloudError and names itself", (name, ctor) => {
    const cls = ctor as new (...args: never[]) => Error;
    expect(cls === GpuCloudError || cls.prototype instanceof GpuCloudError).toBe(true);
    expect(cls.prototype.name).toBe(name);
  });

  it("a bad argument to a client call is a GpuCloudError too, caught before any request", async () => {
    const client = new JobClient({ apiKey: "k", serverlessUrl: "http://127.0.0.1:1/v2" });
    await expect(client.status("", "job")).rejects.toBeInstanceOf(GpuCloudError);
    expect(() => new JobClient({ apiKey: "k", serverlessUrl: "not a url" })).toThrow(GpuCloudError);
  });
});
