/**
 * EndpointRollout: a serving endpoint whose version changes only after smoke tests pass on a canary.
 *
 * Each version of the workers is its own Template (named after the version), so a new version never
 * changes the template the serving endpoint runs. On a change of version, one `pulumi up`:
 *   1. creates the new version's template and moves a canary endpoint (same settings, its own
 *      workers) to it;
 *   2. runs the smoke-test cases against the canary (a JobRunner: jobs on queue endpoints, HTTP
 *      requests on load-balancing ones);
 *   3. only when every case passed, moves the serving endpoint's `templateId` to the new template
 *      (the endpoint's update waits for the rolling release within its `readyTimeoutSeconds`);
 *   4. deletes the previous version's template, which nothing uses any more.
 * When a case fails, the up fails with the job or request, status, error and output excerpt, before
 * the serving endpoint is touched: it keeps its template, its release and its workers.
 *
 * The gate is a data dependency, not an ordering option: the serving endpoint's `templateId` is
 * derived from the JobRunner's results, which exist only once the cases passed.
 */
import * as pulumi from "@pulumi/pulumi";
import { createHash } from "node:crypto";
import { Endpoint, type EndpointArgs } from "./endpoint";
import { JobRunner, type JobRunnerCase, type JobRunnerCaseResult } from "./jobRunner";
import { programApiVersion } from "./connection";
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
export type RolloutEndpointArgs = Omit<EndpointArgs, "templateId" | "templateRevision" | "adoptId">;

export interface EndpointRolloutArgs {
  /** The version wanted: the worker template's settings (image, env, disk...). */
  template: RolloutTemplateArgs;
  /**
   * Names the version (letters, digits, `.`, `_`, `-`; at most 40 characters), e.g. `"2.1.0"`. It
   * names the template, so change it whenever the template settings change. Default: a digest of
   * the template settings, which then must be plain values (not Outputs). Settings changed under
   * the same version: on v2 they update that version's template in place, gated like a new version
   * (the serving endpoint follows the template's revision through the gate); on v1, where endpoints
   * run their template's current settings, the up fails (template name taken) before anything
   * serving changes, except when a setting is an Output: then the change is not gated. Keep the
   * default, or change `version` with the settings.
   */
  version?: string;
  /** The serving endpoint's settings. The canary copies them except its worker counts. */
  endpoint: RolloutEndpointArgs;
  /** The smoke-test cases (as JobRunner takes them); at least one. They run against the canary. */
  cases: pulumi.Input<JobRunnerCase[]>;
  /** The canary endpoint, which runs the candidate version while the cases run. */
  canary?: {
    /**
     * Workers the canary keeps running, so the cases meet a warm worker. Default 0: the cases pay
     * one cold start, and the canary costs nothing while idle between rollouts.
     */
    workersMin?: pulumi.Input<number>;
    /** Most workers the canary runs. Default 1. */
    workersMax?: pulumi.Input<number>;
  };
  /** Any value; when it changes, the cases run again against the canary even if nothing else changed. */
  trigger?: pulumi.Input<string>;
}

const VERSION_PATTERN = /^[A-Za-z0-9._-]{1,40}$/;

export class EndpointRollout extends pulumi.ComponentResource {
  /** The serving endpoint (the one clients send jobs to). */
  readonly endpoint: Endpoint;
  /** The canary endpoint: same settings, `canary` worker counts, always on the newest version tried. */
  readonly canary: Endpoint;
  /** The template of the version this rollout declares. */
  readonly template: Template;
  /** The version declared (given or derived). */
  readonly version: string;
  /** The serving endpoint's id. */
  declare readonly endpointId: pulumi.Output<string>;
  /** The template the serving endpoint runs: the declared version's, once its cases passed. */
  declare readonly servingTemplateId: pulumi.Output<string>;
  /** The canary endpoint's id. */
  declare readonly canaryEndpointId: pulumi.Output<string>;
  /** The candidate's verdicts, one per case, as JobRunner exports them. */
  declare readonly candidateResults: pulumi.Output<JobRunnerCaseResult[]>;

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
    this.canary = new Endpoint(
      `${name}-canary`,
      {
        ...args.endpoint,
        name: pulumi.interpolate`${servingName}-canary`,
        templateId: this.template.id,
        workersMin: args.canary?.workersMin ?? 0,
        workersMax: args.canary?.workersMax ?? 1,
      },
      { parent: this },
    );
    const gate = new JobRunner(
      `${name}-gate`,
      { endpoint: this.canary, template: this.template, cases: args.cases, ...(args.trigger !== undefined ? { trigger: args.trigger } : {}) },
      { parent: this },
    );
    // Resolves only once the gate's cases passed; a failed case leaves it unresolved, so the
    // serving endpoint is never registered with the new template in that up.
    const approved = (value: pulumi.Output<string>): pulumi.Output<string> => pulumi.all([gate.results, value]).apply(([, v]) => v);
    this.endpoint = new Endpoint(
      name,
      {
        ...args.endpoint,
        name: servingName,
        templateId: approved(this.template.id),
        // On v2 an endpoint holds a copy of its template's settings; the revision makes it re-apply them.
        ...(programApiVersion() === "v2" ? { templateRevision: approved(this.template.revision) } : {}),
      },
      { parent: this, dependsOn: [gate] },
    );
    this.endpointId = this.endpoint.id;
    this.servingTemplateId = this.endpoint.templateId;
    this.canaryEndpointId = this.canary.id;
    this.candidateResults = gate.results;
    this.registerOutputs({
      endpointId: this.endpointId,
      servingTemplateId: this.servingTemplateId,
      canaryEndpointId: this.canaryEndpointId,
      candidateResults: this.candidateResults,
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
  return `v${createHash("sha256").update(plainJson(name, "template", settings)).digest("hex").slice(0, 10)}`;
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
