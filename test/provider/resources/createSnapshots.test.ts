// The snapshots creates take before they are sent (createOnce.ts): one list serves the creates of
// a kind for SNAPSHOT_MAX_AGE_MS, with what this process created since added, so a lost answer is
// still told apart from every resource that existed before the create.
import { describe, expect, it } from "vitest";
import { CreateSnapshots, SNAPSHOT_MAX_AGE_MS } from "../../../provider/resources/createOnce";
import { podProvider } from "../../../provider/resources/registry";
import { FakePods } from "./fakeService";
import { recordingDeps } from "../../support/recordingDeps";

type Item = { id: string };

function listing(items: Item[]) {
  const calls = { n: 0 };
  return {
    calls,
    list: async () => {
      calls.n++;
      return items.map((i) => ({ ...i }));
    },
  };
}

describe("CreateSnapshots", () => {
  it("serves creates within the age from one list, and lists again after it", async () => {
    let now = 0;
    const snapshots = new CreateSnapshots<Item>(() => now);
    const service = listing([{ id: "a" }]);
    expect(await snapshots.take(service.list)).toEqual([{ id: "a" }]);
    now = SNAPSHOT_MAX_AGE_MS;
    expect(await snapshots.take(service.list)).toEqual([{ id: "a" }]);
    expect(service.calls.n).toBe(1);
    now = SNAPSHOT_MAX_AGE_MS + 1;
    await snapshots.take(service.list);
    expect(service.calls.n).toBe(2);
  });

  it("creates that arrive while the list is in flight wait for that one list", async () => {
    const snapshots = new CreateSnapshots<Item>(() => 0);
    let answer: (items: Item[]) => void = () => undefined;
    let calls = 0;
    const list = () => {
      calls++;
      return new Promise<Item[]>((resolve) => {
        answer = resolve;
      });
    };
    const first = snapshots.take(list);
    const second = snapshots.take(list);
    answer([{ id: "a" }]);
    expect(await Promise.all([first, second])).toEqual([[{ id: "a" }], [{ id: "a" }]]);
    expect(calls).toBe(1);
  });

  it("adds what this process created since the list, until a newer list holds it", async () => {
    let now = 0;
    const snapshots = new CreateSnapshots<Item>(() => now);
    const items: Item[] = [{ id: "a" }];
    await snapshots.take(async () => items);
    now = 5;
    snapshots.add({ id: "b" });
    expect(await snapshots.take(async () => items)).toEqual([{ id: "a" }, { id: "b" }]);
    // A newer list (sent after "b" was made) has it: it is not repeated.
    now = SNAPSHOT_MAX_AGE_MS + 10;
    items.push({ id: "b" });
    expect(await snapshots.take(async () => items)).toEqual([{ id: "a" }, { id: "b" }]);
  });

  it("does not keep a list that failed: its creates get the error, the next one lists again", async () => {
    const snapshots = new CreateSnapshots<Item>(() => 0);
    await expect(snapshots.take(async () => Promise.reject(new Error("service down")))).rejects.toThrow("service down");
    expect(await snapshots.take(async () => [{ id: "a" }])).toEqual([{ id: "a" }]);
  });
});

describe("creates sharing a snapshot", () => {
  const news = (name: string) => ({ name, imageName: "img:1", __provider: "shim-text" });

  it("many pod creates in one process list the pods once", async () => {
    const service = new FakePods();
    const provider = podProvider(recordingDeps(service.api()));
    await Promise.all(["a", "b", "c", "d"].map((name) => provider.create(news(name))));
    await provider.create(news("e"));
    expect(service.calls.filter((c) => c === "listPods")).toHaveLength(1);
    expect(service.calls.filter((c) => c === "createPod")).toHaveLength(5);
  });

  it("a lost answer after an earlier create of the same name in this process adopts the new pod, not the earlier one", async () => {
    const service = new FakePods();
    const deps = recordingDeps(service.api());
    const provider = podProvider(deps);
    const first = await provider.create(news("twin"));
    // The second create's answer is lost; the snapshot it shares was listed before the first pod existed.
    service.faults = ["lost-after-create"];
    const second = await provider.create(news("twin"));
    expect(service.pods.size).toBe(2);
    expect(second.id).not.toBe(first.id);
    expect(second.id).toBe("pod2");
    expect(service.calls.filter((c) => c === "listPods")).toHaveLength(2);
    expect(deps.lines.info.join("\n")).toContain('pod "twin": the service did make it (id pod2): using it');
  });

  it("a pod that another client made before the list is not taken for the lost create's", async () => {
    const service = new FakePods();
    await service.api().pods!.create!({ name: "twin", imageName: "img:1" });
    const provider = podProvider(recordingDeps(service.api()));
    service.faults = ["lost-after-create"];
    const created = await provider.create(news("twin"));
    expect(created.id).toBe("pod2");
    expect(service.pods.size).toBe(2);
  });
});
