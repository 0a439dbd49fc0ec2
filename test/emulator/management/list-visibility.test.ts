/**
 * ListVisibility (emulator/management/visibility.ts): what every list leaves out for a while (the
 * fault `hidden=P@D`), by id, in real time; nothing hidden costs nothing.
 */
import { describe, expect, test } from "vitest";
import { ListVisibility } from "../../../emulator/management/visibility";
import { waitFor } from "../../support/managementHelpers";

describe("ListVisibility", () => {
  test("with nothing hidden, a list is its items as they are", () => {
    const visibility = new ListVisibility();
    const items = [{ id: "a" }, { id: "b" }];
    expect(visibility.listed(items)).toBe(items);
    expect(visibility.isListed("a")).toBe(true);
  });

  test("a hidden id is left out until its delay has passed, then listed again", async () => {
    const visibility = new ListVisibility();
    const hiddenAt = performance.now();
    visibility.hide("b", 200);
    const items = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect([...visibility.listed(items)].map((item) => item.id)).toEqual(["a", "c"]);
    expect(visibility.isListed("b")).toBe(false);
    await waitFor("b to be listed", async () => (visibility.isListed("b") ? true : undefined), 10_000);
    expect(performance.now() - hiddenAt).toBeGreaterThanOrEqual(200);
    expect([...visibility.listed(items)].map((item) => item.id)).toEqual(["a", "b", "c"]);
    // Forgotten once listed: the list is the items themselves again.
    expect(visibility.listed(items)).toBe(items);
  });
});
