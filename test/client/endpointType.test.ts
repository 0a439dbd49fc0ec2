/**
 * The endpoint type on the v1 wire: the v1 management API has no `type` field, so a load-balancing
 * endpoint carries a " -lb" marker at the end of its service-side name. encodeEndpointName adds it,
 * decodeEndpointType (run by EndpointSchema on every read) takes it off and makes `type` explicit.
 */
import { describe, expect, it } from "vitest";
import { decodeEndpointType, encodeEndpointName, ENDPOINT_TYPES, type EndpointType } from "../../client/endpointType";
import { EndpointListSchema, EndpointSchema } from "../../client/schemas";

describe("encodeEndpointName", () => {
  it("marks a load-balancing endpoint's name with the ' -lb' suffix and leaves a queue endpoint's alone", () => {
    expect(encodeEndpointName("inference", "LOAD_BALANCER")).toBe("inference -lb");
    expect(encodeEndpointName("inference", "QUEUE")).toBe("inference");
    expect(ENDPOINT_TYPES).toEqual(["QUEUE", "LOAD_BALANCER"]);
  });
});

describe("decodeEndpointType", () => {
  const names = ["inference", "a b c", "with -fb inside", "trailing-lb", "x", "-lb", " -lb prefix", "ünïcode name"];

  it.each(ENDPOINT_TYPES)("round trip: decode(encode(name, %s)) gives the name back and the type", (type: EndpointType) => {
    for (const name of names) {
      const decoded = decodeEndpointType({ id: "ep1", name: encodeEndpointName(name, type), workersMax: 3 });
      expect(decoded, `${type} ${JSON.stringify(name)}`).toEqual({ id: "ep1", name, type, workersMax: 3 });
    }
  });

  it("a name that is only the marker decodes to an empty name of a load-balancing endpoint", () => {
    expect(decodeEndpointType({ id: "e", name: " -lb" })).toEqual({ id: "e", name: "", type: "LOAD_BALANCER" });
  });

  it("takes off one marker only: a name that itself ends in ' -lb' keeps it under a second one", () => {
    const encoded = encodeEndpointName("legacy -lb", "LOAD_BALANCER");
    expect(encoded).toBe("legacy -lb -lb");
    expect(decodeEndpointType({ id: "e", name: encoded })).toMatchObject({ name: "legacy -lb", type: "LOAD_BALANCER" });
  });

  it("a native `type` from the service wins over the name, which is then left as it is", () => {
    expect(decodeEndpointType({ id: "e", name: "inference -lb", type: "QUEUE" })).toEqual({
      id: "e",
      name: "inference -lb",
      type: "QUEUE",
    });
    expect(decodeEndpointType({ id: "e", name: "inference", type: "LOAD_BALANCER" })).toEqual({
      id: "e",
      name: "inference",
      type: "LOAD_BALANCER",
    });
  });

  it("the platform's FlashBoot suffix is taken off, before and after the type marker", () => {
    expect(decodeEndpointType({ id: "e", name: "inference -lb -fb" })).toEqual({ id: "e", name: "inference", type: "LOAD_BALANCER" });
    expect(decodeEndpointType({ id: "e", name: "inference -fb", type: "QUEUE" })).toEqual({ id: "e", name: "inference", type: "QUEUE" });
  });

  it("names without the suffix, and endpoints without a name, are QUEUE", () => {
    expect(decodeEndpointType({ id: "e", name: "inference" })).toEqual({ id: "e", name: "inference", type: "QUEUE" });
    expect(decodeEndpointType({ id: "e", name: "inference -fb" })).toEqual({ id: "e", name: "inference", type: "QUEUE" });
    expect(decodeEndpointType({ id: "e" })).toEqual({ id: "e", type: "QUEUE" });
    // A name that is not a string is not read for a marker.
    expect(decodeEndpointType({ id: "e", name: 42 })).toEqual({ id: "e", name: 42, type: "QUEUE" });
  });

  it.each(["inference-lb", "inference -LB", "inference  -lb ", "inference -lbx", "inference\t-lb", "lb"])(
    "%j (not exactly ' -lb' at the end) is QUEUE and keeps its name",
    (name) => {
      expect(decodeEndpointType({ id: "e", name })).toEqual({ id: "e", name, type: "QUEUE" });
    },
  );

  it("does not modify the wire object it is given", () => {
    const wire = Object.freeze({ id: "e", name: "x -lb" });
    expect(decodeEndpointType(wire)).toEqual({ id: "e", name: "x", type: "LOAD_BALANCER" });
    expect(wire).toEqual({ id: "e", name: "x -lb" });
  });
});

describe("EndpointSchema reads the type", () => {
  it("strips the marker on a single read and on a list read", () => {
    expect(EndpointSchema.parse({ id: "e1", name: "chat -lb", scalerType: "REQUEST_COUNT", workersMin: 1 })).toMatchObject({
      id: "e1",
      name: "chat",
      type: "LOAD_BALANCER",
      scalerType: "REQUEST_COUNT",
      workersMin: 1,
    });
    const list = EndpointListSchema.parse([
      { id: "a", name: "chat -lb" },
      { id: "b", name: "batch" },
      { id: "c", name: "batch-lb" },
      { id: "d", name: "native", type: "LOAD_BALANCER" },
    ]);
    expect(list.map((e) => [e.id, e.name, e.type])).toEqual([
      ["a", "chat", "LOAD_BALANCER"],
      ["b", "batch", "QUEUE"],
      ["c", "batch-lb", "QUEUE"],
      ["d", "native", "LOAD_BALANCER"],
    ]);
  });

  it("a null name (nulls are dropped) reads as a QUEUE endpoint without a name", () => {
    const ep = EndpointSchema.parse({ id: "e1", name: null });
    expect(ep.name).toBeUndefined();
    expect(ep.type).toBe("QUEUE");
  });
});

describe("names that would read as the marker", () => {
  it("an endpoint name ending in the marker is refused at check, naming the field", async () => {
    const { endpointProvider } = await import("../../provider/resources/registry");
    const provider = endpointProvider({} as never);
    const result = await provider.check!({}, { templateId: "t1", name: "api -lb" });
    expect(result.failures?.map((f) => f.property)).toEqual(["name"]);
    expect(result.failures?.[0]?.reason).toContain('ends in " -lb"');
  });
});
