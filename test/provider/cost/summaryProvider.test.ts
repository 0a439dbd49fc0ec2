import { describe, expect, it } from "vitest";
import { costSummaryProviderWith } from "../../../provider/cost/summaryProvider";
import { UNKNOWN } from "../../../model/fields/values";
import type { ManagementApi } from "../../../model/backend/port";
import { makeApiError } from "../../../client/errors";
import type { AccountLimitsV2 } from "../../../client/schemasV2";

/** A connection without account limits (the v1 API): the report sums and checks budgets only. */
const v1Api = () => ({}) as ManagementApi;

function recorder(api: () => ManagementApi = v1Api) {
  const lines: string[] = [];
  const provider = costSummaryProviderWith({ info: (m) => lines.push(m), warn: (m) => lines.push(`warn: ${m}`) }, api, async () => []);
  return { lines, provider };
}

/** A v2 connection whose account has these limits and these endpoints; `calls` counts the reads. */
function accountApi(limits: AccountLimitsV2 | Error, endpoints: Array<{ id: string; name?: string; workersMax?: number }> = []) {
  const calls: string[] = [];
  const api = {
    account: {
      limits: async () => {
        calls.push("account.limits");
        if (limits instanceof Error) throw limits;
        return limits;
      },
    },
    endpoints: {
      list: async () => {
        calls.push("endpoints.list");
        return endpoints;
      },
    },
  } as unknown as ManagementApi;
  return { calls, api: () => api };
}

const limits = (spend: number, workers: number): AccountLimitsV2 => ({
  spendRate: { limit: spend, current: 0 },
  serverlessWorkers: { limit: workers, current: 0 },
});

const pod = (perHour: number) => ({ trainer: { status: "estimated", perHour } });
const endpoint = { inference: { status: "estimated", perHour: 0.43, ceilingPerHour: 1.29 } };
const volume = { models: { status: "estimated", perMonth: 1.4 } };

describe("the cost summary's provider", () => {
  it("prints the sums of a new stack and records them as inputs", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { report: "cost", estimates: { ...pod(0.43), ...endpoint, ...volume }, __provider: "shim" });
    expect(lines).toEqual([
      'CostReport "cost": estimated cost: 0.86 USD/hour always-on, 1.72 USD/hour ceiling, 1.4 USD/month storage (no earlier up to compare with)',
    ]);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ perHour: 0.86, ceilingPerHour: 1.72, perMonth: 1.4, unpriced: [], __provider: "shim" });
  });

  it("prints the change against the last up's figures, held in its state", async () => {
    const { lines, provider } = recorder();
    const last = (await provider.check!({}, { estimates: { ...pod(0.43), ...endpoint } })).inputs;
    lines.length = 0;
    const now = await provider.check!(last, { estimates: { ...pod(0.86), ...endpoint } });
    expect(lines).toEqual([
      "estimated cost: 1.29 USD/hour always-on, 2.15 USD/hour ceiling, 0 USD/month storage (+0.43 USD/hour always-on vs the last up: 0.86; +0.43 USD/hour ceiling vs the last up: 1.72)",
    ]);
    expect(await provider.diff!("id", last, now.inputs)).toMatchObject({ changes: true });
    const same = await provider.check!(last, { estimates: { ...pod(0.43), ...endpoint } });
    expect(await provider.diff!("id", last, same.inputs)).toMatchObject({ changes: false });
  });

  it("reads the list of estimates 0.2.0 recorded: the same figures plan no change, and the change is printed against them", async () => {
    const { lines, provider } = recorder();
    const earlier = {
      report: "cost",
      resources: [
        { name: "trainer", estimate: { status: "estimated", perHour: 0.43 } },
        { name: "inference", estimate: endpoint.inference },
        { name: "stale", estimate: { status: "unavailable", reason: "no price" } },
        { name: "gone", estimate: { status: "unavailable", reason: "no GPU type" } },
      ],
      perHour: 0.86,
      ceilingPerHour: 1.72,
      perMonth: 0,
      unpriced: ["stale: no price", "gone: no GPU type"],
    };
    // As the engine hands the map over: keys sorted, so the unpriced come in another order than 0.2.0 listed them.
    const estimates = { gone: earlier.resources[3]!.estimate, ...endpoint, stale: earlier.resources[2]!.estimate, ...pod(0.43) };
    const same = await provider.check!(earlier, { report: "cost", estimates });
    expect(lines[0]).toContain("(no change since the last up); not priced: gone: no GPU type; stale: no price");
    expect(await provider.diff!("id", earlier, same.inputs)).toEqual({ changes: false, replaces: [] });
    const dearer = await provider.check!(earlier, { report: "cost", estimates: { ...estimates, ...pod(0.86) } });
    expect(lines[1]).toContain("+0.43 USD/hour always-on vs the last up: 0.86");
    expect(await provider.diff!("id", earlier, dearer.inputs)).toMatchObject({ changes: true });
  });

  it("sums what is known when an estimate is unknown at preview, and says which is not", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { estimates: { ...pod(0.43), inference: UNKNOWN } });
    expect(lines[0]).toBe(
      "estimated cost: 0.43 USD/hour always-on, 0.43 USD/hour ceiling, 0 USD/month storage (no earlier up to compare with); not priced: inference: its estimate is not known until apply",
    );
    expect(await provider.diff!("id", result.inputs, result.inputs)).toMatchObject({ changes: true });
  });

  it("says the sum is not known when the list itself is not", async () => {
    const { lines, provider } = recorder();
    const result = await provider.check!({}, { estimates: UNKNOWN });
    expect(result).toEqual({ inputs: { estimates: UNKNOWN }, failures: [] });
    expect(lines).toEqual(["estimated cost: not known until apply (the resources to sum are not known yet)"]);
  });

  it("fails check over the budget, naming the dearest resources, and passes within it", async () => {
    const { provider } = recorder();
    const over = await provider.check!({}, { estimates: { ...pod(0.43), ...endpoint }, budget: { ceilingPerHour: 1 } });
    expect(over.failures).toEqual([
      { property: "", reason: expect.stringContaining("ceiling 1.72 USD/hour exceeds gpucloud:budgetCeilingPerHour 1") },
    ]);
    expect(over.failures?.[0]?.reason).toContain("Costing most: inference (0.43 USD/hour always-on, 1.29 ceiling), trainer");
    expect((await provider.check!({}, { estimates: { ...pod(0.43), ...endpoint }, budget: { ceilingPerHour: 2 } })).failures).toEqual([]);
  });

  it("refuses inputs that are not estimate figures, naming where", async () => {
    const { provider } = recorder();
    const result = await provider.check!({}, { estimates: { trainer: { status: "guessed" } } });
    expect(result.failures?.[0]?.property).toBe("estimates.trainer");
  });

  describe("against the account's limits (v2)", () => {
    it("fails over the worker quota: the stack's workersMax plus the account's other endpoints (its own excluded by id), naming what uses most", async () => {
      const account = accountApi(limits(80, 30), [
        { id: "ep-big", workersMax: 12 },
        { id: "elsewhere-1", workersMax: 10 },
        { id: "elsewhere-2", workersMax: 6 },
      ]);
      const { provider } = recorder(account.api);
      const result = await provider.check!(
        {},
        { estimates: pod(0.43), endpoints: { big: { id: "ep-big", workersMax: 12 }, small: { id: UNKNOWN, workersMax: 3 } } },
      );
      const reason = result.failures?.[0]?.reason ?? "";
      expect(reason).toContain(
        "over the account's serverless worker quota: the sum of workersMax over the account's endpoints would be 31",
      );
      expect(reason).toContain("this stack's 2 endpoint(s): 15; the account's 2 other endpoint(s): 16");
      expect(reason).toContain("over its quota of 30 (serverlessWorkers, GET /v2/account/limits)");
      expect(reason).toContain("Using most: big (12), small (3), the other endpoints of the account (16)");
    });

    it("warns within 10% of the worker quota, and passes below it", async () => {
      const near = recorder(accountApi(limits(80, 30), [{ id: "elsewhere", workersMax: 13 }]).api);
      const result = await near.provider.check!(
        {},
        {
          estimates: {},
          endpoints: { big: { id: "ep-big", workersMax: 12 }, small: { workersMax: 3 } },
        },
      );
      expect(result.failures).toEqual([]);
      expect(near.lines.join("\n")).toContain(
        "warn: near the account's serverless worker quota: the sum of workersMax over the account's endpoints would be 28",
      );
      const clear = recorder(accountApi(limits(80, 30), []).api);
      await clear.provider.check!({}, { estimates: {}, endpoints: { big: { id: "ep-big", workersMax: 12 } } });
      expect(clear.lines.join("\n")).not.toContain("warn:");
    });

    it("counts an endpoint that declares no workersMax at the service's default of 3", async () => {
      const { provider } = recorder(accountApi(limits(80, 2)).api);
      const result = await provider.check!({}, { estimates: {}, endpoints: { plain: {} } });
      expect(result.failures?.[0]?.reason).toContain("would be 3 (this stack's 1 endpoint(s): 3;");
    });

    it("fails over the spend cap naming the cap, the always-on figure and the dearest resources; warns within 10%", async () => {
      const over = recorder(accountApi(limits(1, 30)).api);
      const result = await over.provider.check!({}, { estimates: { ...pod(0.43), inference: { ...endpoint.inference, perHour: 0.8 } } });
      const reason = result.failures?.[0]?.reason ?? "";
      expect(reason).toContain("over the account's hourly spend cap: this stack's always-on estimate is 1.23 USD/hour");
      expect(reason).toContain("over its cap of 1 USD/hour (spendRate, GET /v2/account/limits)");
      expect(reason).toContain("Costing most: inference (0.8 USD/hour), trainer (0.43 USD/hour)");
      const near = recorder(accountApi(limits(1.3, 30)).api);
      expect(
        (await near.provider.check!({}, { estimates: { ...pod(0.43), inference: { ...endpoint.inference, perHour: 0.8 } } })).failures,
      ).toEqual([]);
      expect(near.lines.join("\n")).toContain(
        "warn: near the account's hourly spend cap: this stack's always-on estimate is 1.23 USD/hour (running pods and endpoints' workersMin workers), within 10% of its cap of 1.3 USD/hour",
      );
    });

    it("a key without account:read gives one warning that says so, never a failure", async () => {
      const forbidden = makeApiError({
        operation: "getAccountLimits",
        method: "GET",
        url: "/api/v2/account/limits",
        idempotent: true,
        status: 403,
        serviceMessage: 'this API key lacks the scope "account:read"',
      });
      const { lines, provider } = recorder(accountApi(forbidden).api);
      const result = await provider.check!({}, { estimates: pod(500), endpoints: { big: { id: "x", workersMax: 1000 } } });
      expect(result.failures).toEqual([]);
      const warnings = lines.filter((l) => l.startsWith("warn:"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(
        'was not checked against the account\'s limits (hourly spend cap, serverless worker quota): the API key lacks the permission (scope "account:read"',
      );
    });

    it("checks the quota once the endpoints' workersMax are known (not at a preview where one is unknown)", async () => {
      const account = accountApi(limits(80, 1));
      const { lines, provider } = recorder(account.api);
      const result = await provider.check!({}, { estimates: {}, endpoints: { big: { workersMax: UNKNOWN } } });
      expect(result.failures).toEqual([]);
      expect(account.calls).toEqual(["account.limits"]);
      expect(lines.join("\n")).toContain("the serverless worker quota is checked once the endpoints' workersMax are known");
    });
  });
});
