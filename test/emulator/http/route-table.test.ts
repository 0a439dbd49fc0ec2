/**
 * The route table matches static segments before parameterised ones, whatever order its entries
 * are declared in (emulator/http/routeTable.ts): a path belongs to its most specific pattern, whose
 * methods alone decide between an answer and a 405.
 */
import { describe, expect, it } from "vitest";
import { HttpError } from "../../../emulator/http/errors";
import { RouteTable, compareSpecificity } from "../../../emulator/http/routeTable";

const route = (method: string, path: string) => ({ method, path, value: `${method} ${path}` });

describe("RouteTable", () => {
  it("matches a static segment before a parameter declared ahead of it", () => {
    const table = new RouteTable([
      route("GET", "/registries/{id}"),
      route("DELETE", "/registries/{id}"),
      route("GET", "/registries/delegations"),
      route("POST", "/registries/delegations"),
    ]);
    expect(table.match("GET", "/registries/delegations")).toEqual({ found: route("GET", "/registries/delegations"), params: {} });
    expect(table.match("GET", "/registries/abc")).toEqual({ found: route("GET", "/registries/{id}"), params: { id: "abc" } });
  });

  it("decides by the leftmost position where a literal meets a parameter", () => {
    const table = new RouteTable([route("GET", "/a/{x}/c"), route("GET", "/a/b/{y}"), route("GET", "/{z}/b/c")]);
    expect(table.match("GET", "/a/b/c")).toEqual({ found: route("GET", "/a/b/{y}"), params: { y: "c" } });
    expect(table.match("GET", "/a/q/c")).toEqual({ found: route("GET", "/a/{x}/c"), params: { x: "q" } });
    expect(table.match("GET", "/q/b/c")).toEqual({ found: route("GET", "/{z}/b/c"), params: { z: "q" } });
    expect(compareSpecificity(["a", "b"], ["a", "{y}"])).toBeLessThan(0);
    expect(compareSpecificity(["{x}", "b"], ["a", "{y}"])).toBeGreaterThan(0);
    expect(compareSpecificity(["a", "{x}"], ["a", "{y}"])).toBe(0);
  });

  it("answers a method the static path lacks with its own methods, never with the parameterised route's", () => {
    const table = new RouteTable([route("DELETE", "/registries/{id}"), route("GET", "/registries/delegations")]);
    expect(table.match("DELETE", "/registries/delegations")).toEqual({ allowed: ["GET"] });
    expect(table.match("PUT", "/registries/abc")).toEqual({ allowed: ["DELETE"] });
  });

  it("keeps the table's order among routes of one shape, and knows no path it was not given", () => {
    const table = new RouteTable([route("GET", "/pods/{id}"), route("PATCH", "/pods/{podId}")]);
    expect(table.match("PATCH", "/pods/p1")).toEqual({ found: route("PATCH", "/pods/{podId}"), params: { podId: "p1" } });
    expect(table.match("POST", "/pods/p1")).toEqual({ allowed: ["GET", "PATCH"] });
    expect(table.match("GET", "/pods/p1/extra")).toBeUndefined();
    expect(table.match("GET", "/nodes/p1")).toBeUndefined();
  });

  it("decodes parameters, and refuses a malformed percent-encoding with a 400", () => {
    const table = new RouteTable([route("GET", "/catalog/gpus/{id}")]);
    expect(table.match("GET", "/catalog/gpus/NVIDIA%20H200")).toMatchObject({ params: { id: "NVIDIA H200" } });
    expect(() => table.match("GET", "/catalog/gpus/%E0%A4%A")).toThrow(HttpError);
  });
});
