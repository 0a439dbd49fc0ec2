import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStackConfig } from "../../../model/stackConfig";
import { smokeTestProviderWith } from "../../../provider/smoke/provider";

const CONNECTION = {
  "gpucloud:apiKey": "k",
  "gpucloud:apiUrl": "http://127.0.0.1:9/api/v2",
  "gpucloud:serverlessUrl": "http://127.0.0.1:9/v2",
};
beforeAll(() => setStackConfig(CONNECTION));
afterAll(() => setStackConfig({}));

/** Nothing listens at CONNECTION's URLs: the service's proof of the settings is taken as given here. */
const smokeTestProvider = smokeTestProviderWith(async () => []);

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const goodCase = {
  name: "hello",
  input: { prompt: "hi" },
  expect: { outputSubset: { ok: true }, outputPredicates: [{ path: "tokens", op: "gt", value: 0 }] },
  timeoutSeconds: 60,
};
const good = { endpointId: "ep-123", cases: [goodCase], revision: "rev-1", trigger: "t1" };

async function check(news: Record<string, unknown>) {
  const result = await smokeTestProvider.check!({}, news);
  return { inputs: result.inputs, failures: result.failures ?? [] };
}

async function diff(olds: Record<string, unknown>, news: Record<string, unknown>) {
  return smokeTestProvider.diff!("smoke-1", olds, news);
}

describe("smokeTestProvider.check", () => {
  it("a JobRunner needs the job API URL: without it check fails, naming the setting and the fix", async () => {
    const { ["gpucloud:serverlessUrl"]: _jobs, ...withoutJobs } = CONNECTION;
    setStackConfig(withoutJobs);
    try {
      const { failures } = await check(good);
      expect(failures).toEqual([
        { property: "", reason: expect.stringContaining("No job API URL: run `pulumi config set gpucloud:serverlessUrl <url>`") },
      ]);
    } finally {
      setStackConfig(CONNECTION);
    }
  });

  it("accepts valid arguments and returns the inputs unchanged (__provider included)", async () => {
    const news = { ...good, __provider: "serialized provider text" };
    const { inputs, failures } = await check(news);
    expect(failures).toEqual([]);
    expect(inputs).toEqual(news);
  });

  it("revision and trigger are optional", async () => {
    expect((await check({ endpointId: "ep", cases: [{ name: "a", input: {} }] })).failures).toEqual([]);
  });

  it("a bad predicate value is reported at cases[i].expect.outputPredicates[j].value", async () => {
    const { failures } = await check({
      ...good,
      cases: [{ name: "a", input: {}, expect: { outputPredicates: [{ op: "exists" }, { op: "gt", value: "ten" }] } }],
    });
    expect(failures).toEqual([
      {
        property: "cases[0].expect.outputPredicates[1].value",
        reason: 'cases[0].expect.outputPredicates[1].value: op "gt" compares numbers; value must be a number (got "ten")',
      },
    ]);
  });

  it("reports each problem with its own path", async () => {
    const { failures } = await check({
      endpointId: "ep",
      cases: [
        { name: "a", input: {}, expect: { outputPredicates: [{ op: "matches", value: "[" }] } },
        { name: "a", input: "not an object", timeoutSeconds: 0 },
        { name: "c", input: {}, expect: { outputPredicates: [{ op: "between", value: 1 }] } },
      ],
    });
    const byPath = Object.fromEntries(failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        "cases[0].expect.outputPredicates[0].value",
        "cases[1].name",
        "cases[1].input",
        "cases[1].timeoutSeconds",
        "cases[2].expect.outputPredicates[0].op",
      ].sort(),
    );
    expect(byPath["cases[0].expect.outputPredicates[0].value"]).toMatch(/"\[" is not a valid regular expression/);
    expect(byPath["cases[1].input"]).toBe("cases[1].input: input must be an object (the job's `input`)");
    expect(byPath["cases[1].timeoutSeconds"]).toBe("cases[1].timeoutSeconds: timeoutSeconds must be greater than 0");
    expect(byPath["cases[2].expect.outputPredicates[0].op"]).toMatch(/op must be one of equals, .* \(got "between"\)$/);
  });

  it("duplicate case names are reported at the second one's name", async () => {
    const { failures } = await check({
      endpointId: "ep",
      cases: [
        { name: "x", input: {} },
        { name: "x", input: {} },
      ],
    });
    expect(failures).toEqual([{ property: "cases[1].name", reason: 'cases[1].name: case name "x" is used twice; names must be unique' }]);
  });

  it("a policy out of bounds is reported at cases[i].policy.<field>", async () => {
    const { failures } = await check({ endpointId: "ep", cases: [{ name: "p", input: {}, policy: { ttl: 1_000 } }] });
    expect(failures).toEqual([
      { property: "cases[0].policy.ttl", reason: "cases[0].policy.ttl: policy.ttl must be at least 10000 ms (10 s)" },
    ]);
  });

  it("endpointId: missing or empty is refused", async () => {
    const missing = await check({ cases: [goodCase] });
    expect(missing.failures).toHaveLength(1);
    expect(missing.failures[0]!.property).toBe("endpointId");
    const empty = await check({ endpointId: "", cases: [goodCase] });
    expect(empty.failures).toEqual([{ property: "endpointId", reason: "endpointId: endpointId must not be empty" }]);
  });

  it("cases: missing or empty is refused", async () => {
    expect((await check({ endpointId: "ep" })).failures.map((f) => f.property)).toEqual(["cases"]);
    expect((await check({ endpointId: "ep", cases: [] })).failures).toEqual([
      { property: "cases", reason: "cases: give at least one smoke-test case" },
    ]);
  });

  it("an unknown argument is refused with a suggestion", async () => {
    const { failures } = await check({ ...good, triger: "x" });
    expect(failures).toEqual([{ property: "triger", reason: "triger: is not a JobRunner argument; did you mean trigger?" }]);
    const other = await check({ ...good, somethingElse: 1 });
    expect(other.failures[0]!.reason).toBe(
      "somethingElse: is not a JobRunner argument; the arguments are endpointId, requestBase, cases, revision, trigger",
    );
  });

  it("takes the endpoint's requestUrls.base as a string, not the whole map (whose other URLs --diff would show)", async () => {
    expect((await check({ ...good, requestBase: "https://ep.example" })).failures).toEqual([]);
    const bad = await check({ ...good, requestBase: 7 });
    expect(bad.failures.map((f) => f.property)).toEqual(["requestBase"]);
    const map = await check({ ...good, requestUrls: { base: "https://ep.example" } });
    expect(map.failures.map((f) => f.property)).toEqual(["requestUrls"]);
  });

  describe("preview unknowns", () => {
    it("an unknown endpointId is accepted", async () => {
      expect((await check({ ...good, endpointId: UNKNOWN })).failures).toEqual([]);
    });

    it("unknown cases (whole list, one case, or a value deep inside) are accepted", async () => {
      expect((await check({ ...good, cases: UNKNOWN })).failures).toEqual([]);
      expect((await check({ ...good, cases: [goodCase, UNKNOWN] })).failures).toEqual([]);
      expect((await check({ ...good, cases: [{ ...goodCase, input: { prompt: UNKNOWN } }] })).failures).toEqual([]);
      expect((await check({ ...good, cases: [{ ...goodCase, timeoutSeconds: UNKNOWN }] })).failures).toEqual([]);
      expect(
        (await check({ ...good, cases: [{ ...goodCase, expect: { outputPredicates: [{ path: "n", op: "lt", value: UNKNOWN }] } }] }))
          .failures,
      ).toEqual([]);
    });

    it("unknown revision and trigger are accepted", async () => {
      expect((await check({ ...good, revision: UNKNOWN, trigger: UNKNOWN })).failures).toEqual([]);
    });

    it("everything unknown at once is accepted, and the inputs come back as given", async () => {
      const news = { endpointId: UNKNOWN, cases: UNKNOWN, revision: UNKNOWN };
      const { inputs, failures } = await check(news);
      expect(failures).toEqual([]);
      expect(inputs).toEqual(news);
    });

    it("known arguments beside unknown ones are still checked", async () => {
      const badCases = await check({ endpointId: UNKNOWN, cases: [{ name: "", input: {} }] });
      expect(badCases.failures).toEqual([{ property: "cases[0].name", reason: "cases[0].name: name must not be empty" }]);
      const badEndpoint = await check({ endpointId: "", cases: UNKNOWN });
      expect(badEndpoint.failures).toEqual([{ property: "endpointId", reason: "endpointId: endpointId must not be empty" }]);
      const typo = await check({ endpointId: UNKNOWN, cases: UNKNOWN, revison: "r" });
      expect(typo.failures.map((f) => f.property)).toEqual(["revison"]);
    });

    // Regression test for a fixed defect.
    it("known mistakes inside cases are reported even when another value in cases is unknown", async () => {
      const { failures } = await check({
        endpointId: "ep",
        cases: [
          { name: "a", input: { prompt: UNKNOWN }, timeoutSeconds: -1 },
          { name: "a", input: {} },
        ],
      });
      expect(failures.map((f) => f.property).sort()).toEqual(["cases[0].timeoutSeconds", "cases[1].name"]);
    });
  });
});

describe("smokeTestProvider.diff", () => {
  const olds = { ...good, __provider: "p", results: [{ name: "hello", passed: true }], ranAt: "2026-01-01T00:00:00.000Z" };

  it("no changes when endpointId, cases, revision and trigger are the same", async () => {
    expect(await diff(olds, { ...good, __provider: "p" })).toEqual({ changes: false, replaces: [] });
  });

  it("outputs in the old state (results, ranAt) and a new __provider do not count as changes", async () => {
    expect((await diff(olds, { ...good, __provider: "a different provider text" })).changes).toBe(false);
  });

  it("key order inside cases does not count as a change", async () => {
    const reordered = { timeoutSeconds: 60, expect: goodCase.expect, input: { prompt: "hi" }, name: "hello" };
    expect((await diff(olds, { ...good, cases: [reordered] })).changes).toBe(false);
  });

  it.each([
    ["endpointId", { endpointId: "ep-999" }],
    ["revision", { revision: "rev-2" }],
    ["trigger", { trigger: "t2" }],
    ["cases (a value inside)", { cases: [{ ...goodCase, input: { prompt: "bye" } }] }],
    ["cases (one more)", { cases: [goodCase, { name: "second", input: {} }] }],
    ["cases (order)", { cases: [{ name: "z", input: {} }, goodCase] }],
  ])("%s changed: changes, no replacement", async (_what, change) => {
    expect(await diff(olds, { ...good, ...change })).toEqual({ changes: true, replaces: [] });
  });

  it("revision or trigger added or removed is a change", async () => {
    const { revision: _r, ...withoutRevision } = good;
    expect((await diff(olds, withoutRevision)).changes).toBe(true);
    expect((await diff(withoutRevision, good)).changes).toBe(true);
    const { trigger: _t, ...withoutTrigger } = good;
    expect((await diff(olds, withoutTrigger)).changes).toBe(true);
  });

  it.each([
    ["endpointId", { endpointId: UNKNOWN }],
    ["revision", { revision: UNKNOWN }],
    ["trigger", { trigger: UNKNOWN }],
    ["cases", { cases: UNKNOWN }],
    ["a value inside cases", { cases: [{ ...goodCase, input: { prompt: UNKNOWN } }] }],
  ])("%s unknown: changes", async (_what, change) => {
    expect(await diff(olds, { ...good, ...change })).toEqual({ changes: true, replaces: [] });
  });

  it("an unknown in an argument that is not a rerun key does not count", async () => {
    expect((await diff(olds, { ...good, __provider: UNKNOWN })).changes).toBe(false);
  });
});
