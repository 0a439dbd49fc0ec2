import { describe, expect, it } from "vitest";
import type { Pod } from "../../../client/schemas";
import { podPendingState } from "../../../model/kinds/pod/podReadiness";
import { waitForPod } from "../../../provider/resources/podReadiness";
import { ReadinessTimeoutError } from "../../../provider/resources/waitFor";
import { recordingDeps } from "../../support/recordingDeps";
import type { PodArgs } from "../../../model/kinds/pod/podFields";

const running = (extra: Partial<Pod> = {}): Pod => ({ id: "p1", desiredStatus: "RUNNING", publicIp: "100.64.0.9", ...extra });
const args = (ports: string[]): PodArgs => ({ imageName: "img", ports }) as PodArgs;

describe("pod readiness waits only for the port mappings the service makes", () => {
  it("an http-only pod is ready once RUNNING with a public IP: http ports are proxied, never mapped", () => {
    expect(podPendingState(args(["8888/http", "8000/http"]), running({ portMappings: {} }))).toBeUndefined();
    expect(podPendingState(args(["8888/http"]), running())).toBeUndefined();
  });

  it("waits for a mapping of every tcp port, naming the ones still missing", () => {
    const ports = ["8888/http", "22/tcp", "5432/tcp"];
    expect(podPendingState(args(ports), running({ portMappings: {} }))).toBe("RUNNING, no port mapping yet for 22/tcp, 5432/tcp");
    expect(podPendingState(args(ports), running({ portMappings: { "22": 10341 } }))).toBe("RUNNING, no port mapping yet for 5432/tcp");
    expect(podPendingState(args(ports), running({ portMappings: { "22": 10341, "5432": 10342 } }))).toBeUndefined();
  });

  it("still waits for the public IP and for RUNNING", () => {
    expect(podPendingState(args(["8888/http"]), running({ publicIp: undefined }))).toBe("RUNNING, no public IP yet");
    expect(podPendingState(args(["8888/http"]), running({ desiredStatus: "EXITED" }))).toBe("status EXITED");
  });
});

describe("a pod that does not become ready shows its log", () => {
  const podArgs = { imageName: "img", ports: ["8888/http"] } as PodArgs;

  it("an ERROR pod's failure ends with its last log lines; the error stays a ReadinessTimeoutError with the last state", async () => {
    const targets: unknown[] = [];
    const deps = recordingDeps(
      { pods: { get: async () => ({ id: "p1", desiredStatus: "EXITED", status: "ERROR" }) as Pod } },
      {
        logs: () => async (target) => {
          targets.push(target);
          return {
            lines: [{ source: "system", line: "status ERROR: CUDA error: out of memory", ts: "2026-12-02T08:00:01.000000Z" }],
            droppedLines: 0,
            ended: "quiet",
            path: "/pods/p1/logs",
            url: "http://h/api/v2/pods/p1/logs",
          };
        },
      },
    );
    const error = await waitForPod(deps, "p1", 'pod "trainer" (id p1)', podArgs, 60).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    expect((error as ReadinessTimeoutError).last).toMatchObject({ status: "ERROR" });
    expect((error as Error).message).toMatch(/^pod "trainer" \(id p1\) cannot become RUNNING.*status ERROR/);
    expect((error as Error).message).toContain(
      "last 1 line(s) of the log of pod p1:\n  08:00:01 [system] status ERROR: CUDA error: out of memory\nread more: GET http://h/api/v2/pods/p1/logs?tail=1000",
    );
    expect(targets).toEqual([{ podId: "p1" }]);
  });

  it("a timeout does too; a log that cannot be read leaves the failure first, and v1 (no logs) adds nothing", async () => {
    const booting = { pods: { get: async () => ({ id: "p1", desiredStatus: "RUNNING", status: "STARTING" }) as Pod } };
    const failing = recordingDeps(booting, {
      logs: () => async () => {
        throw new Error("connection refused");
      },
    });
    const timedOut = (await waitForPod(failing, "p1", "pod p1", podArgs, 1).catch((e: unknown) => e)) as Error;
    expect(timedOut.message).toMatch(/^pod p1 is not RUNNING.* after .*\n\(the log of pod p1 could not be read: connection refused\)$/s);
    const v1 = recordingDeps(booting, { logs: () => async () => undefined });
    const plain = (await waitForPod(v1, "p1", "pod p1", podArgs, 1).catch((e: unknown) => e)) as Error;
    expect(plain.message).not.toContain("log");
  });
});
