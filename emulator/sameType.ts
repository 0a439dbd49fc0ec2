// A compile-time tie between a hand-written type and the one a schema infers (the emulator's own
// copy: it imports nothing from client/). The types `startEmulator` users see are written out by
// hand, so that a user's `tsc` never reads zod's declarations; each is held equal to its schema's
// with `type _Check = Assert<Equals<z.output<typeof Schema>, Type>>`, which fails on any drift.

/** true when A and B are the same type. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given `true`. */
export type Assert<T extends true> = T;
