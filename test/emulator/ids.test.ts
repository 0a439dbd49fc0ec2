/**
 * Resource ids: lowercase alphanumerics of the service's lengths, every character equally likely,
 * spelled through a scratch buffer (ids longer than the buffer are joined from pieces).
 */
import { describe, expect, it } from "vitest";
import { ID_LENGTHS, newId, randomId } from "../../emulator/ids";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

describe("randomId", () => {
  it("has the length asked for and only lowercase letters and digits, also past the 64-byte scratch buffer", () => {
    for (const length of [1, 10, 14, 40, 63, 64, 65, 200]) {
      const id = randomId(length);
      expect(id).toHaveLength(length);
      expect(id).toMatch(/^[a-z0-9]+$/);
    }
  });

  it("uses the whole alphabet with roughly equal frequency", () => {
    const counts = new Map<string, number>();
    const draws = 36_000;
    for (const char of randomId(draws)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe([...ALPHABET].sort().join(""));
    // 1000 expected per character; a biased mapping (e.g. a dropped or doubled character) is far outside ±25%.
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(250);
  });

  it("returns independent strings (the scratch buffer is not shared with earlier ids)", () => {
    const first = randomId(14);
    const copy = `${first}`;
    const ids = new Set([first, ...Array.from({ length: 1000 }, () => randomId(14))]);
    expect(first).toBe(copy);
    expect(ids.size).toBe(1001);
  });
});

describe("newId", () => {
  it("draws again while the id is taken, with the kind's length and form", () => {
    const seen: string[] = [];
    const id = newId("endpoint", (candidate) => {
      seen.push(candidate);
      return seen.length < 3;
    });
    expect(seen).toHaveLength(3);
    expect(id).toBe(seen[2]);
    expect(id).toHaveLength(ID_LENGTHS.endpoint);
    const registry = newId("registryAuth", () => false);
    expect(registry).toMatch(/^c[a-z0-9]{24}$/);
    expect(registry).toHaveLength(ID_LENGTHS.registryAuth);
  });
});
