/**
 * The provider plugin's settings (provider/plugin/config.ts): what a Configure request configures
 * (its args before its variables; a price sheet kept as JSON text; a setting not known yet at
 * preview), CheckConfig's checks and DiffConfig's comparison.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../model/fields/values";
import { changedSettings, checkProviderConfig, configurationOf } from "../../../provider/plugin/config";

describe("the provider plugin's settings", () => {
  it("configures from the args, else from the variables, under the stack config's full keys", () => {
    const variables = new Map([
      ["gpucloud:config:apiUrl", "http://from-variables/api/v2"],
      ["gpucloud:config:serverlessUrl", "http://from-variables/v2"],
    ]);
    expect(configurationOf(variables, { apiUrl: "http://from-args/api/v2", apiKey: "k", version: "0.2.0", budgetPerHour: "3" })).toEqual({
      config: {
        "gpucloud:apiUrl": "http://from-args/api/v2",
        "gpucloud:serverlessUrl": "http://from-variables/v2",
        "gpucloud:apiKey": "k",
      },
      unknown: [],
    });
  });

  it("keeps a price sheet given as an object as its JSON text, leaves out empty settings and names the unknown ones", () => {
    const sheet = { networkVolumePerGbMonth: 0.07 };
    expect(configurationOf(new Map(), { prices: sheet, apiKey: "", apiUrl: UNKNOWN })).toEqual({
      config: { "gpucloud:prices": JSON.stringify(sheet) },
      unknown: ["apiUrl"],
    });
  });

  it("checks each setting's type and the price sheet, passing other keys of the namespace and unknowns", () => {
    expect(
      checkProviderConfig({ apiUrl: "http://x/api/v2", apiKey: "k", prices: { containerDiskPerGbMonth: 0.1 }, budgetPerHour: 5 }),
    ).toEqual([]);
    expect(checkProviderConfig({ apiUrl: UNKNOWN, prices: UNKNOWN })).toEqual([]);
    const failures = checkProviderConfig({ apiUrl: 8080, apiKey: 12345, prices: '{"diskPerGbMonth": 1}' });
    expect(failures.map((f) => f.property)).toEqual(["apiUrl", "apiKey", "prices"]);
    expect(failures[0]?.reason).toBe("apiUrl: expected a string, got 8080");
    // The key is never shown, only its kind.
    expect(failures[1]?.reason).toBe("apiKey: expected a string, got a number");
    expect(failures[2]?.reason).toContain('unknown key "diskPerGbMonth"');
  });

  it("lists the settings that changed, the engine's version key aside", () => {
    expect(changedSettings({ apiUrl: "a", apiKey: "k", version: "1" }, { apiUrl: "b", apiKey: "k", version: "2", prices: "{}" })).toEqual([
      "apiUrl",
      "prices",
    ]);
    expect(changedSettings({ apiUrl: "a" }, { apiUrl: UNKNOWN })).toEqual(["apiUrl"]);
  });
});
