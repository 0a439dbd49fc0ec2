// The generic half of the v2 backend: moving a resource's fields between the provider's names (the
// service's v1 names, which the resources keep) and v2's nested shapes, through the `v2` column of
// the resource's field table. What one field cannot say alone (a pod's GPU-or-CPU choice, an
// endpoint's scaling pair) is composed per kind in backend/v2Backend.ts.

import type { OperationIdV2, RequestOf } from "../../client/operationsV2";
import type { PodV2 } from "../../client/schemasV2";
import type { ResourceTable } from "./fieldTable";
import { isRecord, type Props } from "./values";

/** The value at a dotted path ("gpu.count", "mounts.network.0.volumeId"), or undefined. */
export function getPath(source: unknown, path: string): unknown {
  let at: unknown = source;
  for (const key of path.split(".")) {
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isRecord(at)) at = at[key];
    else return undefined;
  }
  return at === null ? undefined : at;
}

/** Sets a dotted path, creating objects (or arrays, for a numeric segment) on the way. */
export function setPath(target: Props, path: string, value: unknown): void {
  const keys = path.split(".");
  let at: Record<string, unknown> | unknown[] = target;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const slot = Array.isArray(at) ? Number(key) : key;
    const container = at as Record<string | number, unknown>;
    if (last) {
      container[slot] = value;
      return;
    }
    if (!isRecord(container[slot]) && !Array.isArray(container[slot])) container[slot] = /^\d+$/.test(keys[i + 1] ?? "") ? [] : {};
    at = container[slot] as Record<string, unknown> | unknown[];
  });
}

/** A v1-named body (create or update) in v2's shape; fields without a path are left to the kind. */
export function toWireV2<L>(table: Pick<ResourceTable<L>, "fields">, body: Props): Props {
  const out: Props = {};
  for (const [name, value] of Object.entries(body)) {
    const m = table.fields[name]?.v2;
    if (value === undefined || !m || "unsupported" in m || m.path === undefined) continue;
    const wire = m.toWire ? m.toWire(value) : value;
    if (wire !== undefined) setPath(out, m.path, wire);
  }
  return out;
}

/**
 * A body composed through the field tables (toWireV2 plus a kind's composition) as the request type
 * of its operation. The one place a generic body meets the typed wire: the tables' `v2` paths are
 * typed as the dotted paths of these request types (rowsFor, client/wirePathsV2.ts), so a path the
 * reference does not define fails to compile (test/model/fields/wirePaths.types.ts).
 */
export function wireRequest<O extends OperationIdV2>(body: Props): RequestOf<O> {
  return body as RequestOf<O>;
}

/** A v2 object read back under the provider's field names (the rows' `read` or `path`). */
export function fromWireV2<L>(table: Pick<ResourceTable<L>, "fields">, wire: Props): Props {
  const out: Props = { id: wire["id"] };
  for (const [name, row] of Object.entries(table.fields)) {
    const m = row.v2;
    if (!m || "unsupported" in m) continue;
    let value: unknown;
    if (m.read) value = m.read(wire);
    else if (m.path !== undefined) {
      const raw = getPath(wire, m.path);
      value = raw === undefined ? undefined : m.fromWire ? m.fromWire(raw) : raw;
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * v1's argv lists (dockerEntrypoint, dockerStartCmd) travel as v2's exec-form `entrypoint[]` and
 * `cmd[]` as they are: never joined with blanks into `args` and split on read, which would turn
 * `["bash", "-c", "python a.py"]` into four words (reference today 5.1). Answers carry both arrays.
 */
export const COMMAND_V2 = {
  dockerEntrypoint: { path: "entrypoint" },
  dockerStartCmd: { path: "cmd" },
} as const;

/** A one-item v2 field (`gpu.id`) from a v1 list, and back. */
export const firstOf = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
export const listOfOne = (value: unknown): unknown => (typeof value === "string" ? [value] : value);

/** Refuses a list longer than one where v2 takes one item. */
export function atMostOne(what: string): (value: unknown) => string | undefined {
  return (value) =>
    Array.isArray(value) && value.length > 1
      ? `a v2 ${what} takes one type, not a list in priority order; declare one, e.g. [${JSON.stringify(value[0])}]`
      : undefined;
}

/**
 * A CPU configuration's vCPUs on v2 (BaseCpuConfig.vcpuCount, pods and endpoints alike: "integer
 * minimum=2 [...] must be a power of two").
 */
export function vcpuCountRefusal(value: unknown): string | undefined {
  return typeof value === "number" && (value < 2 || !Number.isInteger(value) || (value & (value - 1)) !== 0)
    ? "v2 takes a power of two, 2 or more; set vcpuCount to 2, 4, 8, ..."
    : undefined;
}

/** v2 mounts keep persistent storage of 10 GB or more (0: none). */
export function persistentSizeRefusal(value: unknown): string | undefined {
  return typeof value === "number" && value > 0 && value < 10
    ? "v2 keeps persistent storage of at least 10 GB; set it to 0 (none) or to 10 or more"
    : undefined;
}
export const persistentSizeToWire = (value: unknown): unknown => (value === 0 ? undefined : value);

/**
 * A change of persistent storage (volumeInGb, 0 = none) that v2 cannot make in place. Reference
 * Mounts, PATCH semantics: "Mount kind is fixed at create — a PATCH that introduces a kind not
 * present at create [...] is rejected with 400" and "clearing mounts is not supported". A pod can
 * neither gain persistent storage nor lose it; a template (TemplateMounts: omitting `mounts`
 * leaves it unchanged, no way to clear it) cannot lose it. Resizing is an update.
 */
export function persistentStorageReplacement(noun: "pod" | "template"): (oldValue: unknown, newValue: unknown) => string | undefined {
  return (oldValue, newValue) => {
    const had = typeof oldValue === "number" && oldValue > 0;
    const has = typeof newValue === "number" && newValue > 0;
    if (had && !has)
      return `the v2 API cannot remove a ${noun}'s persistent storage (volumeInGb ${String(oldValue)} -> 0): the ${noun} is replaced`;
    if (!had && has && noun === "pod")
      return `the v2 API fixes a pod's mount kind at create: persistent storage (volumeInGb ${String(newValue)}) on a pod created without it needs a new pod, so it is replaced`;
    return undefined;
  };
}

/** The persistent volume size a v2 object reports (0 when it has none and no network volume). */
export function persistentSizeOf(wire: Props): unknown {
  const size = getPath(wire, "mounts.persistent.size");
  if (size !== undefined) return size;
  return getPath(wire, "mounts.network.0.volumeId") === undefined && isRecord(wire["mounts"]) ? 0 : undefined;
}

/** The mount path a v2 object reports (persistent or network volume). */
export function mountPathOf(wire: Props): unknown {
  return getPath(wire, "mounts.persistent.path") ?? getPath(wire, "mounts.network.0.path");
}

/** Where a v2 mount goes when no path is declared (the service's default mount path). */
const DEFAULT_MOUNT_PATH = "/workspace";

/** Sets `body[object][key]` unless it is set. */
export function setDefault(body: Props, object: string, key: string, value: unknown): void {
  const inner = isRecord(body[object]) ? body[object] : {};
  if (inner[key] === undefined) inner[key] = value;
  body[object] = inner;
}

/**
 * A pod's mounts: a network volume is mounted at volumeMountPath; persistent storage needs its size
 * and path together (an update that changes one takes the other from the live pod).
 */
export function podMounts(body: Props, fields: Props, live: PodV2 | undefined): void {
  const mounts = isRecord(body["mounts"]) ? body["mounts"] : undefined;
  const liveVolume = getPath(live, "mounts.network.0.volumeId");
  if (isRecord(mounts) && Array.isArray(mounts["network"])) {
    mounts["network"] = [{ ...(mounts["network"][0] as Props), path: fields["volumeMountPath"] ?? DEFAULT_MOUNT_PATH }];
    delete mounts["persistent"];
    return;
  }
  if (live && typeof liveVolume === "string" && fields["volumeMountPath"] !== undefined) {
    body["mounts"] = { network: [{ volumeId: liveVolume, path: fields["volumeMountPath"] }] };
    return;
  }
  persistentMount(body, live);
}

/** Persistent storage needs size and path together: fill the missing one from the live object, or drop it. */
export function persistentMount(
  body: Props,
  live: { mounts?: { persistent?: { size?: number | undefined; path?: string | undefined } | undefined } | undefined } | undefined,
): void {
  const mounts = body["mounts"];
  if (!isRecord(mounts) || !isRecord(mounts["persistent"])) return;
  const persistent = mounts["persistent"];
  const size = persistent["size"] ?? live?.mounts?.persistent?.size;
  const path = persistent["path"] ?? live?.mounts?.persistent?.path ?? DEFAULT_MOUNT_PATH;
  if (size === undefined) delete body["mounts"];
  else mounts["persistent"] = { size, path };
}
