import * as pulumi from "@pulumi/pulumi";
import { RESOURCE_MODULE, RESOURCE_TYPES, OWNER_INPUT } from "../model/kinds";
// Default import of an `export =` module: the shim object itself (module.exports), so a copy
// installed under node_modules serializes as a bare require (see provider/shims/shim.ts).
import templateShim from "../provider/shims/template";
import { RESOURCE_OUTPUTS } from "../model/fields/outputArguments";
import type { TemplateOutputArguments } from "../model/fields/outputArguments";
import { ownerIdentity, registeredProps, withUndeclaredOutputs } from "./props";
import type { ArgumentOutputs } from "./argumentOutputs";

/**
 * Arguments of a {@link Template}: the container settings pods and serverless workers start from.
 * Field names are the service's own. Every field except `category` and `isServerless` is changed
 * in place (endpoints using the template roll out the change); those two replace the template on
 * the v1 API and change in place on v2 (apiUrl ending in /v2). On v2 an endpoint keeps its own copy
 * of the template's settings: an Endpoint given this template's `id` follows its `revision` and
 * re-applies it. "v1 only" marks arguments v2 cannot express (other than their default they fail
 * at preview, naming the fix).
 */
export interface TemplateArgs {
  /**
   * The template's name, unique in the account. Required. Renamed in place. When a replacement keeps
   * the same name, the old template is deleted before the new one is created, which the service
   * refuses while endpoints or pods use it: change the name along with `category` or `isServerless`
   * so the new template is created first and its users move over.
   */
  name: pulumi.Input<string>;
  /** The container image, e.g. `"ghcr.io/acme/worker:1.4.2"`. Required. In place. */
  imageName: pulumi.Input<string>;
  /** `"NVIDIA"` (default), `"AMD"` or `"CPU"`: the compute the template is meant for. Replaces the template (v1); in place (v2). */
  category?: pulumi.Input<"NVIDIA" | "AMD" | "CPU">;
  /** True for a serverless worker template (for endpoints), false (default) for pods. Replaces the template (v1); in place (v2). */
  isServerless?: pulumi.Input<boolean>;
  /** Make a pod template visible to other users. Default false. In place. */
  isPublic?: pulumi.Input<boolean>;
  /** Container disk size, in GB (1 or more); wiped on restart. Default 50. In place. */
  containerDiskInGb?: pulumi.Input<number>;
  /**
   * Pod volume size, in GB (0 for none); kept across restarts. Default 20 (v1), none (v2; there 0
   * or 10 and more). In place; on v2 removing it (back to 0) replaces the template, which the
   * service cannot do in place.
   */
  volumeInGb?: pulumi.Input<number>;
  /** Absolute path where a volume is mounted. Default `"/workspace"`. In place. */
  volumeMountPath?: pulumi.Input<string>;
  /** Id of registry credentials for a private image, e.g. `registryAuth.id`. In place. */
  containerRegistryAuthId?: pulumi.Input<string>;
  /** Overrides the image's ENTRYPOINT, exec form; `[]` (default) keeps the image's. In place. On v2 sent as `entrypoint[]`. */
  dockerEntrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /** Overrides the image's CMD, exec form; `[]` (default) keeps the image's. In place. On v2 sent as `cmd[]`. */
  dockerStartCmd?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * v2: pods made from the template get SSH provisioned (`PUBLIC_KEY` with the account's registered
   * keys) unless they say otherwise. Default true. In place (pods already made keep theirs). On v1
   * `false` fails at preview.
   */
  startSsh?: pulumi.Input<boolean>;
  /** v2: pods made from the template start JupyterLab (`JUPYTER_PASSWORD`). Default true. In place. On v1 `false` fails at preview. */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Environment variables, e.g. `{ MODEL: "llama-3-8b", API_TOKEN: config.requireSecret("token") }`.
   * Only the declared keys are compared, written and read back: keys the platform injects into
   * serverless templates (PORT, PORT_HEALTH) are left alone, and removing a key you declared removes
   * it. Values given as secrets stay secret in state. In place.
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Ports to expose, each `"<port>/http"` or `"<port>/tcp"`. Default `["8888/http", "22/tcp"]`.
   * In place; removing the argument sets the default back.
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /** Markdown shown with the template in the console. Default `""`. In place. v1 only. */
  readme?: pulumi.Input<string>;
  /**
   * Id of an existing template to manage instead of creating one (an alternative to `pulumi import`,
   * which works with the provider plugin only). `category` and `isServerless` must match what is declared; every other
   * declared field is updated. `pulumi destroy` then deletes it unless the resource has the
   * `retainOnDelete` option. Removing `adoptId` later changes nothing; another id replaces the resource.
   */
  adoptId?: pulumi.Input<string>;
}

/** The outputs named like the arguments (each documented on TemplateArgs). */
export interface Template extends ArgumentOutputs<TemplateArgs, Exclude<Extract<keyof TemplateArgs, TemplateOutputArguments>, "name">> {}

/**
 * A template: image, env, ports and disks that pods (`templateId`) and serverless endpoints start
 * from. Ready as soon as it is created. Input-named outputs hold what you declared, as last read back
 * from the service (`env` has the declared keys only).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above declares the argument outputs this class registers (props.ts)
export class Template extends pulumi.dynamic.Resource {
  /** The template's name. */
  declare readonly name: pulumi.Output<string>;

  /**
   * The revision of the container settings on the v2 API (`""` on v1, which rolls template changes
   * out to endpoints by itself). An Endpoint given this template's `id` follows it on its own in
   * TypeScript (with the provider plugin, give it as the Endpoint's `templateRevision`): a new
   * revision re-applies the template to the endpoint.
   */
  declare readonly revision: pulumi.Output<string>;

  constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
    const props = registeredProps(RESOURCE_OUTPUTS.template, args, { [OWNER_INPUT]: ownerIdentity(RESOURCE_TYPES.template, name, opts) });
    super(templateShim, name, props, opts, RESOURCE_MODULE, RESOURCE_TYPES.template);
    withUndeclaredOutputs(this, RESOURCE_OUTPUTS.template, props);
    templateRevisions.set(this.id, this.revision);
  }
}

/** Each Template's `id` output -> its `revision` output, so that an Endpoint given `template.id` follows the revision. */
export const templateRevisions = new WeakMap<object, pulumi.Output<string>>();

/** The revision of the template whose `id` output this is, if it is one. */
export function revisionOfTemplateId(templateId: unknown): pulumi.Output<string> | undefined {
  return typeof templateId === "object" && templateId !== null ? templateRevisions.get(templateId) : undefined;
}
