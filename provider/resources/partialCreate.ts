// A create (or update) that reached the service but whose resource did not become ready must not
// lose track of the resource. The dynamic provider host turns an error carrying `id` into
// ErrorResourceInitFailed (see @pulumi/pulumi/cmd/dynamic-provider: grpcResponseFromError reads
// e.id, e.properties and e.reasons), and the engine then keeps the resource in state with these
// properties: the next `pulumi up` updates it instead of creating a second one.
//
// The same mechanism records a create whose OUTCOME is unknown (see ambiguous.ts): the answer was
// lost and the lookup that should have told whether the service acted could not reach it either.
// Failing plainly would leave nothing in state, and the next run would create the resource a second
// time. So the doubt itself is recorded, under a placeholder id (`pending-create-pod-3f9c...`), with
// what the next run needs to resolve it: when the create was sent and which look-alikes existed
// before it (`pendingCreate` in the outputs). The next run replaces the placeholder (diff), and the
// replacement's create adopts the one new look-alike, or creates the resource when there is none.
//
// How the record reaches that create: not through check or the inputs. For a replacement the
// engine runs check again WITHOUT the old state and hands create only those checked inputs
// (pulumi pkg/resource/deploy/step_generator.go: the "recompute the default values" Check), and the
// old inputs check sees first never held the record anyway (a partial create keeps the inputs it
// was given; only the outputs come from the error). diff is the one call that sees the old outputs:
// it remembers the record in this provider process, keyed by kind and new inputs, and the create
// that follows in the same deployment (same process, same inputs) takes it. Without a remembered
// record a create is an ordinary create, as before.

import { createHash, randomBytes } from "node:crypto";
import { isRecord, withoutUnset, type Props } from "../../model/fields/values";
import { COST_ESTIMATE } from "../../model/fields/estimateOutput";

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

// ---- Creates whose outcome is unknown ------------------------------------------------------------

/** The output that holds the record of an unresolved create (never an input). */
export const PENDING_CREATE_FIELD = "pendingCreate";

const PLACEHOLDER_PREFIX = "pending-create-";

export interface PendingCreate {
  /** When the create was sent (ISO 8601), for messages and for a person looking for the resource. */
  startedAt: string;
  /** Ids of the resources that matched before the create was sent: none of them can be ours. */
  matchedBefore: string[];
}

/** `pending-create-network-volume-1a2b3c4d5e6f`: never an id the service hands out. */
export function placeholderId(noun: string): string {
  return `${PLACEHOLDER_PREFIX}${noun.replace(/\s+/g, "-")}-${randomBytes(6).toString("hex")}`;
}

/**
 * Only the id decides whether a state entry is a placeholder: a record next to a real id would make
 * the engine's delete of the replaced entry remove the very resource its replacement adopted.
 */
export function isPlaceholderId(id: string | undefined): boolean {
  return typeof id === "string" && id.startsWith(PLACEHOLDER_PREFIX);
}

/** The record in a placeholder's outputs, or undefined when it is missing or malformed. */
export function pendingCreateOf(props: Props | undefined): PendingCreate | undefined {
  const value = props?.[PENDING_CREATE_FIELD];
  if (!isRecord(value)) return undefined;
  const { startedAt, matchedBefore } = value;
  if (typeof startedAt !== "string" || !Array.isArray(matchedBefore)) return undefined;
  if (!matchedBefore.every((id): id is string => typeof id === "string")) return undefined;
  return { startedAt, matchedBefore: [...matchedBefore] };
}

/** Placeholder id -> the record diff saw, under the key its replacement's create will look for. */
const remembered = new Map<string, { key: string; record: PendingCreate }>();
/** Placeholders whose record a create has taken in this process (their delete is expected). */
const taken = new Set<string>();

/** Same kind and the same checked inputs (diff's news and create's inputs are one check's output). */
function keyOf(noun: string, inputs: Props): string {
  // The estimate is derived from the other inputs (and carries the time prices were read): not part of the key.
  const { [PENDING_CREATE_FIELD]: _record, [COST_ESTIMATE]: _estimate, ...rest } = withoutUnset(inputs);
  // Hashed: the inputs may hold a password, which has no business sitting around as a map key.
  return `${noun}\u0000${createHash("sha256").update(canonicalJson(rest)).digest("hex")}`;
}

/** JSON with object keys sorted, so that key order never changes the key. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const entries = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** diff of a placeholder: keep its record for the create of its replacement (see the header). */
export function rememberPendingCreate(noun: string, id: string, record: PendingCreate, newInputs: Props): void {
  // Keyed by placeholder id so that the preview's diff and the update's diff do not stack up.
  remembered.set(id, { key: keyOf(noun, newInputs), record });
}

/** create: the record of the placeholder this create replaces, if diff remembered one. */
export function takePendingCreate(noun: string, inputs: Props): { id: string; record: PendingCreate } | undefined {
  const key = keyOf(noun, inputs);
  for (const [id, entry] of remembered) {
    if (entry.key !== key) continue;
    remembered.delete(id);
    taken.add(id);
    return { id, record: entry.record };
  }
  return undefined;
}

/** Whether a create in this process took over the placeholder's record (its delete ends a replacement). */
export function wasTakenOver(id: string): boolean {
  return taken.has(id);
}
