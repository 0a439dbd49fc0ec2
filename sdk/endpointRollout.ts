/**
 * EndpointRollout: a serving endpoint whose version changes only after smoke tests pass on a
 * candidate, and optionally goes back by itself when they fail after the switch.
 *
 * Each version of the workers is its own Template (named after the version), so a new version never
 * changes what the serving endpoint runs by itself. On a change of version, one `pulumi up`:
 *   1. creates the new version's template;
 *   2. the candidate check (a dynamic resource) creates a canary endpoint on it, runs the cases
 *      there (jobs on queue endpoints, HTTP requests on load-balancing ones) and deletes the canary;
 *   3. only when every case passed, the switch (a dynamic resource) moves the serving endpoint's
 *      `templateId` to the new template and waits until every worker runs it;
 *   4. with `verifyAfterSwitch`, the switch runs the cases again on the serving endpoint, and a
 *      failure moves it back to the previous version and fails the up;
 *   5. the engine deletes the previous version's template at the end of the up.
 * When a candidate case fails, the up fails with the job or request, status, error and output
 * excerpt, before the serving endpoint is touched: it keeps its template, its release and its workers.
 *
 * The gate is a data dependency, not an ordering option: the serving endpoint and the switch take
 * the candidate check's `approvedTemplateId`, which exists only once its cases passed.
 */
import * as pulumi from "@pulumi/pulumi";
import { createHash } from "node:crypto";
import { RESOURCE_MODULE, ROLLOUT_CANDIDATE_TYPE, ROLLOUT_SWITCH_TYPE } from "../model/kinds";
import rolloutCandidateShim from "../provider/shims/rolloutCandidate";
import rolloutSwitchShim from "../provider/shims/rolloutSwitch";
import type { RolloutStep } from "../model/components/rolloutStep";
import { programApiVersion } from "./connection";
import { Endpoint, type EndpointArgs } from "./endpoint";
import type { JobRunnerCase, JobRunnerCaseResult } from "./jobRunner";
import { Template, type TemplateArgs } from "./template";

/** The settings of one version of the workers: a Template's arguments; `name` is derived. */
export type RolloutTemplateArgs = Omit<TemplateArgs, "name" | "adoptId"> & {
  /**
   * Start of the template's name; the version is appended (`<name>-<version>`), since each version
   * is its own template and template names are unique in the account. Default: the rollout's name.
   */
  name?: string;
};

/** The serving endpoint's settings: an Endpoint's arguments except its template, which the rollout sets. */
export type RolloutEndpointArgs = Omit<EndpointArgs, "templateId" | "templateRevision" | "templateAppliedBy" | "adoptId">;

/** One step of a rollout, as the `history` output lists them (see model/components/rolloutStep.ts). */
export type EndpointRolloutStep = RolloutStep;

export interface EndpointRolloutArgs {
  /** The version wanted: the worker template's settings (image, env, disk...). */
  template: RolloutTemplateArgs;
  /**
   * Names the version (letters, digits, `.`, `_`, `-`; at most 40 characters), e.g. `"2.1.0"`. It
   * names the template, so change it whenever the template settings change. Default: a digest of
   * the template settings, which then must be plain values (not Outputs). Settings changed under
   * the same version: on v2 they update that version's template in place, gated like a new version
   * (but with nothing to go back to: the template keeps no copy of its earlier settings); on v1,
   * where endpoints run their template's current settings, the up fails (template name taken)
   * before anything serving changes, except when a setting is an Output: then the change is not
   * gated. Keep the default, or change `version` with the settings.
   */
  version?: string;
  /**
   * The serving endpoint's settings. The canary copies them except its name (`<name>-canary`) and
   * worker counts. Changes of these settings other than the worker counts run the candidate check again.
   */
  endpoint: RolloutEndpointArgs;
  /**
   * The smoke-test cases (as JobRunner takes them: jobs for queue endpoints, HTTP requests for
   * load-balancing ones); at least one. They run against the canary, and with `verifyAfterSwitch`
   * against the serving endpoint too.
   */
  cases: pulumi.Input<JobRunnerCase[]>;
  /**
   * The canary endpoint, which runs the candidate version while its cases run. It is created for
   * each candidate check and deleted after it: an endpoint named `<name>-canary` belongs to the
   * rollout, and one that an interrupted `up` left behind is deleted by the next check or `destroy`.
   */
  canary?: {
    /**
     * Workers the canary starts with, so that the cases meet a warm worker. Default 0: the cases
     * pay one cold start.
     */
    workersMin?: pulumi.Input<number>;
    /** Most workers the canary runs. Default 1. */
    workersMax?: pulumi.Input<number>;
  };
  /**
   * After the switch (and once every worker runs the new version), run the cases again against the
   * serving endpoint; if one fails, move the endpoint back to the previous version, wait until every
   * worker runs that again, and fail the up naming both. Default false. The checks then hit the
   * serving endpoint's real workers, beside its traffic.
   */
  verifyAfterSwitch?: boolean;
  /** Any value; when it changes, the candidate check runs again even if nothing else changed. */
  trigger?: pulumi.Input<string>;
}

const VERSION_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

/** The candidate check: its create and update run the cases on a canary (provider/rollout/candidate.ts). */
class RolloutCandidate extends pulumi.dynamic.Resource {
  declare readonly approvedTemplateId: pulumi.Output<string>;
  declare readonly approvedRevision: pulumi.Output<string | undefined>;
  declare readonly results: pulumi.Output<JobRunnerCaseResult[]>;
  declare readonly history: pulumi.Output<RolloutStep[]>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts: pulumi.CustomResourceOptions) {
    super(
      rolloutCandidateShim,
      name,
      { ...props, approvedTemplateId: undefined, approvedRevision: undefined, results: undefined, history: undefined },
      opts,
      RESOURCE_MODULE,
      ROLLOUT_CANDIDATE_TYPE,
    );
  }
}

/** The switch: owns which version the serving endpoint runs (provider/rollout/switch.ts). */
class RolloutSwitch extends pulumi.dynamic.Resource {
  declare readonly servingVersion: pulumi.Output<string>;
  declare readonly servingTemplateId: pulumi.Output<string>;
  declare readonly verifyResults: pulumi.Output<JobRunnerCaseResult[]>;
  declare readonly history: pulumi.Output<RolloutStep[]>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts: pulumi.CustomResourceOptions) {
    super(
      rolloutSwitchShim,
      name,
      { ...props, servingVersion: undefined, servingTemplateId: undefined, verifyResults: undefined, history: undefined },
      opts,
      RESOURCE_MODULE,
      ROLLOUT_SWITCH_TYPE,
    );
  }
}

export class EndpointRollout extends pulumi.ComponentResource {
  /** The serving endpoint (the one clients send jobs to). */
  readonly endpoint: Endpoint;
  /** The template of the version this rollout declares. */
  readonly template: Template;
  /** The version declared (given or derived). */
  readonly version: string;
  /** The serving endpoint's id. */
  declare readonly endpointId: pulumi.Output<string>;
  /** The version the serving endpoint runs: the declared one once it passed its checks. */
  declare readonly servingVersion: pulumi.Output<string>;
  /** The template the serving endpoint runs. */
  declare readonly servingTemplateId: pulumi.Output<string>;
  /** The candidate check's verdicts, one per case, as JobRunner reports them. */
  declare readonly candidateResults: pulumi.Output<JobRunnerCaseResult[]>;
  /** The verdicts of the cases run on the serving endpoint after the switch (empty without `verifyAfterSwitch`). */
  declare readonly verifyResults: pulumi.Output<JobRunnerCaseResult[]>;
  /**
   * The steps of the last candidate check and the last switch, oldest first: the canary made and
   * deleted, the cases' verdict, the switch, the rollout to every worker, the check after it.
   * A failed `up` records nothing here: its error says what happened.
   */
  declare readonly history: pulumi.Output<RolloutStep[]>;

  constructor(name: string, args: EndpointRolloutArgs, opts: pulumi.ComponentResourceOptions = {}) {
    super("gpucloud:index:EndpointRollout", name, {}, opts);
    const version = args.version ?? digestOf(name, args.template);
    if (!VERSION_PATTERN.test(version)) {
      throw new Error(
        `EndpointRollout ${name}: version ${JSON.stringify(version)} is not valid; use 1 to 40 letters, digits, ".", "_" or "-" (e.g. "2.1.0")`,
      );
    }
    this.version = version;
    const { name: templateBase, ...templateSettings } = args.template;
    this.template = new Template(
      templateResourceName(name, version, args),
      { ...templateSettings, name: `${templateBase ?? name}-${version}` },
      { parent: this },
    );
    const servingName = args.endpoint.name ?? name;
    const candidate = new RolloutCandidate(
      `${name}-candidate`,
      {
        rollout: name,
        version,
        templateId: this.template.id,
        templateRevision: this.template.revision,
        canary: {
          ...args.endpoint,
          name: pulumi.interpolate`${servingName}-canary`,
          templateId: this.template.id,
          workersMin: args.canary?.workersMin ?? 0,
          workersMax: args.canary?.workersMax ?? 1,
        },
        cases: args.cases,
        ...(args.trigger !== undefined ? { trigger: args.trigger } : {}),
      },
      { parent: this },
    );
    this.endpoint = new Endpoint(
      name,
      { ...args.endpoint, name: servingName, templateId: candidate.approvedTemplateId, templateAppliedBy: "rollout" },
      { parent: this },
    );
    const switcher = new RolloutSwitch(
      `${name}-switch`,
      {
        rollout: name,
        endpointId: this.endpoint.id,
        version,
        templateId: candidate.approvedTemplateId,
        templateRevision: candidate.approvedRevision,
        // v2 only: v1 endpoints have none, and an output the provider never returns is unknown at preview.
        ...(programApiVersion() === "v2" ? { requestBase: this.endpoint.requestUrls.apply((urls) => urls?.["base"]) } : {}),
        cases: args.cases,
        verifyAfterSwitch: args.verifyAfterSwitch ?? false,
        ...(args.endpoint.workersMin !== undefined ? { workersMin: args.endpoint.workersMin } : {}),
        ...(args.endpoint.readyTimeoutSeconds !== undefined ? { readyTimeoutSeconds: args.endpoint.readyTimeoutSeconds } : {}),
      },
      { parent: this },
    );
    this.endpointId = this.endpoint.id;
    this.servingVersion = switcher.servingVersion;
    this.servingTemplateId = switcher.servingTemplateId;
    this.candidateResults = candidate.results;
    this.verifyResults = switcher.verifyResults;
    this.history = pulumi
      .all([candidate.history, switcher.history])
      .apply(([a, b]) => [...(a ?? []), ...(b ?? [])].sort((x, y) => x.at.localeCompare(y.at)));
    this.registerOutputs({
      endpointId: this.endpointId,
      servingVersion: this.servingVersion,
      servingTemplateId: this.servingTemplateId,
      candidateResults: this.candidateResults,
      verifyResults: this.verifyResults,
      history: this.history,
    });
  }
}

/**
 * The Pulumi name of a version's template. On v1 an endpoint runs its template's current settings,
 * so an in-place change of the serving version's template would reach it ungated. With an explicit
 * version and plain settings, v1 names the resource after the settings too: changed settings are a
 * new resource whose create fails (the template name is taken) before anything serving changes.
 */
function templateResourceName(name: string, version: string, args: EndpointRolloutArgs): string {
  if (programApiVersion() !== "v1" || args.version === undefined) return `${name}-${version}`;
  let settings: string;
  try {
    settings = digestOf(name, args.template);
  } catch {
    return `${name}-${version}`; // Outputs in the settings: documented on `version`
  }
  return `${name}-${version}-${settings}`;
}

/** A version name from the template settings, so that any change of them is a new version. */
function digestOf(name: string, settings: RolloutTemplateArgs): string {
  return `v${createHash("sha256")
    .update(plainJson(name, "template", settings))
    .digest("hex")
    .slice(0, 10)}`;
}

/**
 * JSON of plain settings. An Output cannot be read at construction (and JSON.stringify would turn it
 * into its toJSON warning text, the same for every value), so it is refused with the fix.
 */
function plainJson(name: string, path: string, value: unknown): string {
  if (pulumi.Output.isInstance(value) || value instanceof Promise) {
    throw new Error(
      `EndpointRollout ${name}: ${path} is an Output, so no version can be derived from the settings; give \`version\` (e.g. "2.1.0") and change it with the settings`,
    );
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => plainJson(name, `${path}.${i}`, item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${plainJson(name, `${path}.${k}`, (value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
