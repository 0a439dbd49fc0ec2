import { describe, expect, it } from "vitest";
import { ownPricesOf, parseOwnPrices } from "../../../model/cost/ownPrices";

const AT = new Date("2026-11-24T12:05:00.000Z");

describe("the user's own prices (gpucloud:prices)", () => {
  it("reads prices per tier, one price for both tiers, and numbers given as strings", () => {
    expect(parseOwnPrices('{"networkVolumePerGbMonth": {"HIGH_PERFORMANCE": 0.14}, "containerDiskPerGbMonth": 0.1}', AT)).toEqual({
      networkVolumePerGbMonth: { HIGH_PERFORMANCE: 0.14 },
      containerDiskPerGbMonth: 0.1,
      podVolumePerGbMonth: undefined,
      readAt: AT.toISOString(),
    });
    expect(parseOwnPrices('{"networkVolumePerGbMonth": 0.07, "podVolumePerGbMonth": "0.2"}', AT)).toMatchObject({
      networkVolumePerGbMonth: { STANDARD: 0.07, HIGH_PERFORMANCE: 0.07 },
      podVolumePerGbMonth: 0.2,
    });
  });

  it("refuses a value that is not JSON, naming the key, the value and the fix", () => {
    expect(() => parseOwnPrices("0.07", AT)).toThrow(/^gpucloud:prices is not a valid price sheet: it is not a JSON object \(got 0\.07\)/);
    expect(() => parseOwnPrices("{networkVolumePerGbMonth: 0.07}", AT)).toThrow(
      /^gpucloud:prices is not a valid price sheet: it is not JSON \(got \{networkVolumePerGbMonth: 0\.07\}\)\. Give a JSON object of USD per GB-month, e\.g\. `pulumi config set gpucloud:prices '\{"networkVolumePerGbMonth"/,
    );
    expect(() => parseOwnPrices("{networkVolumePerGbMonth: 0.07}", AT)).toThrow(/or remove it with `pulumi config rm gpucloud:prices`/);
  });

  it("refuses an unknown key, suggesting the one meant", () => {
    expect(() => parseOwnPrices('{"networkVolumePerGBMonth": 0.07}', AT)).toThrow(
      /unknown key "networkVolumePerGBMonth" \(did you mean networkVolumePerGbMonth\?\); the keys are networkVolumePerGbMonth, containerDiskPerGbMonth, podVolumePerGbMonth/,
    );
    expect(() => parseOwnPrices('{"networkVolumePerGbMonth": {"STANDRAD": 0.07}}', AT)).toThrow(
      /networkVolumePerGbMonth: unknown key "STANDRAD" \(did you mean STANDARD\?\); the keys are STANDARD, HIGH_PERFORMANCE/,
    );
  });

  it("refuses a negative or non-numeric price, naming where", () => {
    expect(() => parseOwnPrices('{"containerDiskPerGbMonth": -0.1}', AT)).toThrow(
      /: containerDiskPerGbMonth must be a non-negative number of USD per GB-month \(got \{"containerDiskPerGbMonth": -0\.1\}\)/,
    );
    expect(() => parseOwnPrices('{"containerDiskPerGbMonth": "cheap"}', AT)).toThrow(
      /: containerDiskPerGbMonth must be a non-negative number of USD per GB-month/,
    );
    expect(() => parseOwnPrices('{"networkVolumePerGbMonth": {"STANDARD": "x"}}', AT)).toThrow(
      /: networkVolumePerGbMonth\.STANDARD must be a non-negative number/,
    );
  });

  it("is read once per value, so every estimate of a deployment names the same read time", () => {
    let now = AT.getTime();
    const clock = () => now;
    const config = { "gpucloud:prices": '{"containerDiskPerGbMonth": 0.1}' };
    const first = ownPricesOf(config, clock);
    now += 60_000;
    expect(ownPricesOf(config, clock)).toBe(first);
    expect(ownPricesOf({ "gpucloud:prices": '{"containerDiskPerGbMonth": 0.2}' }, clock)?.readAt).toBe(new Date(now).toISOString());
    expect(ownPricesOf({}, clock)).toBeUndefined();
  });
});
