import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { makeApiError } from "../../../client/errors";
import { IncompleteCreateError } from "../../../model/backend/port";
import type { ResourceTable } from "../../../model/fields/fieldTable";
import { createWithoutDuplicates, type CreateSpec } from "../../../provider/resources/createOnce";
import { ENTRY_TTL_MS, fileJournal, type CreateJournal, type JournalEntry } from "../../../provider/resources/createJournal";
import { markerOf } from "../../../provider/resources/ownership";
import { ResourceInitError } from "../../../provider/resources/partialCreate";

interface Thing {
  id: string;
  name: string;
  marker?: string;
}

const OWNER = "organization/proj/dev|Pod::trainer";
const ambiguous = () => makeApiError({ operation: "createPod", method: "POST", url: "/v2/pods", idempotent: false, status: 502 });
const conflict = () =>
  makeApiError({
    operation: "createTemplate",
    method: "POST",
    url: "/v2/templates",
    idempotent: false,
    status: 409,
    serviceMessage: "name taken",
  });

/** A journal in memory. */
function memoryJournal(): CreateJournal & { entries: Map<string, JournalEntry> } {
  const entries = new Map<string, JournalEntry>();
  return {
    entries,
    read: (owner) => entries.get(owner),
    write: (owner, entry) => void entries.set(owner, entry),
    forget: (owner, id) => {
      if (id === undefined || entries.get(owner)?.createdId === id) entries.delete(owner);
    },
  };
}

/** A service of Things, a clock that sleeps instantly, and the spec of one create of "trainer". */
function setup(options: { marked?: boolean; uniqueName?: boolean; owner?: string } = {}) {
  const things: Thing[] = [];
  let clock = 1_000_000;
  const calls = { creates: 0, lists: 0 };
  const waits: number[] = [];
  const lines: string[] = [];
  const journal = memoryJournal();
  const held = new Set<string>();
  let next = 1;
  let onCreate: (made: Thing) => Promise<Thing> = async (made) => made;
  const owner = options.owner ?? OWNER;
  const spec: CreateSpec<Thing> = {
    subject: 'pod "trainer"',
    table: { noun: "pod", fields: {} } as unknown as ResourceTable<Thing>,
    inputs: { name: "trainer", __provider: "shim" },
    list: async () => {
      calls.lists++;
      return [...things];
    },
    snapshot: async () => [...things],
    matches: (t) => t.name === "trainer",
    create: async () => {
      calls.creates++;
      const made: Thing = { id: `t${next++}`, name: "trainer", ...(options.marked ? { marker: markerOf(owner) } : {}) };
      things.push(made);
      return onCreate(made);
    },
    log: { info: (m) => void lines.push(m), warn: (m) => void lines.push(m) },
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    now: () => clock,
    owner,
    held,
    markerOf: options.marked ? (t) => t.marker : undefined,
    markable: options.marked === true,
    journal,
    createWindowMs: 60_000,
    uniqueName: options.uniqueName,
    adoptHint: (id) => `declare adoptId: "${id}"`,
  };
  return {
    spec,
    things,
    calls,
    waits,
    lines,
    journal,
    held,
    failCreate(make: (made: Thing) => Promise<Thing>) {
      onCreate = make;
    },
    advance(ms: number) {
      clock += ms;
    },
  };
}

describe("createWithoutDuplicates: one create, never repeated on a guess", () => {
  it("an answered create looks nothing up and notes the id in the journal until the engine holds it", async () => {
    const t = setup({ marked: true });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "t1" }, adopted: false });
    expect(t.calls).toEqual({ creates: 1, lists: 0 });
    expect(t.journal.entries.get(OWNER)).toMatchObject({ noun: "pod", createdId: "t1" });
  });

  it("a refused create (4xx) is thrown as it is, with nothing looked up and the journal entry dropped", async () => {
    const t = setup({ marked: true });
    t.failCreate(async () => {
      t.things.pop();
      throw makeApiError({
        operation: "createPod",
        method: "POST",
        url: "/v2/pods",
        idempotent: false,
        status: 400,
        serviceMessage: "bad",
      });
    });
    await expect(createWithoutDuplicates(t.spec)).rejects.toThrow("400");
    expect(t.calls).toEqual({ creates: 1, lists: 0 });
    expect(t.journal.entries.size).toBe(0);
  });

  it("an ambiguous create that did land is found by its marker, once, with no second create", async () => {
    const t = setup({ marked: true });
    t.failCreate(async () => {
      throw ambiguous();
    });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "t1" }, adopted: false });
    expect(t.calls.creates).toBe(1);
    expect(t.lines.join("\n")).toContain('pod "trainer": the service did make it (id t1): using it');
  });

  it("a create that lands only after many lookups is still found: the lookups go on for the whole window", async () => {
    const t = setup();
    let lookups = 0;
    t.failCreate(async (made) => {
      t.things.pop();
      t.spec.list = async () => (++lookups >= 6 ? [made] : []);
      throw ambiguous();
    });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome.resource.id).toBe("t1");
    expect(t.calls.creates).toBe(1);
    expect(lookups).toBe(6);
    // Growing waits, capped at 8 s.
    expect(t.waits.slice(0, 5)).toEqual([...t.waits.slice(0, 5)].sort((a, b) => a - b));
    expect(Math.max(...t.waits)).toBeLessThanOrEqual(8_000);
  });

  it("an ambiguous create that never appears is recorded as pending after the window, never sent again", async () => {
    const t = setup({ marked: true });
    t.failCreate(async () => {
      t.things.pop();
      throw ambiguous();
    });
    const error = await createWithoutDuplicates(t.spec).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResourceInitError);
    const init = error as ResourceInitError;
    expect(init.id).toMatch(/^pending-create-pod-/);
    expect(init.message).toMatch(/no pod made by it appeared in 60 s of looking\. It was not sent again\./);
    expect(init.properties["pendingCreate"]).toMatchObject({ matchedBefore: [] });
    expect(t.calls.creates).toBe(1);
    expect(t.waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
    // The journal keeps the attempt for the next run (no id: the answer never came).
    expect(t.journal.entries.get(OWNER)?.createdId).toBeUndefined();
  });
});

describe("createWithoutDuplicates: what an earlier, interrupted create made", () => {
  it("a resource bearing this owner's marker is adopted instead of created (a killed deploy, any machine)", async () => {
    const t = setup({ marked: true });
    t.things.push({ id: "orphan", name: "trainer", marker: markerOf(OWNER) });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "orphan" }, adopted: true });
    expect(t.calls.creates).toBe(0);
  });

  it("another stack's look-alike (another marker, or none) is never adopted: the pod is created", async () => {
    const t = setup({ marked: true });
    t.things.push(
      { id: "theirs", name: "trainer", marker: markerOf("organization/proj/prod|Pod::trainer") },
      { id: "bare", name: "trainer" },
    );
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "t1" }, adopted: false });
  });

  it("the resource the stack holds (the one being replaced) bears the marker too, and is never adopted", async () => {
    const t = setup({ marked: true });
    t.things.push({ id: "old", name: "trainer", marker: markerOf(OWNER) });
    t.held.add("old");
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "t1" }, adopted: false });
  });

  it("two resources bearing the marker are never guessed between", async () => {
    const t = setup({ marked: true });
    t.things.push({ id: "a", name: "trainer", marker: markerOf(OWNER) }, { id: "b", name: "trainer", marker: markerOf(OWNER) });
    await expect(createWithoutDuplicates(t.spec)).rejects.toThrow(
      'pod "trainer": 2 pods bear this resource\'s owner marker (a, b); cannot tell which one is this resource, so nothing was created. Keep one: declare adoptId: "a"',
    );
    expect(t.calls.creates).toBe(0);
  });

  it("a kind without a marker: the journal's answered id is adopted", async () => {
    const t = setup();
    t.things.push({ id: "made-before-kill", name: "trainer" });
    t.journal.write(OWNER, { noun: "pod", startedAt: 999_000, matchedBefore: [], createdId: "made-before-kill" });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "made-before-kill" }, adopted: true });
    expect(t.calls.creates).toBe(0);
  });

  it("a kind without a marker: the journal's unanswered create is the one look-alike that appeared since", async () => {
    const t = setup();
    t.things.push({ id: "before", name: "trainer" }, { id: "landed", name: "trainer" });
    t.journal.write(OWNER, { noun: "pod", startedAt: 999_000, matchedBefore: ["before"] });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "landed" }, adopted: true });
  });

  it("a journal's create that never landed is waited for until it cannot land any more, then created once", async () => {
    const t = setup();
    t.journal.write(OWNER, { noun: "pod", startedAt: 1_000_000, matchedBefore: [] });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "t1" }, adopted: false });
    expect(t.waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2 * 60_000);
    expect(t.calls.creates).toBe(1);
  });

  it("a kind without a marker, with no journal, next to an unaccounted look-alike: refuses, naming the id and the fix", async () => {
    const t = setup();
    t.things.push({ id: "vol-9", name: "trainer" });
    await expect(createWithoutDuplicates(t.spec)).rejects.toThrow(
      /pod "trainer": a pod like this one exists \(id vol-9\) that this stack does not hold\..*nothing was created\. If it is this resource, adopt it: declare adoptId: "vol-9"/,
    );
    expect(t.calls.creates).toBe(0);
  });
});

describe("createWithoutDuplicates: unique names and multi-call creates", () => {
  it("a 409 whose holder bears this owner's marker is adopted", async () => {
    const t = setup({ marked: true, uniqueName: true });
    t.failCreate(async (made) => {
      throw (made.id === "t1" ? conflict : ambiguous)();
    });
    // The holder appears only after the snapshot (it was made concurrently by the earlier attempt).
    const holder = { id: "held-by-name", name: "trainer", marker: markerOf(OWNER) };
    t.spec.snapshot = async () => [];
    t.spec.list = async () => [holder];
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome).toMatchObject({ resource: { id: "held-by-name" }, adopted: true });
  });

  it("a 409 whose holder nothing proves ours is refused with its id and how to adopt it", async () => {
    const t = setup({ marked: true, uniqueName: true });
    t.things.push({ id: "someone", name: "trainer" });
    t.failCreate(async () => {
      t.things.pop();
      throw conflict();
    });
    await expect(createWithoutDuplicates(t.spec)).rejects.toThrow(
      /the name is taken by an existing pod \(id someone\) that nothing proves was made for this resource .*declare adoptId: "someone"/,
    );
  });

  it("a create whose follow-up call failed returns the resource with the failure, to be recorded", async () => {
    const t = setup({ marked: true });
    t.failCreate(async (made) => {
      throw new IncompleteCreateError(made, `pod ${made.id} was created, but locking it failed: 400`);
    });
    const outcome = await createWithoutDuplicates(t.spec);
    expect(outcome.resource.id).toBe("t1");
    expect(outcome.incomplete?.message).toBe("pod t1 was created, but locking it failed: 400");
    expect(t.journal.entries.get(OWNER)?.createdId).toBe("t1");
  });
});

describe("fileJournal", () => {
  it("keeps an entry across processes (a file), drops it for its id, and forgets old ones", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-"));
    let now = 5_000;
    const journal = fileJournal(dir, () => now);
    journal.write(OWNER, { noun: "pod", startedAt: 5_000, matchedBefore: ["x"] });
    expect(fileJournal(dir, () => now).read(OWNER)).toEqual({ noun: "pod", startedAt: 5_000, matchedBefore: ["x"] });
    // Named by a hash: the file names no stack or resource.
    expect(fs.readdirSync(dir)).toEqual([`${markerOf(OWNER)}.json`]);
    journal.write(OWNER, { noun: "pod", startedAt: 5_000, matchedBefore: ["x"], createdId: "p1" });
    journal.forget(OWNER, "other");
    expect(journal.read(OWNER)?.createdId).toBe("p1");
    journal.forget(OWNER, "p1");
    expect(journal.read(OWNER)).toBeUndefined();
    journal.write(OWNER, { noun: "pod", startedAt: 5_000, matchedBefore: [] });
    now += ENTRY_TTL_MS + 1;
    expect(journal.read(OWNER)).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, `${markerOf(OWNER)}.json`), "{ damaged");
    expect(journal.read(OWNER)).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
