import { describe, expect, it } from "vitest";
import { BillingQueryError, parseBillingQuery } from "../../client/billing";
import { BILLING_BUCKET_SIZES, ENDPOINT_BILLING_GROUPINGS, POD_BILLING_GROUPINGS } from "../../client/enums";

function messageOf(args: unknown): string {
  try {
    parseBillingQuery(args);
  } catch (e) {
    expect(e).toBeInstanceOf(BillingQueryError);
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(args)} to be refused`);
}

const KINDS = ["pods", "endpoints", "networkvolumes"] as const;

describe("parseBillingQuery: kind", () => {
  it.each(KINDS)("kind %s alone is a valid lookup", (kind) => {
    expect(parseBillingQuery({ kind })).toEqual({ kind });
  });

  it.each([
    [{ kind: "gpus" }, '"gpus"'],
    [{ kind: "Pods" }, '"Pods"'],
    [{ kind: 3 }, "3"],
    [{}, "undefined"],
    [null, "undefined"],
    ["pods", "undefined"],
  ])("%j is refused naming the kinds and the value given", (args, shown) => {
    expect(messageOf(args)).toBe(`invalid billing lookup: kind must be one of pods, endpoints, networkvolumes (got ${shown})`);
  });

  it("BillingQueryError is an Error named BillingQueryError", () => {
    try {
      parseBillingQuery({ kind: "x" });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).name).toBe("BillingQueryError");
    }
  });
});

describe("parseBillingQuery: bucketSize", () => {
  it("the bucket sizes are hour, day, week, month, year", () => {
    expect([...BILLING_BUCKET_SIZES]).toEqual(["hour", "day", "week", "month", "year"]);
  });

  for (const kind of KINDS) {
    it.each(BILLING_BUCKET_SIZES)(`${kind}: bucketSize %s is accepted`, (bucketSize) => {
      expect(parseBillingQuery({ kind, bucketSize })).toEqual({ kind, bucketSize });
    });
  }

  it.each(["minute", "Day", "days", ""])("bucketSize %j is refused with the list", (bucketSize) => {
    expect(messageOf({ kind: "pods", bucketSize })).toBe(
      `invalid billing lookup: bucketSize must be one of hour, day, week, month, year (got ${JSON.stringify(bucketSize)})`,
    );
  });
});

describe("parseBillingQuery: grouping", () => {
  it.each(POD_BILLING_GROUPINGS)("pods: grouping %s is accepted", (grouping) => {
    expect(parseBillingQuery({ kind: "pods", grouping })).toEqual({ kind: "pods", grouping });
  });

  it.each(ENDPOINT_BILLING_GROUPINGS)("endpoints: grouping %s is accepted", (grouping) => {
    expect(parseBillingQuery({ kind: "endpoints", grouping })).toEqual({ kind: "endpoints", grouping });
  });

  it("the groupings per kind are the reference's", () => {
    expect([...POD_BILLING_GROUPINGS]).toEqual(["podId", "gpuTypeId"]);
    expect([...ENDPOINT_BILLING_GROUPINGS]).toEqual(["endpointId", "podId", "gpuTypeId"]);
  });

  it("pods: grouping by endpointId is refused with the pods groupings", () => {
    expect(messageOf({ kind: "pods", grouping: "endpointId" })).toBe(
      'invalid billing lookup: grouping (pods) must be one of podId, gpuTypeId (got "endpointId")',
    );
  });

  it("endpoints: an unknown grouping is refused with the endpoints groupings", () => {
    expect(messageOf({ kind: "endpoints", grouping: "templateId" })).toBe(
      'invalid billing lookup: grouping (endpoints) must be one of endpointId, podId, gpuTypeId (got "templateId")',
    );
  });

  it("networkvolumes: no grouping at all", () => {
    expect(messageOf({ kind: "networkvolumes", grouping: "podId" })).toBe(
      "invalid billing lookup: grouping is not a filter of the networkvolumes billing history",
    );
  });
});

describe("parseBillingQuery: filters per kind", () => {
  it("pods takes podId and gpuTypeId (a single id)", () => {
    const q = { kind: "pods", podId: "pod-1", gpuTypeId: "NVIDIA GeForce RTX 4090" };
    expect(parseBillingQuery(q)).toEqual(q);
  });

  it("endpoints takes endpointId, gpuTypeId[], dataCenterId[], imageName and templateId", () => {
    const q = {
      kind: "endpoints",
      endpointId: "ep-1",
      gpuTypeId: ["NVIDIA L4", "NVIDIA A40"],
      dataCenterId: ["EU-RO-1"],
      imageName: "org/worker:1",
      templateId: "tpl-1",
      grouping: "podId",
    };
    expect(parseBillingQuery(q)).toEqual(q);
  });

  it("podId with kind endpoints is refused, naming the filter and the kind", () => {
    expect(messageOf({ kind: "endpoints", podId: "pod-1" })).toBe(
      "invalid billing lookup: podId is not a filter of the endpoints billing history",
    );
  });

  it.each(["endpointId", "imageName", "templateId"])("%s with kind pods is refused", (filter) => {
    expect(messageOf({ kind: "pods", [filter]: "x" })).toBe(
      `invalid billing lookup: ${filter} is not a filter of the pods billing history`,
    );
  });

  it("dataCenterId with kind pods is refused", () => {
    expect(messageOf({ kind: "pods", dataCenterId: ["EU-RO-1"] })).toBe(
      "invalid billing lookup: dataCenterId is not a filter of the pods billing history",
    );
  });

  it.each(["podId", "endpointId", "gpuTypeId", "dataCenterId", "imageName", "templateId"])(
    "%s with kind networkvolumes is refused",
    (filter) => {
      expect(messageOf({ kind: "networkvolumes", [filter]: "x" })).toBe(
        `invalid billing lookup: ${filter} is not a filter of the networkvolumes billing history`,
      );
    },
  );

  it("several filters of another kind are named together", () => {
    expect(messageOf({ kind: "pods", endpointId: "e", imageName: "i" })).toBe(
      "invalid billing lookup: endpointId, imageName are not a filter of the pods billing history",
    );
  });

  it("gpuTypeId is one id for pods and a list for endpoints", () => {
    expect(messageOf({ kind: "pods", gpuTypeId: ["NVIDIA L4"] })).toMatch(/^invalid billing lookup: gpuTypeId: .*expected string/);
    expect(messageOf({ kind: "endpoints", gpuTypeId: "NVIDIA L4" })).toMatch(/^invalid billing lookup: gpuTypeId: .*expected array/);
  });

  it("empty filter values are refused", () => {
    expect(messageOf({ kind: "pods", podId: "" })).toMatch(/^invalid billing lookup: podId: /);
    expect(messageOf({ kind: "endpoints", dataCenterId: [""] })).toMatch(/^invalid billing lookup: dataCenterId\.0: /);
  });
});

describe("parseBillingQuery: time range", () => {
  it("ISO strings become Dates", () => {
    const q = parseBillingQuery({ kind: "pods", startTime: "2026-01-01T00:00:00Z", endTime: "2026-01-31T12:30:00.000Z" });
    expect(q.startTime).toBeInstanceOf(Date);
    expect(q.startTime?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(q.endTime?.toISOString()).toBe("2026-01-31T12:30:00.000Z");
  });

  it("a date-only string and an offset are read as ISO 8601", () => {
    expect(parseBillingQuery({ kind: "endpoints", startTime: "2026-01-15" }).startTime?.toISOString()).toBe("2026-01-15T00:00:00.000Z");
    expect(parseBillingQuery({ kind: "endpoints", startTime: "2026-01-15T02:00:00+02:00" }).startTime?.toISOString()).toBe(
      "2026-01-15T00:00:00.000Z",
    );
  });

  it("Date objects are accepted as they are", () => {
    const start = new Date("2026-02-01T00:00:00Z");
    const end = new Date("2026-03-01T00:00:00Z");
    const q = parseBillingQuery({ kind: "networkvolumes", startTime: start, endTime: end });
    expect(q.startTime?.getTime()).toBe(start.getTime());
    expect(q.endTime?.getTime()).toBe(end.getTime());
  });

  it("a string and a Date can be mixed", () => {
    const q = parseBillingQuery({ kind: "pods", startTime: "2026-01-01T00:00:00Z", endTime: new Date("2026-01-02T00:00:00Z") });
    expect(q.endTime!.getTime() - q.startTime!.getTime()).toBe(86_400_000);
  });

  it.each(["startTime", "endTime"])("an unreadable %s is refused with an example of the format", (field) => {
    expect(messageOf({ kind: "pods", [field]: "yesterday" })).toBe(
      `invalid billing lookup: ${field} must be an ISO 8601 date-time such as "2026-01-31T00:00:00Z" (got "yesterday")`,
    );
  });

  it("an invalid Date object is refused", () => {
    expect(messageOf({ kind: "pods", startTime: new Date("nonsense") })).toMatch(/^invalid billing lookup: startTime/);
  });

  it("a number (epoch) is not a date-time here", () => {
    expect(messageOf({ kind: "pods", startTime: 1_767_225_600_000 })).toMatch(/^invalid billing lookup: startTime: /);
  });

  it("a reversed range is refused naming both times", () => {
    expect(messageOf({ kind: "pods", startTime: "2026-02-01T00:00:00Z", endTime: "2026-01-01T00:00:00Z" })).toBe(
      "invalid billing lookup: endTime (2026-01-01T00:00:00.000Z) must be after startTime (2026-02-01T00:00:00.000Z)",
    );
  });

  it("an empty range (start equal to end) is refused; one millisecond is enough", () => {
    const at = "2026-01-01T00:00:00.000Z";
    expect(messageOf({ kind: "endpoints", startTime: at, endTime: new Date(at) })).toMatch(/endTime \(.*\) must be after startTime/);
    expect(() => parseBillingQuery({ kind: "endpoints", startTime: at, endTime: "2026-01-01T00:00:00.001Z" })).not.toThrow();
  });

  it("either end alone is fine", () => {
    expect(() => parseBillingQuery({ kind: "pods", startTime: "2030-01-01T00:00:00Z" })).not.toThrow();
    expect(() => parseBillingQuery({ kind: "pods", endTime: "2000-01-01T00:00:00Z" })).not.toThrow();
  });

  // Regression test for a fixed defect.
  it("an impossible calendar date (2026-02-30) is refused, not rolled over to March", () => {
    expect(messageOf({ kind: "pods", startTime: "2026-02-30" })).toBe(
      'invalid billing lookup: startTime must be an ISO 8601 date-time such as "2026-01-31T00:00:00Z" (got "2026-02-30")',
    );
  });
});

describe("parseBillingQuery: several problems", () => {
  it("are all listed, separated by semicolons", () => {
    const message = messageOf({ kind: "endpoints", bucketSize: "minute", grouping: "nope" });
    expect(message).toMatch(/^invalid billing lookup: /);
    expect(message).toContain("bucketSize must be one of hour, day, week, month, year");
    expect(message).toContain("grouping (endpoints) must be one of endpointId, podId, gpuTypeId");
    expect(message.split("; ")).toHaveLength(2);
  });
});
