import { describe, expect, it } from "vitest";
import type { Pod } from "../../../client/schemas";
import { podPendingState } from "../../../provider/resources/podReadiness";
import type { PodArgs } from "../../../model/fields/podFields";

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
