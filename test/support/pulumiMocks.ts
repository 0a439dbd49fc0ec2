/**
 * Pulumi's runtime mocks for SDK unit tests: every resource registered is recorded, and its state
 * is its inputs plus `extraState` (outputs the real provider would add), its id `<name>-id`.
 */
import * as pulumi from "@pulumi/pulumi";

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** Installs the mocks; the returned list fills as resources register. */
export function recordResources(extraState: (name: string, inputs: Record<string, unknown>) => Record<string, unknown>): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
        return { id: `${args.name}-id`, state: { ...args.inputs, ...extraState(args.name, args.inputs as Record<string, unknown>) } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  return registered;
}

/** The value of an Output (known under mocks). */
export async function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}
