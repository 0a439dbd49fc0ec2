// A v2 pod whose own create body is over the service's 102,400 bytes (management-api-v2-today.md 5.2,
// POST /v2/pods: 413) fails check at preview, naming the field that contributes most, the size, the
// limit and the fix; the body measured is the one the v2 backend sends.
import { describe, expect, it } from "vitest";
import { buildResourceProviders } from "../../../provider/resources/registry";
import { CREATE_POD_BODY_LIMIT_BYTES, podCreateBodyV2 } from "../../../model/kinds/pod/podBodyV2";
import { podTable } from "../../../model/kinds/pod/podFields";
import { UNKNOWN } from "../../../model/fields/values";
import { recordingDeps } from "../../support/recordingDeps";

const v2 = buildResourceProviders(recordingDeps({}, { backend: () => "v2" }));
const v1 = buildResourceProviders(recordingDeps({}, { backend: () => "v1" }));
const base = { name: "p", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] };

async function check(providers: typeof v2, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const result = await providers.pod.check!(olds, news);
  return { failures: result.failures ?? [] };
}
const bodyBytes = (args: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(podCreateBodyV2(podTable, args)));

/** Pod arguments whose v2 create body is exactly `bytes` long, made up by one env value. */
function podOf(bytes: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const shell = { ...base, ...extra, env: { BIG: "" } };
  const args = { ...shell, env: { BIG: "x".repeat(bytes - bodyBytes(shell)) } };
  expect(bodyBytes(args)).toBe(bytes);
  return args;
}

describe("the v2 pod create body limit at preview", () => {
  it("passes at exactly 102,400 bytes and fails one byte over, naming env, the size, the limit and the fix", async () => {
    expect((await check(v2, podOf(CREATE_POD_BODY_LIMIT_BYTES))).failures).toEqual([]);
    const { failures } = await check(v2, podOf(CREATE_POD_BODY_LIMIT_BYTES + 1));
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    // env is sensitive: the failure names no property, so the engine prints no value; the reason starts with it.
    expect(failure?.property).toBe("");
    expect(failure?.reason).toMatch(
      /^env: makes the pod's v2 create body 102,401 bytes \(env alone 10\d,\d{3}\), over the service's limit of 102,400 bytes/,
    );
    expect(failure?.reason).toContain("413");
    expect(failure?.reason).toContain("shrink the env and command values");
    expect(failure?.reason).not.toContain("xxxxxxxx");
    expect(failure?.reason).not.toContain("templateId");
  });

  it("names the largest contributor when it is not env (the start command)", async () => {
    const { failures } = await check(v2, { ...base, dockerStartCmd: ["python", "-c", "p".repeat(CREATE_POD_BODY_LIMIT_BYTES)] });
    expect(failures.map((f) => f.property)).toEqual(["dockerStartCmd"]);
    expect(failures[0]?.reason).toMatch(/^dockerStartCmd: makes the pod's v2 create body/);
  });

  it("with a templateId counts the pod's own body only, and says so", async () => {
    const args = { name: "p", templateId: "tpl1", gpuTypeIds: ["NVIDIA L4"], env: { BIG: "x".repeat(CREATE_POD_BODY_LIMIT_BYTES) } };
    const { failures } = await check(v2, args);
    expect(failures[0]?.reason).toContain("Only the pod's own body is counted");
    expect(failures[0]?.reason).toContain("the template's env and command count against the same limit");
  });

  it("leaves out values not known yet (a lower bound), and is a v2 rule only", async () => {
    expect((await check(v2, { ...base, env: { BIG: UNKNOWN, SMALL: "1" } })).failures).toEqual([]);
    expect((await check(v1, { ...base, env: { BIG: "x".repeat(CREATE_POD_BODY_LIMIT_BYTES) } })).failures).toEqual([]);
  });

  it("concerns a create only: an update is a PATCH, and an adopted pod is not created", async () => {
    const large = podOf(CREATE_POD_BODY_LIMIT_BYTES + 1);
    expect((await check(v2, large, { ...base, env: { BIG: "small" } })).failures).toEqual([]);
    expect((await check(v2, { ...large, adoptId: "pod123" })).failures).toEqual([]);
  });
});
