/**
 * Programs that use the provider plugin (plugin/pulumi-resource-gpucloud of this checkout) instead
 * of the dynamic resources: the Pulumi.yaml settings that point the engine at it, and a small typed
 * wrapper that declares a resource by its type token (`gpucloud:index:Pod`) and reads its outputs,
 * as a generated SDK would.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";

const repoRoot = path.resolve(__dirname, "..", "..");

/** The plugin's directory in this checkout (the launcher runs dist/provider/plugin). */
export const PLUGIN_DIR = path.join(repoRoot, "plugin");

/** Pulumi.yaml settings that make the engine use this checkout's plugin for the gpucloud package. */
export function pluginProjectSettings(dir: string = PLUGIN_DIR): Record<string, unknown> {
  return { plugins: { providers: [{ name: "gpucloud", path: dir }] } };
}

/** A resource the plugin serves, e.g. `new PluginResource("Pod", "trainer", { imageName: "..." })`. */
export class PluginResource extends pulumi.CustomResource {
  constructor(
    type: string,
    name: string,
    args: Record<string, pulumi.Input<unknown>>,
    opts?: pulumi.CustomResourceOptions,
    outputs: readonly string[] = [],
  ) {
    // Outputs are readable only under the names registered: the arguments and those given.
    const props: Record<string, unknown> = Object.fromEntries(outputs.map((key) => [key, undefined]));
    super(`gpucloud:index:${type}`, name, Object.assign(props, args), opts);
  }

  /** The output `key` (registered as an argument or among `outputs`). */
  out<T = unknown>(key: string): pulumi.Output<T> {
    const value = (this as unknown as Record<string, pulumi.Output<T> | undefined>)[key];
    if (!value) throw new Error(`${key} is not an output registered on this resource`);
    return value;
  }
}

/** An explicit provider of the plugin (`pulumi:providers:gpucloud`) with its own settings. */
class PluginProvider extends pulumi.ProviderResource {
  constructor(name: string, settings: Record<string, pulumi.Input<string>>) {
    super("gpucloud", name, settings);
  }
}

export function pluginProvider(name: string, settings: Record<string, pulumi.Input<string>>): pulumi.ProviderResource {
  return new PluginProvider(name, settings);
}

/** A function the plugin serves, e.g. `invoke("getPod", { id })`. */
export function invoke<T = Record<string, unknown>>(
  name: string,
  args: Record<string, pulumi.Input<unknown>>,
  opts?: pulumi.InvokeOutputOptions,
): pulumi.Output<T> {
  return pulumi.runtime.invokeOutput(`gpucloud:index:${name}`, args, opts) as pulumi.Output<T>;
}
