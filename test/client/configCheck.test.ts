import { describe, expect, it } from "vitest";
import { connectionProblems } from "../../client/configCheck";

const KEY = "gpc_secret_key_never_shown_42";
const origin = "http://127.0.0.1:4000";
const good = { "gpucloud:apiKey": KEY, "gpucloud:apiUrl": `${origin}/api/v2`, "gpucloud:serverlessUrl": `${origin}/v2` };

function problems(config: Record<string, string | undefined>, jobApi: "required" | "ifSet" = "ifSet") {
  const found = connectionProblems(config, {}, jobApi);
  for (const p of found) expect(p.message).not.toContain(KEY);
  return found.map((p) => ({ setting: p.setting, message: p.message }));
}

describe("connectionProblems: the settings checked as a whole, without a call", () => {
  it("the emulator's and the service's layouts pass", () => {
    expect(problems(good, "required")).toEqual([]);
    expect(problems({ ...good, "gpucloud:apiUrl": `${origin}/v1` }, "required")).toEqual([]);
    const service = {
      "gpucloud:apiKey": KEY,
      "gpucloud:apiUrl": "https://rest.example.test/v2",
      "gpucloud:serverlessUrl": "https://jobs.example.test/v2",
    };
    expect(problems(service, "required")).toEqual([]);
  });

  it("a missing key names the setting, the environment variable and the fix", () => {
    const [p, ...rest] = problems({ ...good, "gpucloud:apiKey": undefined });
    expect(rest).toEqual([]);
    expect(p?.setting).toBe("gpucloud:apiKey");
    expect(p?.message).toContain("pulumi config set --secret gpucloud:apiKey");
    expect(p?.message).toContain("GPUCLOUD_API_KEY");
  });

  it("a management URL that is not an API base names the value and the emulator's base", () => {
    const [p] = problems({ ...good, "gpucloud:apiUrl": origin });
    expect(p?.setting).toBe("gpucloud:apiUrl");
    expect(p?.message).toContain(`(got "${origin}")`);
    expect(p?.message).toContain(`"${origin}/api/v2"`);
  });

  it("a job URL is needed only where jobs run, and is checked wherever it is set", () => {
    const withoutJobs = { ...good, "gpucloud:serverlessUrl": undefined };
    expect(problems(withoutJobs, "ifSet")).toEqual([]);
    const [missing] = problems(withoutJobs, "required");
    expect(missing?.setting).toBe("gpucloud:serverlessUrl");
    expect(missing?.message).toContain("pulumi config set gpucloud:serverlessUrl");
    const [bad] = problems({ ...good, "gpucloud:serverlessUrl": `${origin}/v1` }, "ifSet");
    expect(bad?.message).toMatch(/It ends in \/v1: that is the management API's URL; check that the two settings are not swapped/);
  });

  it("the emulator's management URL given as the job URL", () => {
    const [p] = problems({ ...good, "gpucloud:serverlessUrl": `${origin}/api/v2` });
    expect(p?.setting).toBe("gpucloud:serverlessUrl");
    expect(p?.message).toContain("the emulator's management API URL, not the job API's");
    expect(p?.message).toContain(`"${origin}/v2"`);
  });

  it("the emulator's two URLs swapped", () => {
    const [p, ...rest] = problems({ ...good, "gpucloud:apiUrl": `${origin}/v2`, "gpucloud:serverlessUrl": `${origin}/api/v2` });
    expect(rest).toEqual([]);
    expect(p?.setting).toBe("gpucloud:apiUrl and gpucloud:serverlessUrl");
    expect(p?.message).toContain("the two settings are swapped");
  });

  it("one URL in both settings (the emulator's job base as the management URL, or the service's)", () => {
    const [p] = problems({ ...good, "gpucloud:apiUrl": `${origin}/v2` });
    expect(p?.setting).toBe("gpucloud:apiUrl and gpucloud:serverlessUrl");
    expect(p?.message).toContain(`are both "${origin}/v2"`);
    expect(p?.message).toContain(`"${origin}/api/v2"`);
    const same = "https://jobs.example.test/v2";
    expect(problems({ ...good, "gpucloud:apiUrl": same, "gpucloud:serverlessUrl": `${same}/` })[0]?.message).toContain(
      "different services",
    );
  });

  it("user info in a URL is never shown", () => {
    const [p] = problems({ ...good, "gpucloud:apiUrl": "http://user:hunter2@127.0.0.1:4000/" });
    expect(p?.message).not.toContain("hunter2");
  });
});
