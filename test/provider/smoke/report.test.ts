import { describe, expect, it } from "vitest";
import { failureMessage } from "../../../provider/smoke/report";
import type { CaseResult } from "../../../model/components/caseResult";

const passed = (name: string): CaseResult => ({
  name,
  jobId: `job-${name}`,
  status: "COMPLETED",
  output: { ok: true },
  passed: true,
  problems: [],
});

describe("failureMessage", () => {
  it("is undefined when every case passed (or there were none)", () => {
    expect(failureMessage("ep-1", [passed("a"), passed("b")])).toBeUndefined();
    expect(failureMessage("ep-1", [])).toBeUndefined();
  });

  it("names the endpoint, the count, and for a failed case its name, job id, status, problems, error and output", () => {
    const failed: CaseResult = {
      name: "oom",
      jobId: "job-7f3a",
      status: "FAILED",
      error: "CUDA error: out of memory",
      output: { partial: "tok tok" },
      passed: false,
      problems: ["status is FAILED, expected COMPLETED"],
    };
    const message = failureMessage("ep-xyz", [passed("fine"), failed]);
    expect(message).toBeDefined();
    const lines = message!.split("\n");
    expect(lines[0]).toBe("smoke tests failed on endpoint ep-xyz: 1 of 2 case(s) failed");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      '  - case "oom": job job-7f3a ended FAILED; status is FAILED, expected COMPLETED; error: "CUDA error: out of memory"; output: {"partial":"tok tok"}',
    );
    // The passing case is not listed.
    expect(message).not.toContain("fine");
  });

  it("lists every failed case on its own line, each with its own job id and status", () => {
    const results: CaseResult[] = [
      {
        name: "slow",
        jobId: "job-1",
        status: "IN_PROGRESS",
        passed: false,
        problems: ["did not finish within timeoutSeconds=1 (last status IN_PROGRESS); the job was cancelled"],
      },
      passed("ok"),
      {
        name: "wrong",
        jobId: "job-2",
        status: "COMPLETED",
        output: "nope",
        passed: false,
        problems: ['output is not equal to the expected "yes"'],
      },
    ];
    const lines = failureMessage("ep", results)!.split("\n");
    expect(lines[0]).toBe("smoke tests failed on endpoint ep: 2 of 3 case(s) failed");
    expect(lines.slice(1)).toEqual([
      '  - case "slow": job job-1 ended IN_PROGRESS; did not finish within timeoutSeconds=1 (last status IN_PROGRESS); the job was cancelled',
      '  - case "wrong": job job-2 ended COMPLETED; output is not equal to the expected "yes"; output: "nope"',
    ]);
  });

  it("cuts long outputs and errors to a 500-character excerpt that states the full length", () => {
    const big = { text: "y".repeat(5_000) };
    const message = failureMessage("ep", [
      {
        name: "big",
        jobId: "job-big",
        status: "COMPLETED",
        output: big,
        error: "e".repeat(2_000),
        passed: false,
        problems: ["output.text is wrong"],
      },
    ])!;
    const fullOutput = JSON.stringify(big);
    expect(message).toContain(`output: ${fullOutput.slice(0, 500)}... (${fullOutput.length} chars)`);
    expect(message).toContain(`error: "${"e".repeat(499)}... (2002 chars)`);
    expect(message).not.toContain("y".repeat(600));
    expect(message.length).toBeLessThan(1_500);
  });

  it("an output of null or 0 is still shown; an absent one is not", () => {
    const message = failureMessage("ep", [
      { name: "n", jobId: "j1", status: "COMPLETED", output: null, passed: false, problems: ["x"] },
      { name: "z", jobId: "j2", status: "COMPLETED", output: 0, passed: false, problems: ["y"] },
      { name: "u", jobId: "j3", status: "FAILED", error: "", passed: false, problems: ["z"] },
    ])!;
    expect(message).toContain('case "n": job j1 ended COMPLETED; x; output: null');
    expect(message).toContain('case "z": job j2 ended COMPLETED; y; output: 0');
    expect(message).toContain('case "u": job j3 ended FAILED; z; error: ""');
    expect(message.split("\n")[3]).not.toContain("output:");
  });
});
