// The dotted paths into a v2 request or answer type ("gpu.count", "mounts.network.0.volumeId"), as a
// union of string literal types: the field tables type each row's v2 wire path with the paths of its
// operations' bodies and answers, so that a path the reference does not define fails to compile.

import type { OperationIdV2, RequestOf, ResponseOf } from "./operationsV2";

/** The keys a type names, without an index signature (the answers' loose objects pass unknown keys through). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: true } & string;

/** Recursion stops at this depth (the deepest wire path has four segments). */
type Depth = [never, 0, 1, 2, 3, 4, 5];

type PathsOf<T, D extends number> = [D] extends [never]
  ? never
  : T extends string | number | boolean | bigint | symbol | null | undefined
    ? never
    : T extends readonly (infer Item)[]
      ? `${number}` | `${number}.${PathsOf<NonNullable<Item>, Depth[D]>}`
      : T extends object
        ? { [K in NamedKeys<T>]: K | `${K}.${PathsOf<NonNullable<T[K]>, Depth[D]>}` }[NamedKeys<T>]
        : never;

/**
 * Every dotted path into T: its named fields, their fields, and list items by index. A map with an
 * index signature only (`env`, `requestUrls`) is a leaf: its keys are data, not field names.
 */
export type WirePathV2<T> = PathsOf<NonNullable<T>, 6>;

/** The paths a body of one of these operations may carry (each operation's own, then their union). */
export type SentPathV2<O extends OperationIdV2> = O extends OperationIdV2 ? WirePathV2<RequestOf<O>> : never;

/** The paths an answer of this operation reports (the reference's names as the answer schemas spell them). */
export type AnswerPathV2<O extends OperationIdV2> = O extends OperationIdV2 ? WirePathV2<ResponseOf<O>> : never;
