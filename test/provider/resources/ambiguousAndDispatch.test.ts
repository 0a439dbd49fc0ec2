import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "../../../provider/dispatch";
import { closeClients as closeManagementClients } from "../../../model/connection";
import { startEmulator, type RunningEmulator } from "../../../emulator/index";
import { startHarness } from "../../support/providerHarness";
import { ResourceInitError } from "../../../provider/resources/partialCreate";

/** Lets the operation run, then drops the connection instead of answering: a lost create answer. */
function dropAnswer(res: ServerResponse): void {
  res.writeHead = (() => {
    res.socket?.destroy();
    return res;
  }) as ServerResponse["writeHead"];
  res.end = (() => res) as ServerResponse["end"];
}

describe("ambiguous creates against the emulator", () => {
  it("a pod create whose answer is lost is found by lookup, not created twice", async () => {
    let dropped = 0;
    const h = await startHarness({
      timeScale: 0.001,
      routeInterceptor: ({ operationId, res }) => {
        if (operationId === "CreatePod" && dropped++ === 0) dropAnswer(res);
        return false;
      },
    });
    try {
      const created = await h.providers.pod.create({ name: "once", imageName: "img", gpuTypeIds: ["NVIDIA L4"] });
      const pods = h.emulator.inspect()[0]?.pods ?? [];
      expect(pods.map((p) => p.id)).toEqual([created.id]);
      expect(h.lines.warn.join("\n")).toMatch(/pod "once": the create got no clear answer .*looking for it/);
      expect(h.lines.info.join("\n")).toContain(`pod "once": the service did make it (id ${created.id}): using it`);
      expect(h.calls.filter((c) => c === "pods.create")).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it("a template create answered 503 is never sent again: looked for, then recorded as pending for the next up", async () => {
    let failures = 0;
    const h = await startHarness({
      timeScale: 0.001,
      routeInterceptor: ({ operationId, res }) => {
        if (operationId !== "CreateTemplate" || failures++ > 0) return false;
        res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "try later" }));
        return true;
      },
    });
    try {
      const error = await h.providers.template.create({ name: "tpl", imageName: "img" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ResourceInitError);
      expect((error as ResourceInitError).id).toMatch(/^pending-create-template-/);
      expect((error as Error).message).toMatch(
        /template "tpl": the create sent at .* may or may not have been made: .*503.* It was not sent again\./,
      );
      expect(h.calls.filter((c) => c === "templates.create")).toHaveLength(1);
      expect(h.emulator.inspect()[0]?.templates ?? []).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe("the registered providers, reached through dispatch like a serialized shim", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.001 });
  });
  afterAll(async () => {
    await closeManagementClients();
    await emulator.close();
  });

  it("reads the connection from stack config given to configure (never from state)", async () => {
    await dispatch({ k: "networkVolume" }, "configure", [
      {
        config: {
          "gpucloud:apiKey": emulator.apiKey,
          "gpucloud:apiUrl": emulator.apiUrl,
          "gpucloud:serverlessUrl": emulator.serverlessUrl,
        },
      },
    ]);
    const inputs = { name: "via-dispatch", size: 10, dataCenterId: "EU-RO-1", __provider: "shim" };
    const check = (await dispatch({ k: "networkVolume" }, "check", [{}, inputs])) as { inputs: Record<string, unknown> };
    const created = (await dispatch({ k: "networkVolume" }, "create", [check.inputs])) as { id: string; outs: Record<string, unknown> };
    expect(created.outs).toMatchObject({ name: "via-dispatch", size: 10 });
    expect(JSON.stringify(created.outs)).not.toContain(emulator.apiKey);
    await dispatch({ k: "networkVolume" }, "delete", [created.id, created.outs]);
    expect(emulator.inspect()[0]?.networkVolumes ?? []).toEqual([]);
  });

  it("plans an update of an unchanged resource whose state has no provider text (moved back from the plugin)", async () => {
    const inputs = { name: "moved-back", size: 10, dataCenterId: "EU-RO-1" };
    const diff = (olds: Record<string, unknown>) =>
      dispatch({ k: "networkVolume" }, "diff", ["vol-1", olds, { ...inputs, __provider: "shim" }]) as Promise<{ changes?: boolean }>;
    expect((await diff({ ...inputs, __provider: "shim" })).changes).toBe(false);
    expect((await diff(inputs)).changes).toBe(true);
  });

  it("a missing API key is a clear error that names the setting", async () => {
    await dispatch({ k: "pod" }, "configure", [{ config: {} }]);
    const saved = process.env["GPUCLOUD_API_KEY"];
    delete process.env["GPUCLOUD_API_KEY"];
    try {
      await expect(dispatch({ k: "pod" }, "create", [{ name: "x", imageName: "img" }])).rejects.toThrow(/gpucloud:apiKey|GPUCLOUD_API_KEY/);
    } finally {
      if (saved !== undefined) process.env["GPUCLOUD_API_KEY"] = saved;
    }
  });
});
