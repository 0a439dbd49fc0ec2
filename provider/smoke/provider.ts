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
import { argsOf, checkComponentArgs } from "../componentArgs";
import { connectionFailures, connectionProof, jobClient } from "../../model/connection";
import { containsUnknown, deepEqual } from "../../model/fields/values";
import { casesSchema, type SmokeCase } from "./caseSchema";
import { failureReport } from "./report";
import { defaultLogNoteReader } from "../logNotes";
import type { CaseResult } from "../../model/components/caseResult";
import { runCases } from "./runCases";

const smokeTestArgsSchema = z.object({
  endpointId: z.string().min(1, "endpointId must not be empty"),
  requestBase: z.string().min(1, "requestBase must not be empty").optional(),
  cases: casesSchema,
  revision: z.string().optional(),
  trigger: z.string().optional(),
});

export interface SmokeTestInputs {
  endpointId: string;
  /**
   * The endpoint's v2 `requestUrls.base`, where HTTP cases go when it is known. Only the base, not
   * the whole map: the map's other URLs are never used, and `--diff` would show them all.
   */
  requestBase?: string;
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

/** Inputs that, when changed, mean the cases must run again (requestBase only follows the endpoint, whose revision is watched). */
const RERUN_KEYS = ["endpointId", "cases", "revision", "trigger"] as const;

async function runAll(inputs: SmokeTestInputs): Promise<SmokeTestOutputs> {
  const client = await jobClient();
  const cases = casesSchema.parse(inputs.cases); // check already refused invalid cases; this types them
  const results = await runCases(client, { id: inputs.endpointId, requestBase: inputs.requestBase }, cases);
  const message = await failureReport(inputs.endpointId, results, defaultLogNoteReader);
  if (message) throw new Error(message);
  return { ...inputs, results, ranAt: new Date().toISOString() };
}

type CheckFailures = { property: string; reason: string }[];

/** The JobRunner's provider, given how the service's answer to the settings is had (tests hand in their own). */
export function smokeTestProviderWith(
  proof: () => Promise<CheckFailures> = async () => connectionProof("required"),
): pulumi.dynamic.ResourceProvider {
  return { ...smokeTestProvider, check: (olds, news) => checkWith(proof, olds, news) };
}

async function checkWith(proof: () => Promise<CheckFailures>, _olds: Record<string, unknown>, news: Record<string, unknown>) {
  // The cases run on the job API: a JobRunner needs both URLs and the key.
  const failures: CheckFailures = [...connectionFailures("required"), ...checkComponentArgs(smokeTestArgsSchema, "JobRunner", news)];
  // Valid arguments and settings are proven by the service (one read per process; none for bad input).
  if (failures.length === 0) failures.push(...(await proof()));
  return { inputs: news, failures };
}

export const smokeTestProvider: pulumi.dynamic.ResourceProvider = {
  check: (olds: Record<string, unknown>, news: Record<string, unknown>) => checkWith(async () => connectionProof("required"), olds, news),

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
