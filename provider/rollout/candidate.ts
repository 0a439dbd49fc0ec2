/**
 * The candidate check of an EndpointRollout: the dynamic resource whose create and update bring the
 * new version up where it cannot hurt and run the smoke-test cases against it. One run:
 *   1. deletes a canary an interrupted earlier run left behind (found by its name);
 *   2. creates the canary endpoint on the version's template (the serving endpoint's settings, the
 *      canary's worker counts), through the Endpoint kind's own lifecycle (lost-create handling,
 *      readiness);
 *   3. runs the cases against it (jobs, or HTTP requests on a load-balancing endpoint);
 *   4. deletes the canary, whatever the verdict, so no candidate is left serving or billing;
 *   5. fails the update when a case failed, before anything serving is touched (the serving
 *      endpoint and the switch depend on this resource's `approvedTemplateId`).
 * The engine runs it only during `pulumi up`, and only when the version, its template revision, the
 * canary's settings, the cases or the trigger changed.
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { argsOf, checkComponentArgs, outputsOf } from "../componentArgs";
import { isPlaceholderId, ResourceInitError } from "../resources/partialCreate";
import { containsUnknown, deepEqual, messageOf, type Props } from "../../model/fields/values";
import { casesSchema } from "../smoke/caseSchema";
import { failureReport } from "../smoke/report";
import type { CaseResult } from "../../model/components/caseResult";
import { requestBaseOf, runCases } from "../smoke/runCases";
import { candidateFailureAdvice } from "./candidateAdvice";
import type { RolloutDeps } from "./deps";
import type { RolloutStep } from "../../model/components/rolloutStep";
import { StepLog } from "./steps";

const candidateArgsSchema = z.object({
  /** The EndpointRollout's name, for messages. */
  rollout: z.string().min(1),
  version: z.string().min(1),
  templateId: z.string().min(1, "templateId must not be empty"),
  /** v2: the template's revision; a new one is a new candidate even under the same version. */
  templateRevision: z.string().optional(),
  /** The canary endpoint's arguments (an Endpoint's); the Endpoint kind's check validates them. */
  canary: z.record(z.string(), z.unknown()).refine((c) => typeof c["name"] === "string" && c["name"] !== "", "the canary needs a name"),
  cases: casesSchema,
  trigger: z.string().optional(),
});
type CandidateArgs = z.output<typeof candidateArgsSchema>;

/** What the check recorded: the inputs, and what the serving endpoint may now be moved to. */
export interface CandidateOutputs {
  /** The template whose cases passed (the serving endpoint and the switch follow this output). */
  approvedTemplateId: string;
  approvedRevision?: string;
  /** One verdict per case, as JobRunner reports them. */
  results: CaseResult[];
  ranAt: string;
  /** The canary the cases ran on (deleted since). */
  canaryEndpointId?: string;
  history: RolloutStep[];
}

/** Inputs whose change means a new candidate to check. */
const RERUN_KEYS = ["version", "templateId", "templateRevision", "canary", "cases", "trigger"] as const;

export function rolloutCandidateProvider(deps: RolloutDeps): pulumi.dynamic.ResourceProvider {
  const { log } = deps.provider;

  /** Endpoints named like the canary: only an interrupted run leaves one (the rollout owns the name). */
  async function removeLeftovers(args: Pick<CandidateArgs, "rollout" | "version" | "canary">, steps: StepLog): Promise<void> {
    const name = String(args.canary["name"]);
    const leftovers = (await deps.provider.client().endpoints.list()).filter((e) => e.name === name);
    for (const endpoint of leftovers) {
      log.info(`rollout "${args.rollout}": deleting canary endpoint ${endpoint.id}, left by an interrupted rollout`);
      await deps.canaryEndpoints.delete(endpoint.id, { name, readyTimeoutSeconds: args.canary["readyTimeoutSeconds"] });
      steps.add({
        step: "cleanup",
        version: args.version,
        outcome: "done",
        endpointId: endpoint.id,
        detail: "left by an interrupted rollout",
      });
    }
  }

  /** Deletes the canary; a failure is reported, not thrown: the verdict stands and the next run retries by name. */
  async function removeCanary(args: CandidateArgs, id: string, props: Props, steps: StepLog): Promise<void> {
    if (isPlaceholderId(id)) return; // its create's outcome is unknown: the next run finds it by name
    try {
      await deps.canaryEndpoints.delete(id, props);
      steps.add({ step: "cleanup", version: args.version, outcome: "done", endpointId: id });
    } catch (error) {
      log.warn(
        `rollout "${args.rollout}": canary endpoint ${id} could not be deleted (${messageOf(error)}); the next rollout or \`pulumi destroy\` deletes it`,
      );
      steps.add({ step: "cleanup", version: args.version, outcome: "failed", endpointId: id, detail: messageOf(error) });
    }
  }

  async function createCanary(args: CandidateArgs): Promise<pulumi.dynamic.CreateResult> {
    const checked = await deps.canaryEndpoints.check({}, args.canary);
    const failures = checked.failures ?? [];
    if (failures.length > 0) {
      throw new Error(
        `rollout "${args.rollout}": the canary endpoint's settings are not valid: ${failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ")}`,
      );
    }
    return deps.canaryEndpoints.create(checked.inputs ?? args.canary);
  }

  /** One check; `olds` are the last check's recorded inputs (undefined at create), to word a failure by what changed. */
  async function runCandidate(inputs: Props, olds?: Props): Promise<Props> {
    const args = candidateArgsSchema.parse(argsOf(inputs)); // check refused anything invalid; this types it
    const steps = new StepLog(deps.provider.now);
    await removeLeftovers(args, steps);
    let canary: { id: string; props: Props } | undefined;
    let results: CaseResult[] = [];
    let failed: string | undefined;
    try {
      const created = await createCanary(args);
      canary = { id: created.id, props: created.outs ?? {} };
      steps.add({ step: "canary", version: args.version, outcome: "done", endpointId: created.id, templateId: args.templateId });
      log.info(
        `rollout "${args.rollout}": running ${args.cases.length} smoke-test case(s) of version ${args.version} on canary endpoint ${created.id}`,
      );
      results = await runCases(await deps.jobs(), { id: created.id, requestBase: requestBaseOf(canary.props) }, args.cases);
      const passed = results.filter((r) => r.passed).length;
      steps.add({
        step: "candidate",
        version: args.version,
        outcome: passed === results.length ? "passed" : "failed",
        endpointId: created.id,
        detail: `${passed} of ${results.length} case(s) passed`,
      });
      // Read before the canary goes: its workers' logs go with it.
      failed = await failureReport(created.id, results, deps.provider.logs?.());
    } catch (error) {
      // A canary that was created but never became ready is still to be deleted.
      if (error instanceof ResourceInitError) canary = { id: error.id, props: error.properties };
      throw error;
    } finally {
      if (canary) await removeCanary(args, canary.id, canary.props, steps);
    }
    const canaryId = canary?.id ?? "(none)";
    if (failed) {
      const { head, fix } = candidateFailureAdvice(args.rollout, args.version, olds && argsOf(olds), argsOf(inputs));
      throw new Error(`${head}\n${failed}\n${fix}`);
    }
    const outs: CandidateOutputs = {
      approvedTemplateId: args.templateId,
      ...(args.templateRevision !== undefined ? { approvedRevision: args.templateRevision } : {}),
      results,
      ranAt: new Date(deps.provider.now()).toISOString(),
      canaryEndpointId: canaryId,
      history: steps.steps,
    };
    return outputsOf(inputs, outs);
  }

  return {
    async check(_olds: Props, news: Props) {
      return {
        inputs: news,
        failures: [...(deps.connectionFailures?.() ?? []), ...checkComponentArgs(candidateArgsSchema, "EndpointRollout candidate", news)],
      };
    },

    async diff(_id: string, olds: Props, news: Props) {
      const changed = RERUN_KEYS.filter((key) => containsUnknown(news[key]) || !deepEqual(olds[key], news[key]));
      return { changes: changed.length > 0, replaces: [] as string[] };
    },

    async create(inputs: Props) {
      return { id: `candidate-${randomBytes(6).toString("hex")}`, outs: await runCandidate(inputs) };
    },

    async update(_id: string, olds: Props, news: Props) {
      return { outs: await runCandidate(news, olds) };
    },

    // Nothing lives in the service between runs: the verdict is the state.
    async read(id: string, props?: Props) {
      return { id, props: props ?? {} };
    },

    /** Destroy leaves nothing: a canary an interrupted run left behind is deleted too. */
    async delete(_id: string, props: Props) {
      const parsed = candidateArgsSchema.pick({ rollout: true, version: true, canary: true }).safeParse(argsOf(props));
      if (parsed.success) await removeLeftovers(parsed.data, new StepLog(deps.provider.now));
    },
  };
}
