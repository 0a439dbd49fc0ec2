/**
 * What each resource kind carries in a stack's state: the bytes of its checked inputs plus its
 * outputs, as the engine records them after a create, measured by running the compiled provider's
 * own check and create (through dispatch, as a shim calls it) against an in-process emulator. The
 * provider text (`__provider`, a bare require of a few hundred bytes, once in the inputs and once
 * in the outputs) is the same for every kind and every version, and is left out.
 *
 * `dist` is the compiled package root (this checkout's `dist/`, or another build of the package),
 * so the same measurement runs on the code before and after a change.
 */
import * as path from "node:path";

/** The kinds measured, each with the arguments of a typical declaration. */
const KINDS = [
  { kind: "template", args: { name: "bytes-worker", imageName: "ghcr.io/acme/worker:1", isServerless: true } },
  { kind: "endpoint", args: { name: "bytes-endpoint", gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 3 }, needsTemplate: true },
  {
    kind: "pod",
    args: {
      name: "bytes-pod",
      imageName: "ghcr.io/acme/trainer:1",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      gpuCount: 1,
      containerDiskInGb: 20,
      volumeInGb: 10,
      ports: ["22/tcp"],
    },
  },
  { kind: "networkVolume", args: { name: "bytes-volume", size: 100, dataCenterId: "EU-RO-1" } },
] as const;

/** The user's own prices, so pods and volumes carry a priced estimate (the larger record). */
const OWN_PRICES = JSON.stringify({ networkVolumePerGbMonth: 0.07, containerDiskPerGbMonth: 0.1, podVolumePerGbMonth: 0.1 });

type Props = Record<string, unknown>;
type Dispatch = (shim: { k: string }, method: string, args: unknown[]) => Promise<unknown>;

export interface KindBytes {
  kind: string;
  inputs: number;
  outputs: number;
  total: number;
}

const sizeOf = (props: Props): number => {
  const { __provider: _provider, ...rest } = props;
  return Buffer.byteLength(JSON.stringify(rest));
};

/** Bytes per kind on one management API version, for the package compiled under `dist`. */
export async function stateBytesPerKind(dist: string, api: "v1" | "v2"): Promise<KindBytes[]> {
  const { startEmulator } = require(path.join(dist, "emulator")) as {
    startEmulator(o: object): Promise<{ apiUrl: string; apiUrlV2: string; serverlessUrl: string; close(): Promise<void> }>;
  };
  const { dispatch } = require(path.join(dist, "provider", "dispatch")) as { dispatch: Dispatch };
  const apiKey = "state-bytes-key";
  const emulator = await startEmulator({ port: 0, timeScale: 0.001, apiKeys: [apiKey] });
  try {
    const config: Props = {
      "gpucloud:apiUrl": api === "v2" ? emulator.apiUrlV2 : emulator.apiUrl,
      "gpucloud:serverlessUrl": emulator.serverlessUrl,
      "gpucloud:apiKey": apiKey,
      "gpucloud:prices": OWN_PRICES,
    };
    await dispatch({ k: "template" }, "configure", [{ config }]);
    const out: KindBytes[] = [];
    let templateId: string | undefined;
    for (const entry of KINDS) {
      const shim = { k: entry.kind };
      const args: Props = { ...entry.args, ...("needsTemplate" in entry ? { templateId } : {}), __provider: "shim" };
      const checked = (await dispatch(shim, "check", [{}, args])) as { inputs: Props; failures: unknown[] };
      if (checked.failures.length > 0) throw new Error(`state bytes: ${entry.kind} fails check: ${JSON.stringify(checked.failures)}`);
      const created = (await dispatch(shim, "create", [checked.inputs])) as { id: string; outs: Props };
      if (entry.kind === "template") templateId = created.id;
      const inputs = sizeOf(checked.inputs);
      const outputs = sizeOf(created.outs);
      out.push({ kind: entry.kind, inputs, outputs, total: inputs + outputs });
    }
    return out;
  } finally {
    await emulator.close();
  }
}
