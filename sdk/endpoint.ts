import type { Integer } from "../client/integer";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import endpointShim from "../provider/shims/endpoint";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import type { EndpointOutputArguments } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";
import type { ArgumentOutputs } from "./argumentOutputs";
import { programApiVersion } from "./connection";
import { revisionOfTemplateId } from "./template";
import type { CostEstimate } from "../model/cost/estimate";
import { declarePriced } from "./costRegistry";

/**
 * Arguments of an {@link Endpoint} (a serverless, queue-based endpoint). Field names are the
 * service's own. Every field except `computeType` and `type` is changed in place; such an update
 * triggers a rolling release of the workers. Changing `computeType` or `type` replaces the endpoint
 * (new id).
 */
export interface EndpointArgs {
  /**
   * Id of the template the workers run (its image, env, disk), e.g. `template.id`. Required to
   * create the endpoint; an endpoint adopted or imported from the v2 API, which does not report its
   * template (v2 copies the template's settings at create), may leave it out. In place.
   */
  templateId?: pulumi.Input<string>;
  /** A name for the endpoint; need not be unique. Default: the Pulumi resource name. In place. */
  name?: pulumi.Input<string>;
  /** `"GPU"` (default) for GPU workers, `"CPU"` for CPU workers. Replaces the endpoint. */
  computeType?: pulumi.Input<"GPU" | "CPU">;
  /**
   * `"QUEUE"` (default): jobs go through `/run` and `/runsync` to a handler. `"LOAD_BALANCER"`:
   * every request to `<serverlessUrl>/<endpointId>/<path>` goes straight to a worker's own HTTP
   * server (env `PORT`, default 80; health checks on `PORT_HEALTH` at `HEALTH_CHECK_PATH`, default
   * `/ping`), with no queue and no retries; it needs `scalerType: "REQUEST_COUNT"`. Fixed at
   * create: a change replaces the endpoint. `"LOAD_BALANCER"` needs the v2 API (apiUrl ending in
   * /v2), where it is the service's own `type`; on the v1 API it fails at preview.
   */
  type?: pulumi.Input<"QUEUE" | "LOAD_BALANCER">;
  /**
   * GPU types acceptable for workers, in order of preference, e.g. `["NVIDIA L4", "NVIDIA A40"]`.
   * In place. On v2 an id the service's catalog does not list fails at preview, naming the nearest
   * one (on v1, or when the catalog cannot be read, an id this package does not know is passed on
   * with a warning). On v2 the types become
   * the catalog's pools they belong to minus the pools' other types (`gpu.pools`, `gpu.excludedTypes`):
   * v2 keeps no order of preference (check warns), and the types are not read back on refresh.
   * Every v2 update restates `pools` and `excludedTypes` together and checks the exclusions read back
   * (the live service dropped them on updates that did not send them).
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** GPUs per worker, 1 or more. Default 1. In place. */
  gpuCount?: pulumi.Input<number>;
  /**
   * CUDA versions acceptable on worker hosts, e.g. `["12.4"]`. Default: any. In place. Excludes
   * `minCudaVersion` on the v2 API (both fail at preview); switching from one to the other clears the old one.
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
  /** Minimum CUDA version on worker hosts, e.g. `"12.4"`. Default: none. In place. Excludes `allowedCudaVersions`. */
  minCudaVersion?: pulumi.Input<string>;
  /**
   * CPU flavors for CPU workers: `"cpu3c"`, `"cpu3g"`, `"cpu5c"`, `"cpu5g"`, in order of preference.
   * Required with `computeType: "CPU"` on the v2 API (an empty list fails at preview). In place.
   */
  cpuFlavorIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** vCPUs per CPU worker. Default 2. In place. */
  vcpuCount?: pulumi.Input<number>;
  /** Data centers workers may run in, e.g. `["EU-RO-1"]`. Default: the service chooses (any). In place. */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Id of a network volume mounted into every worker, e.g. `volume.id`. In place. */
  networkVolumeId?: pulumi.Input<string>;
  /** Ids of network volumes (one per region) for multi-region endpoints. In place. */
  networkVolumeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Workers kept running at all times (billed even when idle, at a lower rate), 0 or more.
   * Default 0. Must not exceed `workersMax`. Create and update wait until this many workers are up.
   * In place.
   */
  workersMin?: pulumi.Input<number>;
  /**
   * Most workers running at once, 0 or more. The service lowers it on endpoints left without
   * requests for days (to 2 after 3 days, to 0 after 7): a refresh shows that as drift and the next
   * `pulumi up` restores it. Unset: the service's default (its reference names none; the emulator
   * and the cost estimate take 3). In place.
   */
  workersMax?: pulumi.Input<number>;
  /**
   * Seconds an idle worker waits for a job before it is scaled down, 1 to 3600. Default 5 (v1), 10
   * (v2; not used by queue endpoints scaling on REQUEST_COUNT there). In place.
   */
  idleTimeout?: pulumi.Input<number>;
  /** Longest a single job may run, in milliseconds, before it is failed. Default: the service's (300000 on v2). In place. */
  executionTimeoutMs?: pulumi.Input<number>;
  /**
   * `"QUEUE_DELAY"` (default: add a worker when a job has waited `scalerValue` seconds) or
   * `"REQUEST_COUNT"` (one worker per `scalerValue` queued jobs, or requests in flight on a
   * load-balancing endpoint). In place.
   */
  scalerType?: pulumi.Input<"QUEUE_DELAY" | "REQUEST_COUNT">;
  /**
   * Parameter of `scalerType`: seconds of queue delay, or jobs (requests) per worker. Default 4. In
   * place. v1: a whole number, 1 or more. v2: for `"QUEUE_DELAY"` any number from 0.5 (seconds), for
   * `"REQUEST_COUNT"` a whole number, 1 or more. A value outside fails at preview.
   */
  scalerValue?: pulumi.Input<number>;
  /**
   * Flash boot (faster cold starts): `true` or `false` (default off), or on the v2 API one of its
   * levels `"OFF"`, `"FLASHBOOT"` (same as `true`) and `"PRIORITY_FLASHBOOT"` (with priority
   * capacity). A level on the v1 API fails at preview. The v1 service ignores `false` on create, so
   * the provider sets it with an update right after creating. In place on both.
   */
  flashboot?: pulumi.Input<boolean | "OFF" | "FLASHBOOT" | "PRIORITY_FLASHBOOT">;

  // ---- provider arguments (not sent to the service) ----

  /**
   * The template's `revision` (v2 API). v2 copies a template's settings into the endpoint when it is
   * created; when the revision changes, the endpoint re-applies `templateId` in place (a new
   * release, rolled out within `readyTimeoutSeconds`). Default in TypeScript: followed
   * automatically when `templateId` is a Template's `id` output; give it for a template id from
   * elsewhere, and always with the provider plugin (`templateRevision: template.revision`). Unused
   * on v1, where template changes reach endpoints by themselves.
   */
  templateRevision?: pulumi.Input<string>;
  /**
   * Who applies a change of `templateId` to the service. `"endpoint"` (default): this resource's
   * update does (a rolling release). `"rollout"`: an EndpointRollout does, with its switch,
   * only after the new version passed its smoke tests (and it moves the endpoint back when a check
   * after the switch fails); this resource then only records `templateId`. Set by EndpointRollout
   * for its serving endpoint; changing it changes nothing by itself.
   */
  templateAppliedBy?: pulumi.Input<"endpoint" | "rollout">;
  /**
   * How long create and update wait for `workersMin` workers to be up, in seconds. Default 600; 0
   * skips the wait. When the deadline passes the endpoint stays in the stack and the operation
   * fails; the next `pulumi up` waits again. Also bounds how long delete waits for workers to stop.
   * Changing only this never updates the endpoint.
   */
  readyTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Id of an existing endpoint to manage instead of creating one (an alternative to `pulumi import`,
   * which works with the provider plugin only). On create the endpoint is read; `computeType` must match what is
   * declared, every other declared field is updated to the declared value. From then on it is
   * managed like any other: `pulumi destroy` deletes it unless the resource has the
   * `retainOnDelete` option. Removing `adoptId` later changes nothing; another id replaces the resource.
   */
  adoptId?: pulumi.Input<string>;
}

/** The outputs named like the arguments (each documented on EndpointArgs). */
export interface Endpoint extends ArgumentOutputs<EndpointArgs, Exclude<Extract<keyof EndpointArgs, EndpointOutputArguments>, "name">> {}

/**
 * A serverless endpoint: a queue of jobs served by autoscaled workers running a template. Jobs are
 * sent to `<serverlessUrl>/<endpointId>/run` (see JobClient). Delete scales the endpoint to 0
 * workers first, then deletes it.
 *
 * Input-named outputs hold what you declared, as last read back from the service; they are
 * undefined for arguments you did not set.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above declares the argument outputs this class registers (props.ts)
export class Endpoint extends pulumi.dynamic.Resource {
  /**
   * The endpoint id as a plain string (the same value as `id`), for building job URLs from the job
   * API base URL of whichever service the stack points at.
   */
  declare readonly endpointId: pulumi.Output<string>;
  /** Release number; the service bumps it whenever the template or settings change (rolling release). */
  declare readonly version: pulumi.Output<Integer | undefined>;
  /** When the endpoint was created (ISO 8601, UTC). */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** The endpoint's name. */
  declare readonly name: pulumi.Output<string>;
  /**
   * v2 API only: where requests go. Queue endpoints: the job API's URLs (`run`, `runSync`, `status`,
   * ...); load-balancing endpoints: `base` (on a per-endpoint host on the live service) and `health`.
   */
  declare readonly requestUrls: pulumi.Output<Record<string, string> | undefined>;
  /** Cost estimate in USD (see {@link CostEstimate}), known at preview once the arguments it needs are. */
  declare readonly costEstimate: pulumi.Output<CostEstimate | undefined>;

  constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
    // On v2, following the template's revision unless one is given (v1 rolls template changes out itself).
    const revision = args.templateRevision ?? (programApiVersion() === "v2" ? revisionOfTemplateId(args.templateId) : undefined);
    const props = registeredProps(RESOURCE_OUTPUTS.endpoint, args, {
      [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.endpoint, name, opts),
      name: args.name ?? name,
      ...(revision !== undefined ? { templateRevision: revision } : {}),
    });
    super(endpointShim, name, props, opts, RESOURCE_MODULE, RESOURCE_TYPES.endpoint);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.endpoint, props);
    declarePriced({ type: RESOURCE_TYPES.endpoint, name, resource: this });
  }
}
