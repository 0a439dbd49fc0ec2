/**
 * The dynamic provider behind the JobRunner component. Its create and update run the smoke-test
 * cases against the endpoint; the engine only calls them during `pulumi up` (never in preview), and
 * only when something the cases depend on changed: the endpoint id, the revision (a digest of the
 * endpoint's and template's outputs), the cases themselves, or the user's trigger. A failing case
 * throws, which fails the update and leaves the previous verdict in state, so the next `up` runs
 * the cases again instead of forgetting the failure.
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { jobClient } from "../connection";
import { containsUnknown, isUnknown } from "../resources/values";
import { closest, failure } from "../resources/validation";
import { deepEqual } from "../resources/values";
import { casesSchema, isHttpCase, type SmokeCase } from "./caseSchema";
import { runHttpCase } from "./runHttpCase";
import { failureMessage } from "./report";
import { runQueueCase, type CaseResult } from "./runCase";

const PROVIDER_KEY = "__provider";

const smokeTestArgsSchema = z.object({
  endpointId: z.string().min(1, "endpointId must not be empty"),
  requestUrls: z.record(z.string(), z.string()).optional(),
  cases: casesSchema,
  revision: z.string().optional(),
  trigger: z.string().optional(),
});

export interface SmokeTestInputs {
  endpointId: string;
  /** The endpoint's v2 requestUrls; HTTP cases go to its `base` when there is one. */
  requestUrls?: Record<string, string>;
  cases: SmokeCase[];
  revision?: string;
  trigger?: string;
}

export interface SmokeTestOutputs extends SmokeTestInputs {
  /** One entry per case, in the order given. */
  results: CaseResult[];
  /** When the cases last ran (ISO 8601). */
  ranAt: string;
}

/** Inputs that, when changed, mean the cases must run again (requestUrls only follows the endpoint, whose revision is watched). */
const RERUN_KEYS = ["endpointId", "cases", "revision", "trigger"] as const;

/** True when the value at `path` contains an unknown, or any value on the way to it is unknown. */
function liesOnUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = root;
  for (const step of path) {
    if (isUnknown(current)) return true;
    if (current === null || typeof current !== "object") return false;
    current = (current as Record<PropertyKey, unknown>)[step];
  }
  return containsUnknown(current);
}


function argsOf(props: Record<string, unknown>): Record<string, unknown> {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

async function runAll(inputs: SmokeTestInputs): Promise<SmokeTestOutputs> {
  const client = await jobClient();
  const cases = casesSchema.parse(inputs.cases); // check already refused invalid cases; this types them
  // Cases are independent: run them side by side so a deploy waits for the slowest, not the sum.
  const results = await Promise.all(
    cases.map((c) => (isHttpCase(c) ? runHttpCase(client, { id: inputs.endpointId, requestUrls: inputs.requestUrls }, c) : runQueueCase(client, inputs.endpointId, c))),
  );
  const message = failureMessage(inputs.endpointId, results);
  if (message) throw new Error(message);
  return { ...inputs, results, ranAt: new Date().toISOString() };
}

export const smokeTestProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    // During preview some values may be unknown (the endpoint id, a value inside a case): validate
    // everything, then drop only the complaints that sit on, or inside, an unknown value.
    const args = argsOf(news);
    const known = Object.keys(smokeTestArgsSchema.shape);
    const unknownArgs = Object.keys(args).filter((key) => !known.includes(key));
    const typos = unknownArgs.map((key) => {
      const near = closest(key, known);
      return failure([key], `is not a JobRunner argument${near ? `; did you mean ${near}?` : `; the arguments are ${known.join(", ")}`}`);
    });
    const parsed = smokeTestArgsSchema.safeParse(args, { reportInput: true });
    const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => !liesOnUnknown(args, issue.path));
    return { inputs: news, failures: [...typos, ...issues.map((issue) => failure(issue.path, issue.message))] };
  },

  async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
    const changed = RERUN_KEYS.filter((key) => containsUnknown(news[key]) || !deepEqual(olds[key], news[key]));
    return { changes: changed.length > 0, replaces: [] as string[] };
  },

  async create(inputs: Record<string, unknown>) {
    const outs = await runAll(argsOf(inputs) as unknown as SmokeTestInputs);
    return { id: `smoke-${randomBytes(6).toString("hex")}`, outs };
  },

  async update(_id: string, _olds: Record<string, unknown>, news: Record<string, unknown>) {
    return { outs: await runAll(argsOf(news) as unknown as SmokeTestInputs) };
  },

  // Nothing lives in the service: the verdict is the state.
  async read(id: string, props?: Record<string, unknown>) {
    return { id, props: props ?? {} };
  },

  async delete() {},
};
