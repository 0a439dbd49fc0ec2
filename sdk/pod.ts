import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import podShim from "../provider/shims/pod";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import type { PodOutputArguments } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";
import type { ArgumentOutputs } from "./argumentOutputs";
import type { CostEstimate } from "../model/cost/estimate";
import { declarePriced } from "./costRegistry";

/**
 * Arguments of a {@link Pod}. Field names are the service's own. Fields marked "in place" are
 * changed by an update of the running pod (the service may reset it: the container disk is wiped,
 * the pod volume and network volumes are kept); every other service field can only be set when the
 * pod is created, so changing it replaces the pod (a new pod, new id, new IP). The same holds on
 * both management APIs (apiUrl ending in /v1 or /v2); "v1 only" marks arguments the v2 API cannot
 * express: on v2 giving one (other than its default) fails at preview, naming the fix.
 */
export interface PodArgs {
  /** A name for the pod; need not be unique. Default: the Pulumi resource name. In place. */
  name?: pulumi.Input<string>;
  /**
   * The container image to run, e.g. `"pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime"`. Required
   * unless `templateId` is set (the template's image is used). In place (resets the pod).
   */
  imageName?: pulumi.Input<string>;
  /** `"GPU"` (default) for a GPU pod, `"CPU"` for a CPU-only pod. Replaces the pod. */
  computeType?: pulumi.Input<"GPU" | "CPU">;
  /** `"SECURE"` (default: secure cloud) or `"COMMUNITY"` (community cloud, cheaper). Replaces the pod. */
  cloudType?: pulumi.Input<"SECURE" | "COMMUNITY">;
  /**
   * GPU types acceptable for a GPU pod, in order of preference (see `gpuTypePriority`), e.g.
   * `["NVIDIA GeForce RTX 4090", "NVIDIA L40S"]`. Default: any. Replaces the pod. On v2: exactly one
   * type, required for a GPU pod; an id the service's catalog does not list fails at preview, naming
   * the nearest one (on v1, or when the catalog cannot be read, an id this package does not know is
   * passed on with a warning).
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** `"availability"` (default: whichever listed GPU type is free) or `"custom"` (strictly in list order). Replaces the pod. v1 only. */
  gpuTypePriority?: pulumi.Input<"availability" | "custom">;
  /** Number of GPUs for a GPU pod, 1 or more. Default 1. Replaces the pod. */
  gpuCount?: pulumi.Input<number>;
  /** CUDA versions acceptable on the host, e.g. `["12.4", "12.8"]`. Default: any. Replaces the pod. */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * CPU flavors acceptable for a CPU pod, in order of preference: `"cpu3c"`, `"cpu3g"`, `"cpu3m"`,
   * `"cpu5c"`, `"cpu5g"`, `"cpu5m"`. Replaces the pod. On v2: exactly one, required for a CPU pod.
   */
  cpuFlavorIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** `"availability"` (default) or `"custom"` (strictly in `cpuFlavorIds` order). Replaces the pod. v1 only. */
  cpuFlavorPriority?: pulumi.Input<"availability" | "custom">;
  /** vCPUs of a CPU pod. Default 2 (on v2: a power of two). Replaces the pod. */
  vcpuCount?: pulumi.Input<number>;
  /** Data centers the pod may be placed in, e.g. `["EU-RO-1", "US-TX-3"]`. Default: all. Replaces the pod. */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** `"availability"` (default) or `"custom"` (strictly in `dataCenterIds` order). Replaces the pod. v1 only. */
  dataCenterPriority?: pulumi.Input<"availability" | "custom">;
  /** Two-letter country codes the pod may be placed in, e.g. `["US", "CA"]`. Default: any. Replaces the pod. v1 only. */
  countryCodes?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Rent as an interruptible (spot) pod: cheaper, but may be stopped at any time. Default false.
   * Replaces the pod. The retired v1 API only: the service has no spot pods any more (its v2 API
   * cannot express them, and v1 answers 410 Gone since 2026-11-15), so a program for the live
   * service leaves it out; kept for state and programs written against v1.
   */
  interruptible?: pulumi.Input<boolean>;
  /**
   * Lock the pod: the service then refuses stop and reset. Default false. In place (no reset).
   * The provider lifts the lock for the duration of an update that needs it and locks it again.
   */
  locked?: pulumi.Input<boolean>;
  /**
   * Container disk size, in GB (1 or more). Wiped on every reset. Default 50 (or the template's).
   * In place (resets the pod). Removing the argument later sets it back to 50.
   */
  containerDiskInGb?: pulumi.Input<number>;
  /**
   * Pod volume size, in GB (0 for none); kept across restarts and resets, mounted at
   * `volumeMountPath`. Default 20 on v1, none on v2 (or the template's). In place when resized.
   * Removing the argument sets it back to the default. On v2: 0 or 10 and more, and the mount
   * kind is fixed at create: adding it to a pod created without it, or removing it, replaces the
   * pod (the preview says why).
   */
  volumeInGb?: pulumi.Input<number>;
  /** Absolute path where the pod volume or network volume is mounted. Default `"/workspace"`. In place. */
  volumeMountPath?: pulumi.Input<string>;
  /** Id of a network volume to attach (it replaces the pod volume), e.g. `volume.id`. Replaces the pod. */
  networkVolumeId?: pulumi.Input<string>;
  /** Id of a template whose settings the pod starts from, e.g. `template.id`. Replaces the pod. */
  templateId?: pulumi.Input<string>;
  /**
   * Id of registry credentials for a private image, e.g. `registryAuth.id`. Set it at create:
   * attaching credentials later delays image pulls by minutes. In place.
   */
  containerRegistryAuthId?: pulumi.Input<string>;
  /**
   * Environment variables, e.g. `{ LOG_LEVEL: "info", HF_TOKEN: config.requireSecret("hfToken") }`.
   * Only the keys declared here are compared, written and read back: keys the platform injects
   * (PUBLIC_KEY) are left alone, and removing a key you declared removes it from the pod. Values
   * given as secrets stay secret in state. In place (resets the pod).
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Ports to expose, each `"<port>/http"` or `"<port>/tcp"`. Default `["8888/http", "22/tcp"]` on
   * v1, none on v2 (or the template's). In place (resets the pod). Removing the argument sets the
   * default back (on v2: no ports). On v2 an http port is reached through the service's proxy and
   * gives the pod no public IP; `publicIp` is the address of its tcp ports.
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Overrides the image's ENTRYPOINT, exec form (each item one argument, blanks kept); `[]`
   * (default) keeps the image's. In place (resets the pod). On v2 sent as `entrypoint[]`.
   */
  dockerEntrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Overrides the image's CMD, exec form (each item one argument, blanks kept); `[]` (default)
   * keeps the image's. In place (resets the pod). On v2 sent as `cmd[]`.
   */
  dockerStartCmd?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * v2: provision SSH at create: the service injects `PUBLIC_KEY` with the account's registered
   * SSH keys (see `AccountSshKeys`; with none registered it does nothing, and the create of a pod
   * that declares it or opens `22/tcp` warns: give the pod `dependsOn: [sshKeys]` when the same
   * stack registers them). Default true (the
   * service's own default is false), so a pod exposing `22/tcp` has SSH as on v1; a templated pod
   * that leaves it out takes the template's flag. Replaces the pod (the service never reports it,
   * so a change made outside Pulumi is not seen). On v1 SSH is always provisioned: `false` fails
   * at preview.
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * v2: start JupyterLab at create (the service injects a generated `JUPYTER_PASSWORD` unless `env`
   * sets one; expose `8888/http` to reach it). Default false (a templated pod takes the template's).
   * Replaces the pod. Not on v1 (`true` fails at preview; set `JUPYTER_PASSWORD` in env there).
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Enable global networking (on-demand GPU pods in some secure-cloud data centers). Default false.
   * In place; on v2 it takes effect at the pod's next start, so a running pod is restarted and the
   * readiness wait waits for it.
   */
  globalNetworking?: pulumi.Input<boolean>;
  /**
   * Community cloud only: require a public IP. Without it a community pod may have none (and the
   * readiness wait then does not wait for one). Replaces the pod. v1 only.
   */
  supportPublicIp?: pulumi.Input<boolean>;
  /** Minimum RAM per GPU, in GB. Default 8. Replaces the pod. v1 only. */
  minRAMPerGPU?: pulumi.Input<number>;
  /** Minimum vCPUs per GPU. Default 2. Replaces the pod. v1 only. */
  minVCPUPerGPU?: pulumi.Input<number>;
  /** Minimum disk bandwidth of the host, in MB per second. Default: none. Replaces the pod. v1 only. */
  minDiskBandwidthMBps?: pulumi.Input<number>;
  /** Minimum download speed of the host, in Mbit per second. Default: none. Replaces the pod. v1 only. */
  minDownloadMbps?: pulumi.Input<number>;
  /** Minimum upload speed of the host, in Mbit per second. Default: none. Replaces the pod. v1 only. */
  minUploadMbps?: pulumi.Input<number>;

  // ---- provider arguments (not sent to the service) ----

  /**
   * `"RUNNING"` (default) keeps the pod running: a pod found stopped is started. `"EXITED"` keeps it
   * stopped (no GPU billing; the pod volume is kept): a new pod is stopped right after create, a
   * running one is stopped. Changed in place (on v2 through the pod's start and stop actions).
   */
  desiredStatus?: pulumi.Input<"RUNNING" | "EXITED">;
  /**
   * How long create and update wait for the pod to be ready, in seconds: RUNNING with a public IP
   * and port mappings (or EXITED when `desiredStatus` is `"EXITED"`). Default 600; 0 skips the wait.
   * When the deadline passes the pod stays in the stack (nothing is orphaned) and the operation
   * fails; the next `pulumi up` waits again. Changing only this never updates the pod.
   */
  readyTimeoutSeconds?: pulumi.Input<number>;
  /** Any string; each time it changes (including being set for the first time later), the pod is restarted in place. */
  restartTrigger?: pulumi.Input<string>;
  /**
   * Any string; each time it changes, the pod is reset in place (restarted with a fresh container
   * disk). Takes precedence over `restartTrigger` when both change. v1 only (v2 pods have no reset).
   */
  resetTrigger?: pulumi.Input<string>;
  /**
   * Id of an existing pod to manage instead of creating one (an alternative to `pulumi import`,
   * which works with the provider plugin only). On create the pod is read; fields it cannot change in place must
   * match what is declared (the error names any that differ), the others are updated to the
   * declared values. From then on the pod is managed like any other: `pulumi destroy` deletes it
   * unless the resource has the `retainOnDelete` option. Removing `adoptId` later changes nothing;
   * setting another id replaces the resource.
   */
  adoptId?: pulumi.Input<string>;
}

/** The outputs named like the arguments (each documented on PodArgs). */
export interface Pod extends ArgumentOutputs<PodArgs, Exclude<Extract<keyof PodArgs, PodOutputArguments>, "name">> {}

/**
 * A pod: a container on a rented GPU (or CPU) machine. Create waits until the pod is running with a
 * public IP and port mappings (see `readyTimeoutSeconds`).
 *
 * Input-named outputs (`imageName`, `env`, `ports`, ...) hold what you declared, as last read back
 * from the service; they are undefined for arguments you did not set.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above declares the argument outputs this class registers (props.ts)
export class Pod extends pulumi.dynamic.Resource {
  /** The pod's name. */
  declare readonly name: pulumi.Output<string>;
  /** The pod's status as the service reports it: `"RUNNING"`, `"EXITED"` (stopped) or `"TERMINATED"`. */
  declare readonly desiredStatus: pulumi.Output<string>;
  /** Public IPv4 address; undefined while the pod starts, when stopped, or for community pods without one. */
  declare readonly publicIp: pulumi.Output<string | undefined>;
  /** Internal port -> public port on `publicIp`, e.g. `{ "22": 10341 }`; undefined until the pod is up. */
  declare readonly portMappings: pulumi.Output<Record<string, number> | undefined>;
  /** Cost estimate in USD (see {@link CostEstimate}), known at preview once the arguments it needs are. */
  declare readonly costEstimate: pulumi.Output<CostEstimate | undefined>;
  /** List price of the running pod, in credits (USD) per hour. */
  declare readonly costPerHr: pulumi.Output<number | undefined>;
  /** Effective price per hour after savings plans, in credits (USD). */
  declare readonly adjustedCostPerHr: pulumi.Output<number | undefined>;
  /** Id of the host machine. */
  declare readonly machineId: pulumi.Output<string | undefined>;
  /** The GPU type rented, e.g. `"NVIDIA GeForce RTX 4090"` (GPU pods). */
  declare readonly gpuTypeId: pulumi.Output<string | undefined>;
  /** Short GPU name, e.g. `"RTX 4090"` (GPU pods). */
  declare readonly gpuDisplayName: pulumi.Output<string | undefined>;
  /** The CPU flavor rented (CPU pods). */
  declare readonly cpuFlavorId: pulumi.Output<string | undefined>;
  /** Data center the pod runs in, e.g. `"EU-RO-1"`. */
  declare readonly dataCenterId: pulumi.Output<string | undefined>;
  /** RAM of the pod, in GB. */
  declare readonly memoryInGb: pulumi.Output<number | undefined>;
  /**
   * The CUDA version of the host machine, e.g. `"12.4"` (GPU pods; kept while the pod is stopped, as
   * it resumes on the same host). v2 API only: undefined on v1, and for CPU pods. Read back at every
   * refresh; it never causes a change.
   */
  declare readonly cudaVersion: pulumi.Output<string | undefined>;
  /** When the pod last started (ISO 8601, UTC). */
  declare readonly lastStartedAt: pulumi.Output<string | undefined>;
  /** The service's description of the last lifecycle event. */
  declare readonly lastStatusChange: pulumi.Output<string | undefined>;

  constructor(name: string, args: PodArgs, opts?: pulumi.CustomResourceOptions) {
    const props = registeredProps(RESOURCE_OUTPUTS.pod, args, {
      [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.pod, name, opts),
      name: args.name ?? name,
    });
    super(podShim, name, props, opts, RESOURCE_MODULE, RESOURCE_TYPES.pod);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.pod, props);
    declarePriced({ type: RESOURCE_TYPES.pod, name, resource: this });
  }
}
