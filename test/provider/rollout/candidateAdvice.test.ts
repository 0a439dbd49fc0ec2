// The failed candidate check's wording (provider/rollout/candidateAdvice.ts): a new version is
// blamed; an unchanged version is not, and the message names what changed instead.
import { describe, expect, it } from "vitest";
import { candidateFailureAdvice, changedCaseNames } from "../../../provider/rollout/candidateAdvice";

const answers = { name: "answers", input: { prompt: "hi" }, expect: { outputSubset: { prompt: "hi" } } };
const base = { rollout: "serve", version: "1.0", templateId: "tpl-1", canary: { name: "serve-canary" }, cases: [answers] };

describe("candidateFailureAdvice", () => {
  it("blames a new version (and everything at create)", () => {
    for (const olds of [undefined, base, { ...base, templateRevision: "r1" }]) {
      const advice = candidateFailureAdvice("serve", "2.0", olds, { ...base, version: "2.0", templateId: "tpl-2" });
      expect(advice.head).toBe(
        'rollout "serve": version 2.0 failed its candidate check, so the serving endpoint was not touched (same version, same workers, still answering).',
      );
      expect(advice.fix).toContain("Fix the version");
    }
  });

  it("names the changed case when only a case changed", () => {
    const changed = { ...answers, expect: { outputSubset: { prompt: "bye" } } };
    const advice = candidateFailureAdvice("serve", "1.0", base, { ...base, cases: [changed, { ...answers, name: "new" }] });
    expect(advice.head).toContain('version 1.0 did not change, its smoke-test case(s) "answers", "new" (new or changed) did');
    expect(advice.fix).toContain("Check the changed case(s)");
    expect(`${advice.head} ${advice.fix}`).not.toContain("Fix the version");
  });

  it("names the canary's settings or the trigger when they, not the version, changed", () => {
    const canary = candidateFailureAdvice("serve", "1.0", base, { ...base, canary: { name: "serve-canary", workersMax: 2 } });
    expect(canary.head).toContain("version 1.0 did not change, the canary's settings did");
    expect(canary.fix).toContain("Version 1.0 passed this check before");
    const trigger = candidateFailureAdvice("serve", "1.0", base, { ...base, trigger: "again" });
    expect(trigger.head).toContain("the trigger did");
    const removed = candidateFailureAdvice("serve", "1.0", { ...base, cases: [answers, { ...answers, name: "b" }] }, base);
    expect(removed.head).toContain("its smoke-test cases (some were removed) did");
  });
});

describe("changedCaseNames", () => {
  it("lists new and changed cases by name, not unchanged ones", () => {
    expect(changedCaseNames([answers], [answers])).toEqual([]);
    expect(changedCaseNames(undefined, [answers])).toEqual(["answers"]);
    expect(changedCaseNames([answers], [{ ...answers, input: { prompt: "x" } }])).toEqual(["answers"]);
  });
});
