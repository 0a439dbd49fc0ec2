// The shared list calls (model/backend/sharedReads.ts) against a fake kind that records its calls.
import { describe, expect, it } from "vitest";
import { makeApiError } from "../../../client/errors";
import { sharedReads, type ListedKind } from "../../../model/backend/sharedReads";

interface Item {
  id: string;
  state: string;
}

/** A kind holding `items`, answering after `delayMs`, recording every call. */
function fakeKind(items: Item[], options: { delayMs?: number; listError?: unknown } = {}) {
  const calls: string[] = [];
  const answer = <T>(value: () => T): Promise<T> =>
    new Promise((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(value());
        } catch (error) {
          reject(error);
        }
      }, options.delayMs ?? 1),
    );
  const kind: ListedKind<Item> = {
    list() {
      calls.push("list");
      return answer(() => {
        if (options.listError !== undefined) throw options.listError;
        return items.map((item) => ({ ...item }));
      });
    },
    get(id) {
      calls.push(`get ${id}`);
      return answer(() => {
        const item = items.find((i) => i.id === id);
        if (!item) throw notFound(id);
        return { ...item };
      });
    },
  };
  return { kind, calls };
}

function notFound(id: string) {
  return makeApiError({
    operation: "GetItem",
    method: "GET",
    url: `/items/${id}`,
    idempotent: true,
    status: 404,
    serviceMessage: "item not found",
  });
}

const hundred = Array.from({ length: 100 }, (_, i) => ({ id: `item-${i}`, state: "RUNNING" }));

describe("shared reads", () => {
  it("serves many concurrent reads by one list call, each with its own copy of its item", async () => {
    const { kind, calls } = fakeKind(hundred);
    const reads = sharedReads(kind);
    const results = await Promise.all(hundred.map((item) => reads.read(item.id)));
    expect(calls).toEqual(["list"]);
    expect(results.map((r) => r.id)).toEqual(hundred.map((i) => i.id));
    // Two reads of one id in the same batch are not the same object.
    const [a, b] = await Promise.all([reads.read("item-1"), reads.read("item-1"), reads.read("item-2")]);
    a!.state = "changed by one caller";
    expect(b!.state).toBe("RUNNING");
  });

  it("confirms a resource missing from the list with its own GET, whose answer (or 404) the caller gets", async () => {
    const items = [...hundred];
    const { kind, calls } = fakeKind(items);
    const reads = sharedReads(kind);
    // The list lags: item-new exists for a GET but not (yet) in the list.
    const lagging: ListedKind<Item> = {
      list: () => kind.list(),
      get: (id) => (id === "item-new" ? Promise.resolve({ id, state: "STARTING" }) : kind.get(id)),
    };
    const lagged = sharedReads(lagging);
    const [first, fresh] = await Promise.all([lagged.read("item-0"), lagged.read("item-new")]);
    expect(first.id).toBe("item-0");
    expect(fresh).toEqual({ id: "item-new", state: "STARTING" });
    calls.length = 0;
    const outcomes = await Promise.allSettled([reads.read("item-3"), reads.read("gone")]);
    expect(calls).toEqual(["list", "get gone"]);
    expect(outcomes[0]).toMatchObject({ status: "fulfilled", value: { id: "item-3" } });
    expect(outcomes[1]).toMatchObject({ status: "rejected", reason: { status: 404 } });
  });

  it("keeps a lone read a plain GET", async () => {
    const { kind, calls } = fakeKind(hundred);
    const reads = sharedReads(kind);
    expect(await reads.read("item-7")).toEqual({ id: "item-7", state: "RUNNING" });
    expect(calls).toEqual(["get item-7"]);
  });

  it("keeps reads plain GETs when the kind's list is too big for them", async () => {
    const thousands = Array.from({ length: 2_000 }, (_, i) => ({ id: `pod-${i}`, state: "RUNNING" }));
    const { kind, calls } = fakeKind(thousands);
    const reads = sharedReads(kind, { itemsPerRead: 25 });
    // The first list teaches the coalescer how big the kind is.
    await reads.list();
    calls.length = 0;
    await Promise.all(["pod-1", "pod-2", "pod-3"].map((id) => reads.read(id)));
    expect(calls.sort()).toEqual(["get pod-1", "get pod-2", "get pod-3"]);
  });

  it("gives a failed list's error to every caller it served, without retrying; a list that did not validate falls back to GETs", async () => {
    const refused = makeApiError({
      operation: "ListItems",
      method: "GET",
      url: "/items",
      idempotent: true,
      status: 503,
      serviceMessage: "unavailable",
    });
    const { kind, calls } = fakeKind(hundred, { listError: refused });
    const reads = sharedReads(kind);
    const outcomes = await Promise.allSettled([reads.read("item-1"), reads.read("item-2"), reads.list()]);
    expect(calls).toEqual(["list"]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: "rejected", reason: refused });

    const invalid = makeApiError({
      operation: "ListItems",
      method: "GET",
      url: "/items",
      idempotent: true,
      status: 200,
      kind: "invalid_response",
      detail: "items.7.id: expected string",
    });
    const spoiled = fakeKind(hundred, { listError: invalid });
    const fallback = sharedReads(spoiled.kind);
    const [one, two] = await Promise.all([fallback.read("item-1"), fallback.read("item-2")]);
    expect([one.id, two.id]).toEqual(["item-1", "item-2"]);
    expect(spoiled.calls.sort()).toEqual(["get item-1", "get item-2", "list"]);
  });

  it("answers every request with a list sent after it was asked: a request during a list call waits for the next one", async () => {
    const { kind, calls } = fakeKind(hundred, { delayMs: 30 });
    const reads = sharedReads(kind, { windowMs: 5 });
    const early = Promise.all([reads.read("item-1"), reads.read("item-2")]);
    // Arrives while the first list is on its way: joining it could return a state older than the request.
    await new Promise((resolve) => setTimeout(resolve, 15));
    const late = Promise.all([reads.read("item-3"), reads.list()]);
    await Promise.all([early, late]);
    expect(calls).toEqual(["list", "list"]);
  });

  it("lets list callers (create lookups) and reads share one list call", async () => {
    const { kind, calls } = fakeKind(hundred);
    const reads = sharedReads(kind);
    const [listA, listB, item] = await Promise.all([reads.list(), reads.list(), reads.read("item-9")]);
    expect(calls).toEqual(["list"]);
    expect(listA).toHaveLength(100);
    expect(listB).not.toBe(listA);
    expect(item.id).toBe("item-9");
  });
});
