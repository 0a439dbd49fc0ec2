// The provider on v2 reads lists whole, against an emulator that answers two items a page: a lookup
// by name finds a pod on page 3, and a create whose answer is lost finds the pod it made even when
// other pods made meanwhile have pushed it to page 3 (reading page one only, it would create a
// second, billed pod).
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { readExisting } from "../../../model/lookup/lookup";
import { checked, startHarness, type Harness } from "../../support/providerHarness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const podArgs = (name: string) => ({ name, imageName: "example/app:1", gpuTypeIds: ["NVIDIA L4"], __provider: "shim" });

describe("v2 lists of several pages (two items a page)", () => {
  it("a lookup by name finds a pod on page 3", async () => {
    h = await startHarness({ pageSize: 2 }, "v2");
    const target = await h.client.createPod({ name: "on-page-3", imageName: "example/app:1", gpuTypeIds: ["NVIDIA L4"] });
    for (let i = 0; i < 4; i++) await h.client.createPod({ name: `newer-${i}`, imageName: "example/app:1", gpuTypeIds: ["NVIDIA L4"] });
    h.http.take();
    const found = await readExisting("pod", h.deps.client(), "v2", { name: "on-page-3" }, "getPod");
    expect(found["id"]).toBe(target.id);
    const pages = h.http.take().filter((c) => c.method === "GET" && /\/api\/v2\/pods(\?|$)/.test(c.path));
    expect(pages).toHaveLength(3);
  });

  it("a lost create finds the pod it made on a later page, and makes no second one", async () => {
    let created = 0;
    const fill = async (harness: Harness) => {
      // Pods made by someone else after ours and before the provider looks: ours is now on page 3.
      for (let i = 0; i < 4; i++)
        await harness.client.createPod({ name: `meanwhile-${i}`, imageName: "example/other:1", gpuTypeIds: ["NVIDIA L4"] });
    };
    const harness = await startHarness(
      {
        pageSize: 2,
        routeInterceptor: ({ operationId, res }) => {
          if (operationId === "createPod" && created++ === 0) loseAnswerAfter(res, () => fill(harness));
          return false;
        },
      },
      "v2",
    );
    h = harness;
    const result = await harness.providers.pod.create(await checked(harness.providers.pod, podArgs("made-once")));
    const pods = harness.emulator.inspect()[0]?.pods ?? [];
    expect(pods.filter((p) => p.name === "made-once").map((p) => p.id)).toEqual([result.id]);
    expect(pods).toHaveLength(5);
    expect(harness.lines.info.join("\n")).toMatch(/pod "made-once": the service did make it \(id .*\): using it/);
  });
});

/** Lets the operation run, then runs `meanwhile` and drops the connection instead of answering. */
function loseAnswerAfter(res: ServerResponse, meanwhile: () => Promise<void>): void {
  res.writeHead = (() => {
    void meanwhile().finally(() => res.socket?.destroy());
    return res;
  }) as ServerResponse["writeHead"];
  res.end = (() => res) as ServerResponse["end"];
}
