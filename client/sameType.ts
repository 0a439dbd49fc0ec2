// A compile-time tie between a hand-written type and the one a schema infers. The public
// declarations (what `tsc` of a user's project reads) must not name zod's types, so each type a user
// can reach is written out by hand beside its schema's file and held equal to the schema's here:
// `type _Check = Assert<Equals<z.output<typeof schema>, Interface>>` fails compilation on any drift.

/** true when A and B are the same type (mutually assignable and alike in optionality/readonly). */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given `true`. */
export type Assert<T extends true> = T;
