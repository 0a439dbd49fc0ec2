/**
 * `hidden=P@D` (emulator/faults, management/visibility.ts): the service's scheduler lists a new
 * resource a while after it exists. Every list of both surfaces leaves out what a matching create
 * made until D after it was made; a GET by its id finds it at once.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { type Api, GPU_POD, KEY_A, api, startTestEmulator, waitFor } from "../../support/managementHelpers";
import { V2_GPU_POD, V2_QUEUE_ENDPOINT, apiV2 } from "../../support/v2Helpers";
import type { Json } from "../../support/wireJson";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** D of these tests: long enough for every "not listed yet" check to run before it on a busy machine. */
const HIDDEN_MS = 3000;

/** How a kind of resource is listed and read on each surface that has it. */
interface Kind {
  name: string;
  /** The ids a list answers: its path and where its items are in the body. */
  lists: { client: "v1" | "v2"; path: string; items: (body: Json) => { id: string }[] }[];
  gets: { client: "v1" | "v2"; path: (id: string) => string }[];
}

const asArray = (body: Json) => body as { id: string }[];
const field = (name: string) => (body: Json) => body[name] as { id: string }[];

const KINDS: Record<string, Kind> = {
  pod: {
    name: "pod",
    lists: [
      { client: "v1", path: "/pods", items: asArray },
      { client: "v2", path: "/pods", items: field("pods") },
    ],
    gets: [
      { client: "v1", path: (id) => `/pods/${id}` },
      { client: "v2", path: (id) => `/pods/${id}` },
    ],
  },
  endpoint: {
    name: "endpoint",
    lists: [
      { client: "v1", path: "/endpoints", items: asArray },
      { client: "v2", path: "/serverless", items: field("endpoints") },
    ],
    gets: [
      { client: "v1", path: (id) => `/endpoints/${id}` },
      { client: "v2", path: (id) => `/serverless/${id}` },
    ],
  },
  template: {
    name: "template",
    lists: [
      { client: "v1", path: "/templates", items: asArray },
      { client: "v2", path: "/templates", items: field("templates") },
    ],
    gets: [
      { client: "v1", path: (id) => `/templates/${id}` },
      { client: "v2", path: (id) => `/templates/${id}` },
    ],
  },
  volume: {
    name: "network volume",
    lists: [
      { client: "v1", path: "/networkvolumes", items: asArray },
      { client: "v2", path: "/network-volumes", items: field("networkVolumes") },
    ],
    gets: [
      { client: "v1", path: (id) => `/networkvolumes/${id}` },
      { client: "v2", path: (id) => `/network-volumes/${id}` },
    ],
  },
  registry: {
    name: "registry credential",
    lists: [
      { client: "v1", path: "/containerregistryauth", items: asArray },
      { client: "v2", path: "/registries", items: field("registries") },
    ],
    gets: [
      { client: "v1", path: (id) => `/containerregistryauth/${id}` },
      { client: "v2", path: (id) => `/registries/${id}` },
    ],
  },
  secret: {
    name: "secret",
    lists: [{ client: "v2", path: "/account/secrets", items: field("secrets") }],
    gets: [{ client: "v2", path: (id) => `/account/secrets/${id}` }],
  },
};

interface Created {
  kind: Kind;
  id: string;
  /** When its create was sent (performance.now(): the emulator runs in this process, on the same clock). */
  sent: number;
}

async function create(client: Api, kind: Kind, path: string, body: unknown): Promise<Created> {
  const sent = performance.now();
  const res = await client.post(path, body);
  expect(res.status, `create ${kind.name} at ${path}: ${res.text}`).toBeLessThan(300);
  return { kind, id: res.body.id as string, sent };
}

async function listedIds(clients: Record<"v1" | "v2", Api>, list: Kind["lists"][number]): Promise<string[]> {
  const res = await clients[list.client].get(list.path);
  expect(res.status, `${list.client} GET ${list.path}: ${res.text}`).toBe(200);
  return list.items(res.body).map((item) => item.id);
}

describe("hidden=P@D: a new resource shows in lists D after it was created", () => {
  test("every list of both surfaces leaves it out until D; a GET by its id finds it at once", async () => {
    emulator = await startTestEmulator();
    const emu = emulator;
    const clients = { v1: api(emu, KEY_A), v2: apiV2(emu, KEY_A) };
    // Made before the fault: listed all along.
    const before = await create(clients.v1, KINDS.pod as Kind, "/pods", { ...GPU_POD, name: "before" });
    emu.setFaults(`seed=1; *: hidden=1@${HIDDEN_MS}ms`);

    const created: Created[] = [
      await create(clients.v1, KINDS.pod as Kind, "/pods", { ...GPU_POD, name: "v1 pod" }),
      await create(clients.v2, KINDS.pod as Kind, "/pods", { ...V2_GPU_POD, name: "v2 pod" }),
      await create(clients.v2, KINDS.endpoint as Kind, "/serverless", V2_QUEUE_ENDPOINT),
      await create(clients.v1, KINDS.template as Kind, "/templates", { name: "hidden tpl", imageName: "example/app:1" }),
      await create(clients.v2, KINDS.volume as Kind, "/network-volumes", { name: "hidden vol", size: 10, dataCenter: "EU-RO-1" }),
      await create(clients.v1, KINDS.registry as Kind, "/containerregistryauth", { name: "hidden creds", username: "u", password: "p" }),
      await create(clients.v2, KINDS.secret as Kind, "/account/secrets", { name: "HIDDEN_TOKEN", value: "s3cret" }),
    ];
    const firstSent = (created[0] as Created).sent;

    for (const { kind, id } of created) {
      for (const list of kind.lists) {
        expect(await listedIds(clients, list), `${kind.name} ${id} on ${list.client} GET ${list.path}`).not.toContain(id);
      }
      for (const get of kind.gets) {
        const res = await clients[get.client].get(get.path(id));
        expect(res.status, `${get.client} GET ${get.path(id)}`).toBe(200);
        expect(res.body.id).toBe(id);
      }
    }
    // The checks above mean something only if they ran before D.
    expect(performance.now() - firstSent).toBeLessThan(HIDDEN_MS);
    expect(await listedIds(clients, (KINDS.pod as Kind).lists[0] as Kind["lists"][number])).toContain(before.id);

    for (const { kind, id, sent } of created) {
      for (const list of kind.lists) {
        await waitFor(`${kind.name} ${id} on ${list.client} GET ${list.path}`, async () =>
          (await listedIds(clients, list)).includes(id) ? true : undefined,
        );
      }
      // Listed no sooner than D after it was created, which was after its create was sent.
      expect(performance.now() - sent).toBeGreaterThanOrEqual(HIDDEN_MS);
    }
    expect(emu.faultStats().injected.hidden).toBe(created.length);
    expect(emu.faultStats().byOperation).toMatchObject({ CreatePod: { hidden: 1 }, createPod: { hidden: 1 }, createSecret: { hidden: 1 } });
  });

  test("a create the service refuses hides nothing; other requests of a `*` clause are not drawn as hidden", async () => {
    emulator = await startTestEmulator({ faults: "seed=1; *: hidden=1@5s" });
    const v2 = apiV2(emulator, KEY_A);
    expect((await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA GeForce RTX 4090", count: 0 } })).status).toBe(422);
    expect((await v2.get("/pods")).status).toBe(200);
    expect(emulator.faultStats().byOperation).toEqual({ createPod: { hidden: 1 } });
  });

  test("kept in memory only: after a restart from the state file the resource is listed at once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hidden-faults-"));
    try {
      const statePath = join(dir, "state.json");
      emulator = await startTestEmulator({ statePath, faults: "seed=1; CreatePod: hidden=1@60s" });
      const first = api(emulator, KEY_A);
      const pod = await create(first, KINDS.pod as Kind, "/pods", { ...GPU_POD, name: "survives" });
      expect((await first.get("/pods")).body).toEqual([]);
      await emulator.close();
      emulator = await startTestEmulator({ statePath, faults: "seed=1; CreatePod: hidden=1@60s" });
      const ids = ((await api(emulator, KEY_A).get("/pods")).body as { id: string }[]).map((p) => p.id);
      expect(ids).toEqual([pod.id]);
    } finally {
      await emulator?.close();
      emulator = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
