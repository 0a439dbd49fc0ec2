// Every resource describes its fields in one table: one row per field, holding everything the
// provider knows about it. The argument schema, the diff policy, the create body, the update body,
// refresh and adoption are all computed from the rows (provider/resources: diffEngine.ts,
// declared.ts, updates.ts, lifecycle.ts); nothing about a field is written twice.
//
// A row says:
// - its validator (a zod schema from validation.ts), for arguments;
// - what a change does: `update` (the service changes it in place), `replace` (only settable at
//   create: a new resource), `ignore` (never causes an update); `local` marks a provider-only
//   argument, never sent to the service; `output` rows are values the service computes;
// - its default (what the service assumes when absent), or the value to reset it to;
// - how it is read back from the live object (`observe`);
// - its wire mapping per API version beyond v1 (`v2`), whose v1 wire name is the field's own.

import { z } from "zod";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { num, str } from "./validation";
import { deepEqual, isUnknown, type Json, type Props } from "./values";

/**
 * - update: the service's update operation can change the field in place.
 * - replace: only settable at create; a change means a new resource.
 * - ignore: provider-side settings that never cause an update (e.g. the readiness deadline).
 * - serverManaged: an output the service computes; never compared.
 */
export type FieldKind = "update" | "replace" | "ignore" | "serverManaged";

export interface DiffContext {
  /** The resource's id (diff and update know it). */
  id?: string | undefined;
}

/**
 * Where a field travels on the v2 management API, for a backend that speaks it: a dotted path into
 * v2's nested body (`"gpu.count"`, `"workers.min"`, `"mounts.persistent.size"`; a number picks a
 * list item), with converters where the value's shape differs (v1 `dockerStartCmd: string[]` -> v2
 * `args: string`), `read` for a value derived from the whole v2 object (a pod's `publicIp` from
 * `runtime.ports`), the change kind or default where v2 differs from v1 (a template's `category`
 * is updatable on v2), and `refuse` for values v2 cannot take (one GPU type per pod). A field v2
 * cannot express at all names the fix instead (`unsupported`), so check refuses it at preview.
 * `path` absent with `read` present: the field is reported but sent through another one.
 *
 * `P` is the paths the row may name: the tables give the dotted paths of their operations' typed
 * request bodies (client/requestsV2.ts) for the arguments and of the typed answer for the outputs
 * (client/wirePathsV2.ts), so a path the reference does not define fails to compile.
 */
export type WireMapping<P extends string = string> =
  | {
      readonly path?: P;
      readonly toWire?: (value: unknown) => unknown;
      readonly fromWire?: (value: unknown) => unknown;
      readonly read?: (wire: Props) => unknown;
      readonly kind?: FieldKind;
      readonly default?: Json;
      /** The value an update sends when the declared field is removed, where v2's differs from v1's. */
      readonly resetTo?: Json;
      readonly refuse?: (value: unknown) => string | undefined;
      /**
       * The argument's validator on v2, where v2's bounds differ from v1's (the row's own `arg` is
       * v1's): check on a v2 stack quotes v2's bounds, on a v1 stack v1's. The same kind of value.
       */
      readonly arg?: z.ZodType;
      /** A change of this update field that v2 cannot make in place: the reason, and it is a replacement. */
      readonly replaceIf?: (oldValue: unknown, newValue: unknown) => string | undefined;
    }
  | { readonly unsupported: string };

/** The management API versions the provider speaks (picked by the ending of apiUrl). */
export type Backend = "v1" | "v2";

export interface FieldRow<L = unknown> {
  readonly kind: FieldKind;
  /** The argument's validator (absent on outputs). */
  readonly arg?: z.ZodType;
  /**
   * What the service uses when the field is not given (the reference's default). An absent field
   * and this value compare equal, and removing a declared field sends this value on update.
   * Without a default, removing an update field leaves the live value as it is (check warns).
   */
  readonly default?: Json;
  /**
   * The value sent on update when the user removes a declared field, for fields whose absent
   * value is not a fixed default (a pod's disk sizes come from its template when it has one), so
   * that newly declaring a value is always applied rather than assumed equal to a default.
   */
  readonly resetTo?: Json;
  /**
   * Env-map semantics: only keys the user declared are compared, written and read back; keys the
   * platform injects (PUBLIC_KEY, PORT, ...) are left alone.
   */
  readonly envMap?: boolean;
  /**
   * For an env map: the keys the platform adds itself (a pod's PUBLIC_KEY, a serverless template's
   * PORT). A program does not declare them, so an import leaves them out of the arguments it reports.
   */
  readonly injectedKeys?: readonly string[];
  /** A list whose order the service does not keep (compared as a multiset). */
  readonly unordered?: boolean;
  /** Replaces the equality test (e.g. adoptId compares with the resource id). */
  readonly same?: (oldValue: unknown, newValue: unknown, ctx: DiffContext) => boolean;
  /** Reads the field from the live object; undefined when the service does not report it. */
  readonly observe?: (live: L) => unknown;
  /**
   * For a list of acceptable options the service picks one from (a pod's `gpuTypeIds`,
   * `cpuFlavorIds`, `dataCenterIds`): the one it picked, as the live object reports it. The list
   * itself is never reported, so refresh keeps what was declared; adoption checks that the pick is
   * one of the declared options.
   */
  readonly chosen?: (live: L) => unknown;
  /** The output always carries the live value, declared or not (e.g. a pod's desiredStatus). */
  readonly alwaysObserved?: boolean;
  /**
   * The value may be a secret (passwords, env values): it is never printed, and a check failure
   * names no property (the engine would print the property's value next to the reason).
   */
  readonly sensitive?: boolean;
  /** A provider-side argument (deadline, trigger, desired state): never sent to the service as a field. */
  readonly local?: boolean;
  /** The field on the v2 management API (see WireMapping); v1 uses the field's own name. */
  readonly v2?: WireMapping;
  /** A setting only the v2 API has: never sent on v1 (v1Refuse says what v1 does instead). */
  readonly v2Only?: boolean;
  /** Refuses values the v1 API cannot take (v2-only settings): the reason and the fix. */
  readonly v1Refuse?: (value: unknown) => string | undefined;
  /**
   * For an update field: a change the service cannot make in place (old and new values as the
   * diff compares them, defaults applied) returns the reason, and the change is a replacement.
   */
  readonly replaceIf?: (oldValue: unknown, newValue: unknown) => string | undefined;
}

/** A row the service's create input takes: changed in place or by replacement, never provider-only. */
export type ServiceRow<L> = FieldRow<L> & { readonly kind: "update" | "replace"; readonly arg: z.ZodType; readonly local?: false };

export interface CrossCheckResult {
  /** Rules across fields: said only once every field is valid in itself. */
  failures: CheckFailure[];
  warnings: string[];
  /**
   * Rules that read no other field's value (an argument required only to create): said with the
   * fields' own failures, so one preview names every mistake.
   */
  standalone?: CheckFailure[];
}

export interface ResourceTable<L = unknown, Args = unknown> {
  /** Noun used in messages: "pod", "endpoint", ... */
  readonly noun: string;
  readonly fields: Readonly<Record<string, FieldRow<L>>>;
  /**
   * Fields holding a name the service keeps unique: a replacement that keeps the same value must
   * delete the old resource first, or the create would collide with it.
   */
  readonly deleteBeforeReplaceWhenSame?: readonly string[];
  /** Those names are unique without regard to case: a change of case alone also deletes first. */
  readonly uniqueNamesIgnoreCase?: boolean;
  /**
   * Those names are unique on the v1 API only: v2 keeps no uniqueness of them, so there a
   * replacement creates the new resource first (and its users move before the old one is deleted).
   */
  readonly uniqueNamesOnV1Only?: boolean;
  /** zod object of the arguments, computed from the rows. */
  readonly schema: z.ZodObject;
  /** Rules across fields or against the previous inputs (e.g. a volume may only grow). */
  readonly crossCheck?: (args: Props, olds: Props, backend?: Backend) => CrossCheckResult;
  /** Only for the type parameter. */
  readonly _args?: Args;
}

type Options<L, P extends string> = Omit<FieldRow<L>, "kind" | "arg" | "local" | "v2"> & { readonly v2?: WireMapping<P> };

/**
 * The row constructors, typed by the live object L that `observe` reads, the v2 wire paths an
 * argument may be sent under (`Sent`: the paths of the resource's create and update bodies) and
 * those an output may be read from (`Read`: the paths of its answer). No defaults: a table states
 * which operations its rows travel in (e.g. `SentPathV2<"createPod" | "updatePod">`).
 */
export function rowsFor<L, Sent extends string, Read extends string>() {
  return {
    /** Changed in place by the service's update operation. */
    update: <S extends z.ZodType>(arg: S, options: Options<L, Sent> = {}) => ({ kind: "update" as const, arg, ...options }),
    /** Only settable at create: a change replaces the resource. */
    replace: <S extends z.ZodType>(arg: S, options: Options<L, Sent> = {}) => ({ kind: "replace" as const, arg, ...options }),
    /** A provider-only argument: `kind` says whether a change runs an update, a replacement, or nothing (never sent: its v2 path, if any, is read from the answer). */
    local: <S extends z.ZodType>(kind: "update" | "replace" | "ignore", arg: S, options: Options<L, Read> = {}) => ({
      kind,
      arg,
      local: true as const,
      ...options,
    }),
    /** A value the service computes and reports. */
    output: (observe: (live: L) => unknown, options: { readonly v2?: WireMapping<Read> } = {}) => ({
      kind: "serverManaged" as const,
      observe,
      ...options,
    }),
  };
}

/** The zod shape of the rows that take an argument. */
type ShapeOf<Rows> = {
  [K in keyof Rows as Rows[K] extends { arg: z.ZodType } ? K : never]: Rows[K] extends { arg: infer S extends z.ZodType } ? S : never;
};
/** The argument names a resource registers as outputs: every row's but the provider-only ones'. */
export type OutputArgumentKeys<Rows> = { [K in keyof Rows]: Rows[K] extends { readonly local: true } ? never : K }[keyof Rows];
/** The parsed arguments of a table's rows. */
export type ArgsOf<Rows> = ShapeOf<Rows> extends infer S extends z.core.$ZodShape ? z.output<z.ZodObject<S>> : never;

/**
 * Builds a resource's table. `Create` is the service's create input: the compiler rejects a table
 * that misses one of its fields, or declares one of them provider-only or as an output.
 */
export function defineTable<Create, L>() {
  return <Rows extends Record<string, FieldRow<L>>>(def: {
    noun: string;
    rows: Rows & { readonly [K in keyof Required<Create>]: ServiceRow<L> };
    deleteBeforeReplaceWhenSame?: readonly (keyof Rows & string)[];
    uniqueNamesIgnoreCase?: boolean;
    uniqueNamesOnV1Only?: boolean;
    crossCheck?: (args: Props, olds: Props, backend?: Backend) => CrossCheckResult;
  }): ResourceTable<L, ArgsOf<Rows>> => {
    return {
      noun: def.noun,
      fields: def.rows,
      schema: argumentSchemaOf(def.rows),
      ...(def.deleteBeforeReplaceWhenSame ? { deleteBeforeReplaceWhenSame: def.deleteBeforeReplaceWhenSame } : {}),
      ...(def.uniqueNamesIgnoreCase ? { uniqueNamesIgnoreCase: true } : {}),
      ...(def.uniqueNamesOnV1Only ? { uniqueNamesOnV1Only: true } : {}),
      ...(def.crossCheck ? { crossCheck: def.crossCheck } : {}),
    };
  };
}

/** The zod object of the rows that take an argument. */
function argumentSchemaOf(rows: Readonly<Record<string, FieldRow<never>>>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, row] of Object.entries(rows)) if (row.arg) shape[name] = row.arg;
  return z.object(shape);
}

/**
 * The table as one backend sees it. v1: settings only v2 has are never sent (check refuses them).
 * v2: the rows' change kinds, defaults and argument bounds where v2 differs, and each mapped field read back under
 * its own name (the v2 backend hands the lifecycle objects in the provider's field names).
 * Computed once per table and backend.
 */
export function tableForBackend<L, Args>(table: ResourceTable<L, Args>, backend: Backend): ResourceTable<L, Args> {
  const cache = backend === "v1" ? v1Tables : v2Tables;
  const cached = cache.get(table);
  if (cached) return cached as ResourceTable<L, Args>;
  const fields: Record<string, FieldRow<L>> = {};
  for (const [name, row] of Object.entries(table.fields)) {
    const m = row.v2;
    if (backend === "v1") fields[name] = row.v2Only ? { ...row, local: true } : row;
    else if (!m || "unsupported" in m) fields[name] = row;
    else {
      fields[name] = {
        ...row,
        ...(m.kind ? { kind: m.kind } : {}),
        ...(m.default !== undefined ? { default: m.default } : {}),
        ...(m.resetTo !== undefined ? { resetTo: m.resetTo } : {}),
        ...(m.replaceIf ? { replaceIf: m.replaceIf } : {}),
        ...(m.arg && row.arg ? { arg: m.arg } : {}),
        ...(m.read || m.path !== undefined ? { observe: (live: L) => (live as Props)[name] } : {}),
      };
    }
  }
  const { deleteBeforeReplaceWhenSame, ...rest } = table;
  const keepsOrder = backend === "v1" || table.uniqueNamesOnV1Only !== true;
  const derived = {
    ...rest,
    ...(deleteBeforeReplaceWhenSame && keepsOrder ? { deleteBeforeReplaceWhenSame } : {}),
    fields,
    schema: argumentSchemaOf(fields),
  };
  cache.set(table, derived);
  return derived;
}
const v1Tables = new WeakMap<object, ResourceTable<never, unknown>>();
const v2Tables = new WeakMap<object, ResourceTable<never, unknown>>();

/** A value that asks for nothing the service would have to do: absent, the default, off or empty. */
function asksForNothing(value: unknown, row: FieldRow<unknown>): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    (Array.isArray(value) && value.length === 0) ||
    deepEqual(value, row.default)
  );
}

/**
 * Arguments the backend's API cannot express, as check failures naming the field, the value and
 * the fix (preview refuses them rather than the service, or worse, silently ignoring them).
 */
export function backendFailures<L>(table: Pick<ResourceTable<L>, "fields" | "noun">, args: Props, backend: Backend): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const [name, row] of Object.entries(table.fields)) {
    const value = args[name];
    if (value === undefined || isUnknown(value)) continue;
    const shown = row.sensitive ? "the value given" : JSON.stringify(value);
    let reason: string | undefined;
    if (backend === "v1") reason = row.v1Refuse?.(value);
    else if (row.v2 && "unsupported" in row.v2)
      reason = asksForNothing(value, row as FieldRow<unknown>)
        ? undefined
        : `the service's v2 API has no equivalent; ${row.v2.unsupported}`;
    else reason = row.v2?.refuse?.(value);
    if (reason !== undefined)
      failures.push({
        property: name,
        reason: `${name}: ${shown} cannot be used with the ${backend} API (apiUrl ends in /${backend}): ${reason}`,
      });
  }
  return failures;
}

/** Fields the user can set (everything but server-managed outputs). */
export function inputFields<L>(table: Pick<ResourceTable<L>, "fields">): string[] {
  return Object.entries(table.fields)
    .filter(([, p]) => p.kind !== "serverManaged")
    .map(([name]) => name);
}

export function fieldsOfKind<L>(table: Pick<ResourceTable<L>, "fields">, kind: FieldKind): string[] {
  return Object.entries(table.fields)
    .filter(([, p]) => p.kind === kind)
    .map(([name]) => name);
}

/** Fields sent to the service: what the create body is made of. */
export function serviceFields<L>(table: Pick<ResourceTable<L>, "fields">): string[] {
  return Object.entries(table.fields)
    .filter(([, p]) => (p.kind === "update" || p.kind === "replace") && !p.local)
    .map(([name]) => name);
}

/** Arguments whose values may be secrets. */
export function sensitiveFields<L>(table: Pick<ResourceTable<L>, "fields">): string[] {
  return Object.entries(table.fields)
    .filter(([, p]) => p.sensitive)
    .map(([name]) => name);
}

/**
 * The names a resource class registers as outputs: every service field (an undeclared one stays
 * undefined), every output the service computes, and provider arguments read back from the service.
 */
export function outputNames<L>(table: Pick<ResourceTable<L>, "fields">): string[] {
  return Object.entries(table.fields)
    .filter(([, p]) => !p.local || p.alwaysObserved)
    .map(([name]) => name);
}

/** The create body: the declared service fields of the checked arguments. */
export function createBodyOf<L, Args>(table: ResourceTable<L, Args>, args: Args): Props {
  const source = args as Props;
  const body: Props = {};
  for (const name of serviceFields(table)) if (source[name] !== undefined && source[name] !== null) body[name] = source[name];
  return body;
}

/** A provider-side trigger: any new value (including a first one) asks for the action; removing it does not. */
export function triggerSame(oldValue: unknown, newValue: unknown): boolean {
  return newValue === undefined || newValue === null || newValue === oldValue;
}

/**
 * adoptId: removing it after adoption changes nothing (the resource is already managed); setting it
 * to the id the resource already has changes nothing; any other id means a different resource.
 */
export function adoptIdSame(oldValue: unknown, newValue: unknown, ctx: DiffContext): boolean {
  if (newValue === undefined || newValue === null) return true;
  return newValue === oldValue || (ctx.id !== undefined && newValue === ctx.id);
}

// ---- provider arguments shared by several resources -------------------------------------------

/** Default readiness deadline of pods and endpoints, in seconds. */
export const DEFAULT_READY_TIMEOUT_SECONDS = 600;

/** The readiness deadline never causes an update: it only matters while an operation runs. */
export const readyTimeoutSecondsRow = {
  kind: "ignore" as const,
  local: true as const,
  arg: num({ min: 0, max: 86_400, unit: "seconds", integer: false, example: "600" }).optional(),
};

/** Changing which existing resource to adopt is a different resource; removing adoptId is nothing. */
export const adoptIdRow = {
  kind: "replace" as const,
  local: true as const,
  same: adoptIdSame,
  arg: str({ nonEmpty: true, example: '"abc123xyz"' }).optional(),
};

export function readyTimeoutOf(value: number | undefined): number {
  return value ?? DEFAULT_READY_TIMEOUT_SECONDS;
}
