// A create (or update) that reached the service but whose resource did not become ready must not
// lose track of the resource. The dynamic provider host turns an error carrying `id` into
// ErrorResourceInitFailed (see @pulumi/pulumi/cmd/dynamic-provider: grpcResponseFromError reads
// e.id, e.properties and e.reasons), and the engine then keeps the resource in state with these
// properties: the next `pulumi up` updates it instead of creating a second one.

import type { Props } from "./values";

export class ResourceInitError extends Error {
  readonly id: string;
  /** The outputs to record; include `__provider` from the inputs or later operations lose the provider. */
  readonly properties: Props;
  readonly reasons: string[];

  constructor(id: string, properties: Props, reason: string) {
    super(reason);
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}
Object.defineProperty(ResourceInitError.prototype, "name", { value: "ResourceInitError", writable: true, configurable: true });

/** The outputs with the inputs' `__provider` carried over. */
export function withProvider(outputs: Props, inputs: Props): Props {
  return inputs["__provider"] === undefined ? outputs : { ...outputs, __provider: inputs["__provider"] };
}
