// The pod rules of the service's v2 API as the provider applies them, without a service: mount
// kinds replace, the SSH default does not diff against older state, removed ports close, templated
// pods are matched without a template link, http ports give no public IP, readiness on v2, and the
// action chosen from the pod's `actions`.
import { describe, expect, it } from "vitest";
import type { Pod } from "../../../client/schemas";
import type { PodV2 } from "../../../client/schemasV2";
import { computeDiff } from "../../../provider/resources/diffEngine";
import { tableForBackend } from "../../../model/fields/fieldTable";
import { podSpec } from "../../../provider/resources/pod";
import { podTable, type PodArgs } from "../../../model/kinds/pod/podFields";
import { podPendingState } from "../../../model/kinds/pod/podReadiness";
import { templateTable } from "../../../model/kinds/template/templateFields";
import { serviceUpdates } from "../../../provider/resources/updates";
import { chooseAction } from "../../../model/kinds/pod/podActionsV2";
import { fromWireV2 } from "../../../model/fields/wireV2";

const v2 = tableForBackend(podTable, "v2");
const v1 = tableForBackend(podTable, "v1");
const base = { name: "p", imageName: "img:1", gpuTypeIds: ["NVIDIA L4"] };

describe("mount kind on v2", () => {
  it("adding or removing a pod's persistent storage replaces it; resizing updates it; v1 updates either way", () => {
    expect(computeDiff(v2, { ...base, volumeInGb: 0 }, { ...base, volumeInGb: 20 }).replaces).toEqual(["volumeInGb"]);
    expect(computeDiff(v2, base, { ...base, volumeInGb: 20 }).replaces).toEqual(["volumeInGb"]);
    expect(computeDiff(v2, { ...base, volumeInGb: 20 }, base).replaces).toEqual(["volumeInGb"]);
    const resize = computeDiff(v2, { ...base, volumeInGb: 20 }, { ...base, volumeInGb: 30 });
    expect(resize.changes).toBe(true);
    expect(resize.replaces).toEqual([]);
    expect(computeDiff(v1, { ...base, volumeInGb: 0 }, { ...base, volumeInGb: 20 }).replaces).toEqual([]);
  });

  it("says why at preview (check warns with the reason)", () => {
    const result = podTable.crossCheck?.({ ...base, volumeInGb: 20 }, { ...base }, "v2");
    expect(result?.warnings.join("\n")).toMatch(/volumeInGb: the v2 API fixes a pod's mount kind at create/);
    expect(podTable.crossCheck?.({ ...base, volumeInGb: 20 }, {}, "v2").warnings.join("\n")).not.toMatch(/mount kind/);
  });

  it("a template losing its persistent storage is replaced on v2 (the service cannot clear it)", () => {
    const t = tableForBackend(templateTable, "v2");
    expect(computeDiff(t, { name: "t", imageName: "i", volumeInGb: 20 }, { name: "t", imageName: "i" }).replaces).toEqual(["volumeInGb"]);
  });
});

describe("startSsh and startJupyter", () => {
  it("state written before startSsh existed plans nothing; an explicit change replaces", () => {
    expect(computeDiff(v2, base, base).changes).toBe(false);
    expect(computeDiff(v2, base, { ...base, startSsh: true }).changes).toBe(false);
    expect(computeDiff(v2, base, { ...base, startSsh: false }).replaces).toEqual(["startSsh"]);
    expect(computeDiff(v2, base, { ...base, startJupyter: true }).replaces).toEqual(["startJupyter"]);
  });
});

describe("ports and commands on v2", () => {
  it("removing ports sends [] on v2 (no default ports there) and v1's defaults on v1", () => {
    const olds = { ...base, ports: ["22/tcp"] };
    expect(serviceUpdates(v2, computeDiff(v2, olds, base), base)).toEqual({ ports: [] });
    expect(serviceUpdates(v1, computeDiff(v1, olds, base), base)).toEqual({ ports: ["8888/http", "22/tcp"] });
  });

  it("a command with blanks inside an element reads back unchanged: no diff after an up", () => {
    const declared = { ...base, dockerEntrypoint: ["bash", "-c"], dockerStartCmd: ["python train.py --name 'a b'"] };
    const read = fromWireV2(podTable, {
      id: "p1",
      name: "p",
      image: "img:1",
      entrypoint: ["bash", "-c"],
      cmd: ["python train.py --name 'a b'"],
      args: "x",
      gpu: { id: "NVIDIA L4", count: 1 },
    });
    expect(read).toMatchObject({ dockerEntrypoint: ["bash", "-c"], dockerStartCmd: ["python train.py --name 'a b'"] });
    expect(computeDiff(v2, { ...declared, ...read }, declared).changes).toBe(false);
  });
});

describe("addresses and readiness on v2", () => {
  const wirePod = (ports: unknown[]) => fromWireV2(podTable, { id: "p", status: "RUNNING", runtime: { ports } });

  it("an http port's proxy address is never the pod's publicIp", () => {
    expect(wirePod([{ private: 8888, public: null, type: "http", ip: "100.64.0.1" }])["publicIp"]).toBeUndefined();
    expect(
      wirePod([
        { private: 8888, public: null, type: "http", ip: "100.64.0.1" },
        { private: 22, public: 10022, type: "tcp", ip: "100.70.1.2" },
      ])["publicIp"],
    ).toBe("100.70.1.2");
  });

  it("an http-only v2 pod is ready once RUNNING, without a public IP", () => {
    const args = { imageName: "img", ports: ["8888/http"] } as PodArgs;
    const pod = { id: "p", desiredStatus: "RUNNING", status: "RUNNING" } as Pod;
    expect(podPendingState(args, pod)).toBeUndefined();
    expect(podPendingState({ ...args, ports: ["8888/http", "22/tcp"] } as PodArgs, pod)).toBe("RUNNING, no public IP yet");
  });

  it("waits until the declared global networking is in effect", () => {
    const args = { imageName: "img", ports: [], globalNetworking: true } as unknown as PodArgs;
    expect(podPendingState(args, { id: "p", desiredStatus: "RUNNING", status: "RUNNING", globalNetworking: false } as Pod)).toMatch(
      /global networking on not in effect yet/,
    );
    expect(podPendingState(args, { id: "p", desiredStatus: "RUNNING", status: "RUNNING", globalNetworking: true } as Pod)).toBeUndefined();
  });

  it("a pod in ERROR reads as stopped (desiredStatus EXITED), so a pod declared RUNNING is started", () => {
    expect(fromWireV2(podTable, { id: "p", status: "ERROR" })["desiredStatus"]).toBe("EXITED");
  });
});

describe("templated pods after a lost create", () => {
  it("the live pod reports no template (v2): it still matches by name and image", () => {
    const args = { name: "p", templateId: "t1" } as PodArgs;
    expect(podSpec.matches({ id: "x", name: "p", desiredStatus: "RUNNING" } as Pod, args)).toBe(true);
    expect(podSpec.matches({ id: "x", name: "p", templateId: "t2", desiredStatus: "RUNNING" } as Pod, args)).toBe(false);
    expect(podSpec.matches({ id: "x", name: "other", desiredStatus: "RUNNING" } as Pod, args)).toBe(false);
  });
});

describe("the action chosen from the pod's actions", () => {
  const pod = (status: string, actions: string[]): PodV2 => ({ id: "p", status, actions }) as PodV2;

  it("starts an ERROR or EXITED pod; a restart trigger on a stopped pod starts it", () => {
    expect(chooseAction("start", pod("ERROR", ["start", "terminate"]))).toBe("start");
    expect(chooseAction("restart", pod("EXITED", ["start", "terminate"]))).toBe("start");
    expect(chooseAction("restart", pod("ERROR", ["start", "terminate"]))).toBe("start");
  });

  it("sends nothing where the pod already is, or is getting there", () => {
    expect(chooseAction("start", pod("RUNNING", ["stop", "restart", "terminate"]))).toBeUndefined();
    expect(chooseAction("start", pod("STARTING", ["stop", "terminate"]))).toBeUndefined();
    expect(chooseAction("restart", pod("PROVISIONING", ["stop", "terminate"]))).toBeUndefined();
    expect(chooseAction("stop", pod("EXITED", ["start", "terminate"]))).toBeUndefined();
  });

  it("refuses what the pod's status does not allow, naming what it allows", () => {
    expect(() => chooseAction("stop", pod("ERROR", ["start", "terminate"]))).toThrow(/ERROR, which allows start, terminate, not stop/);
  });
});
