/**
 * The dynamic provider behind the CostReport component: one small resource per report whose
 * inputs are the stack's estimate figures (never prices or read times, so an unchanged stack
 * previews with no changes). Its state holds the last up's figures, so its check, which runs in
 * every preview and up, prints the summary with the change against the last up, and refuses a sum
 * over the budget before anything of the stack is created (in a preview). On the v2 API it also
 * holds the stack against the account's limits (model/cost/accountLimits.ts): the spend cap and
 * the serverless worker quota. Nothing lives in the service: the state is the record.
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { argsOf } from "../componentArgs";
import { PermissionDeniedError } from "../../client/errors";
import { connectionProof, managementClient } from "../../model/connection";
import type { ManagementApi } from "../../model/backend/port";
import { shownLog, type ProgressLog } from "../resources/deps";
import { checkAccountLimits, type StackEndpoint } from "../../model/cost/accountLimits";
import { failure, withValueShown } from "../../model/fields/validation";
import { containsUnknown, deepEqual, isRecord, messageOf, UNKNOWN, type Props } from "../../model/fields/values";
import {
  budgetExcess,
  changeAgainst,
  estimateKeys,
  summarize,
  summaryLine,
  type CostSummary,
  type EstimateFigures,
  type NamedEstimate,
} from "../../model/cost/summary";

const unknown = z.literal(UNKNOWN);
const money = z.number().finite().nonnegative();
const figuresSchema = z.object({
  status: z.enum(["estimated", "pending", "unavailable"]),
  reason: z.string().optional(),
  perHour: money.optional(),
  ceilingPerHour: money.optional(),
  perMonth: money.optional(),
});
// Keyed by the resource's name (estimateKeys), so that `--diff` names the resource whose figures
// changed, and a resource added or removed is one line, not every later entry shifted. At preview a
// resource's estimate may be unknown (the others are still summed), or, in principle, the whole map.
const estimatesSchema = z.record(z.string(), z.union([figuresSchema, unknown]));
/** A stack's endpoint as the worker quota reads it; its id tells it from the account's other endpoints (unknown until created). */
const endpointSchema = z.object({ id: z.union([z.string(), unknown]).optional(), workersMax: z.union([z.number(), unknown]).optional() });
const limit = z.number().finite().positive();
const budgetSource = z.enum(["argument", "config"]);
const inputsSchema = z.object({
  /** The CostReport's name: the provider's lines show under the stack, so they say which report. */
  report: z.string().optional(),
  /** Unknown as a whole only at a preview, where check says so before parsing. */
  estimates: estimatesSchema,
  budget: z.object({ perHour: limit.optional(), ceilingPerHour: limit.optional(), perMonth: limit.optional() }).optional(),
  /** Where each limit came from (summary.ts resolveBudget), so a message names what to change; absent: config. */
  budgetSources: z
    .object({ perHour: budgetSource.optional(), ceilingPerHour: budgetSource.optional(), perMonth: budgetSource.optional() })
    .optional(),
  /** The names of the resources priced per month only (network volumes): an hourly budget does not need their price. */
  storage: z.array(z.union([z.string(), unknown])).optional(),
  /** The stack's endpoints by name, for the worker quota: any part may be unknown at preview. */
  endpoints: z.union([unknown, z.record(z.string(), z.union([unknown, endpointSchema]))]).optional(),
});
type Estimates = z.infer<typeof estimatesSchema>;

/** The figures a summary records in its state (and the report exports); the diff compares these and the estimates. */
const RECORDED = ["perHour", "ceilingPerHour", "perMonth", "unpriced"] as const;

const NOT_KNOWN_YET: EstimateFigures = { status: "pending", reason: "its estimate is not known until apply" };

function namedEstimates(estimates: Estimates, storage: readonly string[] = []): NamedEstimate[] {
  return Object.entries(estimates).map(([name, estimate]) => ({
    name,
    estimate: estimate === UNKNOWN ? NOT_KNOWN_YET : (estimate as EstimateFigures),
    storage: storage.includes(name),
  }));
}

/**
 * The per-resource estimates a report's inputs hold: today's map, or, in state 0.2.0 wrote, its
 * list of `{ name, estimate }` read into the same map (so an upgrade plans no change).
 */
function estimatesOf(props: Props): unknown {
  const earlier = props["resources"];
  if (props["estimates"] !== undefined || !Array.isArray(earlier)) return props["estimates"];
  const entries = earlier.filter((e): e is { name: string; estimate?: unknown } => isRecord(e) && typeof e["name"] === "string");
  const keys = estimateKeys(entries.map((e) => e.name));
  return Object.fromEntries(entries.map((e, i) => [keys[i], e.estimate]));
}

/** The summary recorded by the last up, if there was one. */
function lastSummaryOf(olds: Props | undefined): CostSummary | undefined {
  const parsed = estimatesSchema.safeParse(estimatesOf(olds ?? {}));
  return parsed.success ? summarize(namedEstimates(parsed.data)) : undefined;
}

/**
 * What the account's limits say of the stack: failures (over a cap) and warnings (near one, or the
 * check could not run). Never fails for want of a scope or an answer: that is one warning.
 */
async function accountLimitFindings(
  api: () => ManagementApi,
  summary: CostSummary,
  endpoints: Input["endpoints"],
  subject: string,
  log: ProgressLog,
): Promise<string[]> {
  let client: ManagementApi;
  try {
    client = api();
  } catch (error) {
    log.warn(`${subject}the account's limits were not checked: ${messageOf(error)}`);
    return [];
  }
  // The v1 API has no limits to read.
  const account = client.account;
  if (account === undefined) return [];
  const known = knownEndpoints(endpoints);
  try {
    const limits = await account.limits();
    // The limits' inner field names are not published (limit and current are read): an answer
    // without them checks nothing, and says so rather than passing in silence.
    const unread = [
      ...(limits.spendRate.limit === undefined ? ["the hourly spend cap (spendRate.limit)"] : []),
      ...(limits.serverlessWorkers.limit === undefined ? ["the serverless worker quota (serverlessWorkers.limit)"] : []),
    ];
    if (unread.length > 0)
      log.warn(
        `${subject}the stack was not checked against ${unread.join(" nor ")}: the service's answer to GET /v2/account/limits does not carry it ` +
          `under that name (its fields are not published; this package reads "limit"). The service still enforces the limits when things start.`,
      );
    const quota = known === undefined ? undefined : limits.serverlessWorkers.limit;
    if (known === undefined)
      log.info(`${subject}the serverless worker quota is checked once the endpoints' workersMax are known (at apply)`);
    const accountEndpoints = quota === undefined ? [] : await client.endpoints.list();
    const stackEndpoints = known ?? [];
    const findings = checkAccountLimits({
      summary,
      stackEndpoints,
      accountEndpoints,
      caps: { spendPerHour: limits.spendRate.limit, serverlessWorkers: quota },
    });
    for (const warning of findings.warnings) log.warn(subject + warning);
    return findings.failures;
  } catch (error) {
    const why =
      error instanceof PermissionDeniedError
        ? `the API key lacks the permission (scope "account:read" for the limits, "serverless:read" for the account's endpoints) to read them`
        : `reading them failed: ${messageOf(error)}`;
    log.warn(
      `${subject}the stack was not checked against the account's limits (hourly spend cap, serverless worker quota): ${why}. The service still enforces them when things start.`,
    );
    return [];
  }
}

type Input = z.infer<typeof inputsSchema>;

/** The stack's endpoints once every workersMax is known (undefined before: the quota waits for apply); an unknown id is a new endpoint. */
function knownEndpoints(endpoints: Input["endpoints"]): StackEndpoint[] | undefined {
  if (endpoints === undefined) return [];
  if (endpoints === UNKNOWN) return undefined;
  const known: StackEndpoint[] = [];
  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (endpoint === UNKNOWN || endpoint.workersMax === UNKNOWN) return undefined;
    known.push({ name, id: endpoint.id === UNKNOWN ? undefined : endpoint.id, workersMax: endpoint.workersMax });
  }
  return known;
}

export function costSummaryProviderWith(
  log: ProgressLog,
  api: () => ManagementApi = managementClient,
  proof: () => Promise<{ property: string; reason: string }[]> = async () => connectionProof("ifSet"),
): pulumi.dynamic.ResourceProvider {
  return {
    async check(olds: Props, news: Props) {
      const subject = typeof news["report"] === "string" ? `CostReport ${JSON.stringify(news["report"])}: ` : "";
      if (news["estimates"] === UNKNOWN) {
        log.info(`${subject}estimated cost: not known until apply (the resources to sum are not known yet)`);
        return { inputs: news, failures: [] };
      }
      const parsed = inputsSchema.safeParse(argsOf(news));
      if (!parsed.success)
        return { inputs: news, failures: parsed.error.issues.map((issue) => withValueShown(failure(issue.path, issue.message), news)) };
      const { estimates, budget, budgetSources, storage, endpoints } = parsed.data;
      const summary = summarize(
        namedEstimates(
          estimates,
          storage?.filter((name): name is string => name !== UNKNOWN),
        ),
      );
      log.info(subject + summaryLine(summary, changeAgainst(lastSummaryOf(olds), summary)));
      const excess = budgetExcess(summary, budget ?? {}, budgetSources ?? {});
      // Settings the service refused fail here too, before the account's limits are read with them.
      const refused = await proof();
      if (refused.length > 0) return { inputs: news, failures: refused };
      const overLimits = await accountLimitFindings(api, summary, endpoints, subject, log);
      const { perHour, ceilingPerHour, perMonth, unpriced } = summary;
      // No property: the engine then prints the reason alone, not the whole input list.
      const failures = [...(excess ? [excess] : []), ...overLimits].map((reason) => ({ property: "", reason }));
      return { inputs: { ...news, perHour, ceilingPerHour, perMonth, unpriced }, failures };
    },

    async diff(_id: string, olds: Props, news: Props) {
      // `unpriced` in any order: the estimates reach the provider as a map, whose keys the engine
      // sorts, where 0.2.0 listed them in declaration order.
      const changed = RECORDED.filter((key) => containsUnknown(news[key]) || !deepEqual(olds[key], news[key], key === "unpriced"));
      const estimates = estimatesOf(news);
      const estimatesChanged = containsUnknown(estimates) || !deepEqual(estimatesOf(olds), estimates);
      return { changes: changed.length > 0 || estimatesChanged, replaces: [] as string[] };
    },

    async create(inputs: Props) {
      return { id: `cost-summary-${randomBytes(6).toString("hex")}`, outs: argsOf(inputs) };
    },

    async update(_id: string, _olds: Props, news: Props) {
      return { outs: argsOf(news) };
    },

    async read(id: string, props?: Props) {
      return { id, props: props ?? {} };
    },

    async delete() {},
  };
}

// The cost summary is a figure users act on (a budget, a surprise): shown without gpucloud:verbose.
export const costSummaryProvider = costSummaryProviderWith(shownLog);
