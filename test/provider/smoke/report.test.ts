import { describe, expect, it } from "vitest";
import { FAILED_WORKERS_SHOWN, failureMessage, failureReport } from "../../../provider/smoke/report";
import type { LogNoteReader } from "../../../provider/logNotes";
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

describe("failureReport", () => {
  const failed = (name: string, workerId?: string): CaseResult => ({
    name,
    jobId: `job-${name}`,
    status: "FAILED",
    ...(workerId === undefined ? {} : { workerId }),
    passed: false,
    problems: ["status is FAILED, expected COMPLETED"],
  });

  it("adds the log of each worker that failed a case, once each, at most FAILED_WORKERS_SHOWN of them", async () => {
    const asked: string[] = [];
    const read: LogNoteReader = async (target) => {
      asked.push("workerId" in target ? `${target.endpointId}/${target.workerId}` : target.podId);
      const lines = [{ source: "container", line: "Traceback", ts: "" }];
      return { lines, droppedLines: 0, ended: "quiet", path: "/p", url: "http://h/p" };
    };
    const results = [passed("ok"), failed("a", "w1"), failed("b", "w1"), failed("c", "w2"), failed("d", "w3"), failed("e")];
    const message = await failureReport("ep-1", results, read);
    expect(asked).toEqual(["ep-1/w1", "ep-1/w2"].slice(0, FAILED_WORKERS_SHOWN));
    expect(message?.startsWith(failureMessage("ep-1", results) ?? "-")).toBe(true);
    expect(message).toContain("last 1 line(s) of the log of worker w1 of endpoint ep-1:\n  [container] Traceback");
  });

  it("is the message alone without a reader, and undefined when every case passed", async () => {
    expect(await failureReport("ep-1", [failed("a", "w1")], undefined)).toBe(failureMessage("ep-1", [failed("a", "w1")]));
    expect(await failureReport("ep-1", [passed("ok")], async () => undefined)).toBeUndefined();
  });
});
