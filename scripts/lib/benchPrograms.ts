/**
 * The programs scripts/bench-provider.ts measures, shared with the child process of its
 * fresh-process mode (scripts/bench-provider-op.ts), which must declare exactly the same resources:
 * the endpoints stack (this package's dynamic resources, installed from `npm pack`), the plugin
 * stack (the same endpoints through the typed classes over the provider plugin,
 * `pulumi-gpucloud/plugin` of the same install), the bare floor of no-op dynamic resources, and the
 * property-equivalent floor of no-op resources carrying an endpoint's state.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as automation from "@pulumi/pulumi/automation";

// ---------------------------------------------------------------- the floor: a no-op dynamic resource

interface NoopInputs {
  name: string;
  templateId: string;
  workersMin: number;
  workersMax: number;
  gpuTypeIds: string[];
}

/** Everything a dynamic provider must do, and nothing more: create echoes, diff says "no changes". */
const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: NoopInputs) {
    return { id: `noop-${inputs.name}`, outs: inputs };
  },
  async diff() {
    return { changes: false };
  },
};

// ---------------------------------------------------------------- a no-op resource shaped like an endpoint

type Props = Record<string, unknown>;

/** What an endpoint recorded in state, for the shaped floor: its inputs and outputs, minus the provider. */
export interface Shape {
  inputs: Props;
  outputs: Props;
}

/** The shaped stack's provider process reads the recorded outputs here (set in its stack's env). */
export const SHAPE_ENV = "BENCH_ENDPOINT_OUTPUTS";

/**
 * Creates return the recorded outputs with the inputs given on top; diff says "no changes". The
 * outputs come from the provider process's env: as an input they would double what each resource
 * carries, and captured in this closure they would be serialized into every resource's provider.
 */
const shapedProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Props) {
    const recorded = JSON.parse(process.env[SHAPE_ENV] ?? "{}") as Props;
    return { id: `shaped-${String(inputs["name"])}`, outs: { ...recorded, ...inputs } };
  },
  async diff() {
    return { changes: false };
  },
};

/**
 * The floors' resource classes, defined on first use with this checkout's @pulumi/pulumi: the
 * endpoints program runs on the packed install's own copy, and a fresh process running it must not
 * load this one as well (that would add a second SDK's load to the endpoints' side only).
 */
function floorClasses(): {
  Noop: new (name: string, args: NoopInputs) => pulumi.CustomResource;
  Shaped: new (name: string, shape: Shape, templateId: pulumi.Input<string>) => pulumi.CustomResource;
} {
  const sdkOfCheckout = require("@pulumi/pulumi") as typeof pulumi;
  class Noop extends sdkOfCheckout.dynamic.Resource {
    constructor(name: string, args: NoopInputs) {
      super(noopProvider, name, { ...args }, {}, "bench", "Noop");
    }
  }
  class Shaped extends sdkOfCheckout.dynamic.Resource {
    constructor(name: string, shape: Shape, templateId: pulumi.Input<string>) {
      // The outputs that are not inputs are registered as undefined, as the resource classes do.
      const outputsOnly = Object.fromEntries(
        Object.keys(shape.outputs)
          .filter((k) => !(k in shape.inputs))
          .map((k) => [k, undefined]),
      );
      super(shapedProvider, name, { ...outputsOnly, ...shape.inputs, name, templateId }, {}, "bench", "Shaped");
    }
  }
  return { Noop, Shaped };
}

/** One endpoint's recorded inputs and outputs, without the provider text. */
export function shapeOf(deployment: unknown): Shape {
  const resources =
    (deployment as { deployment?: { resources?: Array<{ type: string; inputs?: Props; outputs?: Props }> } }).deployment?.resources ?? [];
  const endpoint = resources.find((r) => r.type.endsWith(":Endpoint"));
  if (!endpoint?.inputs || !endpoint.outputs) throw new Error("bench: no endpoint in the endpoints stack's state");
  const strip = ({ __provider: _provider, ...rest }: Props): Props => rest;
  return { inputs: strip(endpoint.inputs), outputs: strip(endpoint.outputs) };
}

/** Which of the benchmark's stacks a program declares. */
export type BenchProgram = "endpoints" | "plugin" | "floor" | "shaped";

/** The two stacks of endpoints: the dynamic resources, and the typed classes over the plugin. */
export const ENDPOINT_PROGRAMS: readonly BenchProgram[] = ["endpoints", "plugin"];

/** What the endpoints programs declare with: the package's classes, or the typed classes over the plugin. */
export interface EndpointClasses {
  Template: new (name: string, args: { name: string; imageName: string; isServerless: boolean }) => { id: pulumi.Output<string> };
  Endpoint: new (
    name: string,
    args: { templateId: pulumi.Input<string>; gpuTypeIds: string[]; workersMin: number; workersMax: number },
  ) => unknown;
}

/** The module an endpoints program's classes come from, in the installed package. */
export function moduleOf(which: BenchProgram): string {
  return which === "plugin" ? "pulumi-gpucloud/plugin" : "pulumi-gpucloud";
}

/** The program of one stack: `count` endpoints (+1 template), `count` no-ops, or `count` shaped no-ops (+1). */
export function benchProgram(which: BenchProgram, count: number, installed?: EndpointClasses, shape?: Shape): () => Promise<void> {
  if (ENDPOINT_PROGRAMS.includes(which)) {
    if (!installed) throw new Error(`bench: the ${which} program needs the installed package's classes`);
    const { Endpoint, Template } = installed;
    // Template names are unique in an account, and both stacks run on one.
    const templateName = which === "plugin" ? "bench-worker-plugin" : "bench-worker";
    return async () => {
      const template = new Template("worker", { name: templateName, imageName: "ghcr.io/acme/worker:1", isServerless: true });
      for (let i = 0; i < count; i++)
        new Endpoint(`ep-${i}`, { templateId: template.id, gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 3 });
    };
  }
  const { Noop, Shaped } = floorClasses();
  if (which === "floor") {
    return async () => {
      for (let i = 0; i < count; i++)
        new Noop(`noop-${i}`, { name: `noop-${i}`, templateId: "tpl", workersMin: 0, workersMax: 3, gpuTypeIds: ["NVIDIA L4"] });
    };
  }
  if (!shape) throw new Error("bench: the shaped program needs an endpoint's recorded shape");
  return async () => {
    const first = new Noop("first", { name: "first", templateId: "tpl", workersMin: 0, workersMax: 0, gpuTypeIds: [] });
    for (let i = 0; i < count; i++) new Shaped(`shaped-${i}`, shape, first.id);
  };
}

/** Everything that opens one stack's workspace; plain data, so a child process opens the same one (--fresh). */
export interface StackSpec {
  name: string;
  workDir: string;
  stateDir: string;
  homeDir: string;
  /** The root of the Pulumi CLI installation (the parent of its bin directory). */
  cliRoot: string;
  envVars: Record<string, string>;
  /** The packed install's project (the endpoints stacks); absent: this checkout's node_modules. */
  projectDir?: string;
  /** The provider plugin's directory the project names in Pulumi.yaml (the plugin stack). */
  pluginDir?: string;
}

/** Opens (creating if need be) the stack a spec names, with `program` as its inline program. */
export async function stackOf(
  spec: StackSpec,
  program: automation.PulumiFn,
  using: Pick<typeof automation, "LocalWorkspace" | "PulumiCommand">,
): Promise<automation.Stack> {
  const { LocalWorkspace, PulumiCommand } = using;
  return LocalWorkspace.createOrSelectStack(
    { projectName: `bench-${spec.name}`, stackName: "bench", program },
    {
      workDir: spec.workDir,
      pulumiHome: spec.homeDir,
      pulumiCommand: await PulumiCommand.get({ root: spec.cliRoot }),
      envVars: spec.envVars,
      projectSettings: {
        name: `bench-${spec.name}`,
        runtime: "nodejs",
        backend: { url: `file://${spec.stateDir}` },
        // Pulumi.yaml's `plugins` is not in the automation API's ProjectSettings type; it passes through to the file.
        ...(spec.pluginDir ? ({ plugins: { providers: [{ name: "gpucloud", path: spec.pluginDir }] } } as object) : {}),
      },
    },
  );
}
