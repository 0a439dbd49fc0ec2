/**
 * The answer check every v2 test runs (test/support/v2Corpus.ts, installed by startTestEmulator and enforced by
 * test/support/v2CorpusSetup.ts): it must see each way an answer can leave the described wire, and
 * it must really be fed the answers of a test's emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { startTestEmulator } from "../../../support/managementHelpers";
import { ANSWER_DIFFERENCES, checkV2Answer, recordV2Answer, takeV2Violations } from "../../../support/v2Corpus";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2 } from "../../../support/v2Helpers";

/** The problems of an answer that are not listed differences. */
const unlisted = (problems: string[]): string[] => problems.filter((p) => !(p in ANSWER_DIFFERENCES));

let emu: RunningEmulator;
let pod: Record<string, unknown>;

beforeAll(async () => {
  emu = await startTestEmulator();
  const res = await apiV2(emu).post("/pods", V2_GPU_POD);
  expect(res.status).toBe(201);
  pod = res.body as Record<string, unknown>;
});
afterAll(() => emu.close());

describe("the v2 answer check", () => {
  it("passes an answer the emulator gave, and sees an unknown field, a missing required one, a wrong type, enum or null", () => {
    expect(unlisted(checkV2Answer("getPod", 200, pod))).toEqual([]);
    const { name: _name, ...withoutName } = pod;
    expect(checkV2Answer("getPod", 200, { ...withoutName, label: "x", locked: "no", status: "SLEEPING", id: null })).toEqual(
      expect.arrayContaining([
        "Pod.name: required, missing",
        "Pod.label: a field the description does not define",
        'Pod.locked: string "no", the description says boolean',
        'Pod.status: "SLEEPING" is not one of PROVISIONING, STARTING, RUNNING, EXITED, ERROR, TERMINATED',
        "Pod.id: null, which the description does not allow",
      ]),
    );
    // Inside lists, nested objects and unions too.
    expect(checkV2Answer("listPods", 200, { pods: [{ ...pod, ssh: { extra: 1 } }] }).join("\n")).toMatch(
      /^ListPodsResponse\.pods\[\]\.ssh\.extra: a field the description does not define$/m,
    );
  });

  it("refuses statuses and bodies the operation does not describe", () => {
    expect(checkV2Answer("getPod", 202, pod)).toEqual(["status 202 is not one the description gives getPod (200)"]);
    expect(checkV2Answer("deletePod", 204, { id: "x" })).toEqual(["a body on an answer the description gives none"]);
    expect(checkV2Answer("noSuchOperation", 200, {})).toEqual(["operation noSuchOperation is not in the description"]);
  });

  it("is fed every v2 answer of a test's emulator, and keeps what does not fit until the test ends", async () => {
    const before = takeV2Violations().recorded;
    await apiV2(emu).get(`/pods/${String(pod.id)}`);
    await apiV2(emu).get("/pods");
    expect(takeV2Violations().recorded).toBe(before + 2);
    recordV2Answer({
      basePath: "/api/v2",
      operationId: "getPod",
      method: "GET",
      accountId: "a",
      params: {},
      status: 200,
      body: { ...pod, label: "x" },
      lost: false,
    });
    recordV2Answer({
      basePath: "/v1",
      operationId: "GetPod",
      method: "GET",
      accountId: "a",
      params: {},
      status: 200,
      body: { whatever: true },
      lost: false,
    });
    // Taken here so that this test does not fail: the setup file's hook would report it.
    expect(takeV2Violations().violations).toEqual(["getPod 200: Pod.label: a field the description does not define"]);
  });

  it("lists only differences the emulator's answers still show", async () => {
    const client = apiV2(emu);
    const template = await client.post("/templates", { name: "corpus template", image: "example/app:1" });
    const endpoint = await client.post("/serverless", V2_QUEUE_ENDPOINT);
    expect([template.status, endpoint.status]).toEqual([201, 201]);
    const answers: Array<[string, string]> = [
      ["getPod", `/pods/${String(pod.id)}`],
      ["listPods", "/pods"],
      ["getTemplate", `/templates/${String(template.body.id)}`],
      ["listTemplates", "/templates"],
      ["listEndpoints", "/serverless"],
      ["listEndpointReleases", `/serverless/${String(endpoint.body.id)}/releases`],
    ];
    const shown = new Set<string>();
    for (const [operationId, path] of answers) {
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      for (const problem of checkV2Answer(operationId, 200, res.body)) shown.add(problem);
    }
    expect(Object.keys(ANSWER_DIFFERENCES).filter((key) => !shown.has(key))).toEqual([]);
  });
});
