/**
 * The switch of an EndpointRollout: the dynamic resource that owns which version the serving
 * endpoint runs. It runs after the candidate check passed (it follows the check's
 * `approvedTemplateId`), and on a new version:
 *   1. moves the serving endpoint's `templateId` to the new version's template (a rolling release);
 *   2. waits until every worker runs it (v2: the releases' rollout summary; v1: each worker's
 *      `slsVersion` against the endpoint's `version`), with `workersMin` of them up;
 *   3. with `verifyAfterSwitch`, runs the cases again against the serving endpoint; a failure moves
 *      it back to the previous version, waits until every worker runs that again, and fails the up.
 * Its state says what is serving, so it is true after a rollback too: the failed switch is recorded
 * as a partial update (the engine retries a resource with such errors on the next `up`). The
 * Endpoint resource itself only records `templateId` (`templateAppliedBy: "rollout"`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { argsOf, checkComponentArgs, outputsOf } from "../componentArgs";
import { waitForEndpoint } from "../resources/endpointReadiness";
import { readyTimeoutOf } from "../../model/fields/fieldTable";
import { ResourceInitError } from "../resources/partialCreate";
import { containsUnknown, deepEqual, isUnknown, messageOf, type Props } from "../../model/fields/values";
import { ReadinessTimeoutError } from "../resources/waitFor";
import { casesSchema } from "../smoke/caseSchema";
import { failureReport } from "../smoke/report";
import type { CaseResult } from "../../model/components/caseResult";
import { requestBaseOf, runCases } from "../smoke/runCases";
import type { RolloutDeps } from "./deps";
import type { RolloutStep } from "../../model/components/rolloutStep";
import { StepLog } from "./steps";

const switchArgsSchema = z.object({
  /** The EndpointRollout's name, for messages. */
  rollout: z.string().min(1),
  endpointId: z.string().min(1, "endpointId must not be empty"),
  version: z.string().min(1),
  /** The template whose candidate check passed: the version the serving endpoint must run. */
  templateId: z.string().min(1, "templateId must not be empty"),
  /** v2: the approved template's revision; a new one re-applies the template (a new release). */
  templateRevision: z.string().optional(),
  /** The serving endpoint's v2 `requestUrls.base` (HTTP cases go there); state of 0.2.0 holds the whole map (requestBaseOf). */
  requestBase: z.string().min(1, "requestBase must not be empty").optional(),
  cases: casesSchema,
  verifyAfterSwitch: z.boolean().optional(),
  workersMin: z.number().int().min(0).optional(),
  readyTimeoutSeconds: z.number().min(0).optional(),
});
type SwitchArgs = z.output<typeof switchArgsSchema>;

/** A version as the serving endpoint runs it. */
interface Version {
  version: string;
  templateId: string;
  revision?: string | undefined;
}

/** What the switch records besides its inputs. */
export interface SwitchOutputs {
  /** The endpoint this state describes (a replaced endpoint starts over). */
  servingEndpointId: string;
  servingVersion: string;
  servingTemplateId: string;
  servingRevision?: string;
  /**
   * False while the serving version is not known to be rolled out and verified (a wait that timed
   * out, a rollback that failed): the next up finishes the job.
   */
  settled: boolean;
  /** The version served before this one: where a rollback goes. */
  previousVersion?: string;
  previousTemplateId?: string;
  previousRevision?: string;
  /** The verdicts of the cases run against the serving endpoint after the switch. */
  verifyResults: CaseResult[];
  history: RolloutStep[];
}

const INPUT_KEYS = Object.keys(switchArgsSchema.shape);

/** An input as the last up recorded it, in today's shape (a 0.2.0 state names the whole requestUrls map). */
function recorded(olds: Props, key: string): unknown {
  return key === "requestBase" ? requestBaseOf(olds) : olds[key];
}

function servingOf(olds: Props): Version | undefined {
  const templateId = olds["servingTemplateId"];
  if (typeof templateId !== "string") return undefined;
  const revision = olds["servingRevision"];
  return { version: String(olds["servingVersion"] ?? "?"), templateId, ...(typeof revision === "string" ? { revision } : {}) };
}

function previousOf(olds: Props): Version | undefined {
  const templateId = olds["previousTemplateId"];
  if (typeof templateId !== "string") return undefined;
  const revision = olds["previousRevision"];
  return { version: String(olds["previousVersion"] ?? "?"), templateId, ...(typeof revision === "string" ? { revision } : {}) };
}

const targetOf = (args: SwitchArgs): Version => ({ version: args.version, templateId: args.templateId, revision: args.templateRevision });

/** The same template at the same revision (a new revision must be applied again). */
function sameVersion(a: Version | undefined, b: Version): boolean {
  return a !== undefined && a.templateId === b.templateId && (a.revision ?? "") === (b.revision ?? "");
}

export function rolloutSwitchProvider(deps: RolloutDeps): pulumi.dynamic.ResourceProvider {
  const { log } = deps.provider;

  /** One run of the switch: the steps it took and what it found serving. */
  class Run {
    readonly steps = new StepLog(deps.provider.now);
    verifyResults: CaseResult[] = [];
    readonly subject: string;

    constructor(
      readonly id: string,
      readonly args: SwitchArgs,
      readonly inputs: Props,
    ) {
      this.subject = `rollout "${args.rollout}"`;
    }

    outputs(serving: Version, settled: boolean, previous: Version | undefined): Props {
      const outs: SwitchOutputs = {
        servingEndpointId: this.args.endpointId,
        servingVersion: serving.version,
        servingTemplateId: serving.templateId,
        ...(serving.revision !== undefined ? { servingRevision: serving.revision } : {}),
        settled,
        ...(previous ? { previousVersion: previous.version, previousTemplateId: previous.templateId } : {}),
        ...(previous?.revision !== undefined ? { previousRevision: previous.revision } : {}),
        verifyResults: this.verifyResults,
        history: this.steps.steps,
      };
      return outputsOf(this.inputs, outs);
    }

    /** A failure to record: the state says what serves now, and the engine retries the next up. */
    failed(serving: Version, settled: boolean, previous: Version | undefined, message: string): ResourceInitError {
      return new ResourceInitError(this.id, this.outputs(serving, settled, previous), `${this.subject}: ${message}`);
    }

    async move(from: Version | undefined, to: Version, kind: "switch" | "rollback"): Promise<void> {
      const why = kind === "switch" ? "after its candidate check passed" : "because it failed its check after the switch";
      log.info(
        `${this.subject}: moving endpoint ${this.args.endpointId} ${from ? `from version ${from.version} ` : ""}to version ${to.version} (template ${to.templateId}) ${why}: a rolling release`,
      );
      await deps.provider.client().endpoints.update(this.args.endpointId, { templateId: to.templateId });
      this.steps.add({ step: kind, version: to.version, outcome: "done", endpointId: this.args.endpointId, templateId: to.templateId });
    }

    /** Waits until every worker runs the endpoint's latest release and workersMin of them are up. */
    async rolledOut(version: Version): Promise<void> {
      const endpoint = await waitForEndpoint(
        deps.provider,
        this.args.endpointId,
        `${this.subject}: endpoint ${this.args.endpointId}`,
        this.args.workersMin ?? 0,
        readyTimeoutOf(this.args.readyTimeoutSeconds),
        { rollout: true },
      );
      const workers = endpoint.workers?.length;
      this.steps.add({
        step: "rolledOut",
        version: version.version,
        outcome: "done",
        endpointId: this.args.endpointId,
        ...(workers !== undefined ? { detail: `${workers} worker(s) up` } : {}),
      });
    }

    /** The cases against the serving endpoint: the failure message, or undefined when they passed. */
    async verify(version: Version): Promise<string | undefined> {
      log.info(
        `${this.subject}: running ${this.args.cases.length} smoke-test case(s) against the serving endpoint ${this.args.endpointId} on version ${version.version}`,
      );
      this.verifyResults = await runCases(
        await deps.jobs(),
        { id: this.args.endpointId, requestBase: this.args.requestBase },
        this.args.cases,
      );
      const passed = this.verifyResults.filter((r) => r.passed).length;
      const failure = await failureReport(this.args.endpointId, this.verifyResults, deps.provider.logs?.());
      this.steps.add({
        step: "verify",
        version: version.version,
        outcome: failure ? "failed" : "passed",
        endpointId: this.args.endpointId,
        detail: `${passed} of ${this.verifyResults.length} case(s) passed`,
      });
      return failure;
    }

    /**
     * Rolled out and (when asked) verified; on a failed verification, back to `previous`. Throws
     * a partial-update error naming what serves afterwards when anything failed. `noPrevious` says
     * why there is nowhere to go back to, when there is not.
     */
    async settle(
      serving: Version,
      previous: Version | undefined,
      noPrevious = "there is no previous version to go back to",
    ): Promise<Props> {
      try {
        await this.rolledOut(serving);
      } catch (error) {
        if (!(error instanceof ReadinessTimeoutError)) throw this.failed(serving, false, previous, messageOf(error));
        throw this.failed(
          serving,
          false,
          previous,
          `${messageOf(error)} The endpoint runs version ${serving.version}; the next \`pulumi up\` keeps waiting${this.args.verifyAfterSwitch ? " and then verifies it" : ""}.`,
        );
      }
      let failure: string | undefined;
      try {
        failure = this.args.verifyAfterSwitch ? await this.verify(serving) : undefined;
      } catch (error) {
        // The cases could not run (the job API unreachable): nothing is known, nothing is moved.
        throw this.failed(
          serving,
          false,
          previous,
          `the check after the switch to version ${serving.version} could not run: ${messageOf(error)}. The endpoint runs version ${serving.version}; the next \`pulumi up\` checks it again.`,
        );
      }
      if (failure === undefined) return this.outputs(serving, true, previous);
      if (previous === undefined) {
        throw this.failed(
          serving,
          false,
          undefined,
          `version ${serving.version} failed its check on the serving endpoint after the switch, and ${noPrevious}.\n${failure}`,
        );
      }
      try {
        await this.move(serving, previous, "rollback");
        await this.rolledOut(previous);
      } catch (error) {
        throw this.failed(
          serving,
          false,
          previous,
          `version ${serving.version} failed its check on the serving endpoint after the switch, and moving back to version ${previous.version} failed: ${messageOf(error)}. ` +
            `The endpoint may still run version ${serving.version}; the next \`pulumi up\` tries again.\n${failure}`,
        );
      }
      throw this.failed(
        previous,
        true,
        undefined,
        `version ${serving.version} failed its check on the serving endpoint after the switch, so the endpoint was moved back to version ${previous.version} ` +
          `(template ${previous.templateId}), which every worker runs again.\n${failure}\nFix version ${serving.version} and run \`pulumi up\` again, or declare version ${previous.version} again.`,
      );
    }
  }

  /** A first switch run: the endpoint was created on the approved template (or adopted). */
  async function start(id: string, args: SwitchArgs, inputs: Props): Promise<Props> {
    const run = new Run(id, args, inputs);
    const target = targetOf(args);
    // v1 reports which template an endpoint runs: an adopted or older endpoint may run another one.
    const live = await deps.provider.client().endpoints.get(args.endpointId);
    if (live.templateId !== undefined && live.templateId !== target.templateId) {
      const before: Version = { version: "(before the rollout)", templateId: live.templateId };
      await run.move(before, target, "switch");
      return run.settle(target, before);
    }
    run.steps.add({
      step: "switch",
      version: target.version,
      outcome: "done",
      endpointId: args.endpointId,
      templateId: target.templateId,
      detail: "created on this version",
    });
    return args.verifyAfterSwitch ? run.settle(target, undefined) : run.outputs(target, true, undefined);
  }

  async function advance(id: string, olds: Props, args: SwitchArgs, inputs: Props): Promise<Props> {
    const serving = servingOf(olds);
    // A replaced serving endpoint is created on the approved template: it starts over.
    if (serving === undefined || olds["servingEndpointId"] !== args.endpointId) return start(id, args, inputs);
    const target = targetOf(args);
    const run = new Run(id, args, inputs);
    if (!sameVersion(serving, target)) {
      await run.move(serving, target, "switch");
      // A template changed in place (same version, v2) keeps no copy of its earlier settings.
      if (serving.templateId === target.templateId) {
        return run.settle(
          target,
          undefined,
          `version ${target.version}'s template was changed in place, which keeps no copy of its earlier settings to go back to (declare a new version to keep one)`,
        );
      }
      return run.settle(target, serving);
    }
    // An earlier run left it unsettled (a wait ran out, a rollback failed): finish it.
    if (olds["settled"] === false) return run.settle(serving, previousOf(olds));
    return run.outputs(serving, true, previousOf(olds));
  }

  return {
    async check(_olds: Props, news: Props) {
      return {
        inputs: news,
        failures: [...(deps.connectionFailures?.() ?? []), ...checkComponentArgs(switchArgsSchema, "EndpointRollout switch", news)],
      };
    },

    async diff(_id: string, olds: Props, news: Props) {
      const serving = servingOf(olds);
      const moves =
        isUnknown(news["templateId"]) ||
        isUnknown(news["templateRevision"]) ||
        olds["servingEndpointId"] !== news["endpointId"] ||
        !sameVersion(serving, {
          version: String(news["version"]),
          templateId: String(news["templateId"]),
          revision: news["templateRevision"] as string | undefined,
        });
      if (moves && typeof news["version"] === "string" && !isUnknown(news["version"]) && serving) {
        // What the up will do to the serving endpoint: said at every preview, not only with gpucloud:verbose.
        (log.notice ?? log.info)(
          `rollout "${String(news["rollout"])}": version ${news["version"]} (serving: ${serving.version}) is checked on a canary first, then the serving endpoint is moved to it` +
            `${news["verifyAfterSwitch"] === true ? " and checked again, going back to the previous version if a case fails" : ""}`,
        );
      }
      const changed = INPUT_KEYS.some((key) => containsUnknown(news[key]) || !deepEqual(recorded(olds, key), news[key]));
      return { changes: moves || changed || olds["settled"] === false, replaces: [] as string[] };
    },

    async create(inputs: Props) {
      const id = `switch-${randomBytes(6).toString("hex")}`;
      return { id, outs: await start(id, switchArgsSchema.parse(argsOf(inputs)), inputs) };
    },

    async update(id: string, olds: Props, news: Props) {
      return { outs: await advance(id, olds, switchArgsSchema.parse(argsOf(news)), news) };
    },

    // What serves is what the last run left; the endpoint itself is read by its own resource.
    async read(id: string, props?: Props) {
      return { id, props: props ?? {} };
    },

    // The endpoint is deleted by its own resource; the switch holds nothing in the service.
    async delete() {},
  };
}
