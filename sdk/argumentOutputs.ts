// Kept apart from props.ts, which reads the field tables: this type is named by the resource classes'
// public declarations, and must not pull the tables' zod types into a user's type check.
import type * as pulumi from "@pulumi/pulumi";

/**
 * The outputs named like a resource's arguments (`Keys`: those its field table registers), typed
 * from the Args interface so that each carries the argument's own doc comment: what was declared,
 * as last read back from the service; undefined for an optional argument that was not set. A
 * resource class merges them in with `interface Pod extends ArgumentOutputs<...> {}`, so adding an
 * argument is one field-table row plus one documented Args property.
 */
export type ArgumentOutputs<Args, Keys extends keyof Args> = {
  readonly [K in Keys]-?: pulumi.Output<
    // biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<Args, K>` is how a type asks whether K is optional
    {} extends Pick<Args, K> ? pulumi.Unwrap<NonNullable<Args[K]>> | undefined : pulumi.Unwrap<Args[K]>
  >;
};
