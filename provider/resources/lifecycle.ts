// The one resource lifecycle: check, diff, read, create (with lost-create resolution and pending
// creates), adopt, update, wait and delete, for every resource kind. A kind supplies its field
// table and its specifics (ResourceSpec): how to call the service, how to recognise its resource in
// a list, what to do right after a create, when it is ready, how an existing one converges on the
// declared state, and what to say when a create-only field differs.

import type * as pulumi from "@pulumi/pulumi";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { isNotFound } from "../../client/errors";
import { CreateSnapshots, createWithoutDuplicates } from "./createOnce";
import { buildOutputs, declaredInputs, importedInputs, mergeEnv, refreshFromLive } from "./declared";
import type { ManagementApi } from "../../model/backend/port";
import type { KindReader } from "../../model/kinds/kindReader";
import type { ProviderDeps } from "./deps";
import { computeDiff, type DiffOutcome } from "./diffEngine";
import { backendFailures, createBodyOf, inputFields, sensitiveFields, tableForBackend, type Backend } from "../../model/fields/fieldTable";
import { isPlaceholderId, pendingCreateOf, rememberPendingCreate, ResourceInitError, wasTakenOver, withProvider } from "./partialCreate";
import { adoptionPlan, changedFields, forgottenFields, serviceUpdates } from "./updates";
import { runSchema, withValueShown } from "../../model/fields/validation";
import { catalogFieldsToCheck, catalogIdFailures } from "../../model/cost/catalogIds";
import { deepEqual, isPresent, messageOf, withoutUnset, type Props } from "../../model/fields/values";
import { OWNER_INPUT, OWNER_MARKER_ENV } from "../../model/kinds";
import { DEFAULT_CREATE_TIMEOUT_MS } from "../../client/config";
import { markerOf, ownerOf } from "./ownership";
import { ReadinessTimeoutError } from "./waitFor";
import type { CostEstimate, Estimator } from "../../model/cost/estimate";
import { withEstimate } from "../../model/cost/attach";
import { COST_ESTIMATE } from "../../model/fields/estimateOutput";
import { estimateRefreshed, recordedEstimate, sameEstimate } from "../../model/cost/refresh";
import { ownPricesDigest } from "../../model/cost/ownPrices";

/** What a kind's specifics get to work with while one operation runs. */
export interface Operation<Args, L> {
  deps: ProviderDeps;
  client: ManagementApi;
  id: string;
  /** `pod "trainer" (id abc123)`, for messages. */
  subject: string;
  args: Args;
  /** The latest live object known (undefined until read). */
  live: L | undefined;
  /** Set once the operation changed something: a failure after it is a partial update. */
  mutated: boolean;
  /** The operation created the resource (rather than updating or adopting one). */
  created?: boolean;
}

/** In-place changes of one update or adoption. */
export interface Changes {
  /** The service fields to PATCH. */
  body: Props;
  /** Every field whose declared value changed (provider arguments too, e.g. triggers). */
  changed: ReadonlySet<string>;
}

/**
 * A kind's specifics, on top of how it is read (its reader: table, get, list, gone). Its `list` is
 * also where a create whose answer was lost looks for "the resource this create made" (see
 * createOnce.ts): every resource of the kind, since one list serves the snapshots of many creates.
 */
export interface ResourceSpec<Args, L extends { id: string; name?: string | undefined }, Create = Props> extends KindReader<L, Args> {
  /** Whether a listed resource is the one these arguments created (a lost create's resolution). */
  matches(candidate: L, args: Args): boolean;
  /**
   * The owner marker a listed resource carries (ownership.ts), for kinds that carry one (an env
   * map on the service): the create sends it, and a lost create is found by it on any machine.
   */
  ownerMarker?(candidate: L): string | undefined;
  /** The APIs on which the kind carries the marker (default both): v1 endpoints have no env of their own. */
  markedOn?: readonly Backend[];
  /** Names are unique in the account: the service refuses a second with 409. */
  uniqueName?: true;
  /** The service's create call, given the create body computed from the table (its rows cover Create). */
  create(client: ManagementApi, body: Create, args: Args): Promise<L>;
  /** Steps right after a create (fix-ups the create cannot express). */
  afterCreate?(op: Operation<Args, L>): Promise<void>;
  /** The body to PATCH for the changes, when a provider argument asks for more (default: changes.body). */
  updateBody?(changes: Changes, args: Args): Props;
  /** The service's update call (absent: nothing updates in place). */
  update?(client: ManagementApi, id: string, body: Props, args: Args): Promise<L>;
  /** What an in-place update does, for the progress line: "a rolling release of the workers". */
  updateNote?: string;
  /** Reads the live object before an update even when no env map needs merging. */
  readBeforeUpdate?(changes: Changes): boolean;
  /** Refuses a change the service would refuse, with the fix (a volume cannot shrink). */
  guard?(op: Operation<Args, L>, changes: Changes): void;
  /** Replaces the plain PATCH for kinds whose state changes by actions too (a pod's start/stop). */
  converge?(op: Operation<Args, L>, changes: Changes): Promise<void>;
  /** Waits until the resource is ready; returns the live object. */
  ready?(op: Operation<Args, L>): Promise<L>;
  /** The fix to name when adopting by adoptId finds other values in create-only fields. */
  adoptRemedy: string;
  /** Refuses to adopt a resource that cannot be (a terminated pod). */
  refuseAdoption?(live: L): string | undefined;
  /** What to log when adopting: by default, a warning naming what cannot be verified. */
  adoptNote?(origin: AdoptionOrigin, unverifiable: readonly string[]): { level: "info" | "warn"; text: string } | undefined;
  /** The kind's cost estimate from its checked arguments (recorded as the `costEstimate` output). */
  estimate?: Estimator;
  /** The service's delete, with the kind's explanations; 404 already counts as done. */
  delete(op: Omit<Operation<Args, L>, "args" | "live" | "mutated">, props: Props): Promise<void>;
}

/** How an existing resource came to be adopted: the user's adoptId, or an earlier create of ours. */
export type AdoptionOrigin = "adoptId" | "earlierCreate";

/**
 * A diff with the field-level detail the engine can show (`preview --diff`): per property, or per
 * declared env key (`env.KEY`), whether it is added, updated or deleted and whether it replaces. The
 * dynamic-provider host has no way to pass it on; the provider plugin does (provider/plugin).
 */
export interface LifecycleDiff extends pulumi.dynamic.DiffResult {
  detailedDiff: DiffOutcome["detailedDiff"];
}

/**
 * A resource kind's provider: every method of a dynamic provider but `configure` (dispatch handles
 * it), and the diff with its field-level detail, which only the provider plugin can pass on.
 */
export type LifecycleProvider = Required<Omit<pulumi.dynamic.ResourceProvider, "configure">> & {
  diffInDetail(id: string, olds: Props, news: Props): Promise<LifecycleDiff>;
};

type ArgsBase = { adoptId?: string | undefined; name?: string | undefined };

/**
 * The provider of one kind. Each call goes to the backend the connection settings pick at that
 * moment (apiUrl ending in /v1 or /v2): the table's change kinds and the arguments check accepts
 * depend on it.
 */
export function resourceProvider<Args extends ArgsBase, L extends { id: string; name?: string | undefined }, Create>(
  spec: ResourceSpec<Args, L, Create>,
  deps: ProviderDeps,
): LifecycleProvider {
  const byBackend = {
    v1: providerOn({ ...spec, table: tableForBackend(spec.table, "v1") }, deps, "v1"),
    v2: providerOn({ ...spec, table: tableForBackend(spec.table, "v2") }, deps, "v2"),
  };
  const current = () => byBackend[deps.backend?.() ?? "v1"];
  return {
    check: (olds, news) => current().check(olds, news),
    diff: (id, olds, news) => current().diff(id, olds, news),
    diffInDetail: (id, olds, news) => current().diffInDetail(id, olds, news),
    read: (id, props) => current().read(id, props),
    create: (inputs) => current().create(inputs),
    update: (id, olds, news) => current().update(id, olds, news),
    delete: (id, props) => current().delete(id, props),
  };
}

function providerOn<Args extends ArgsBase, L extends { id: string; name?: string | undefined }, Create>(
  spec: ResourceSpec<Args, L, Create>,
  deps: ProviderDeps,
  backend: Backend,
): LifecycleProvider {
  const { table } = spec;
  const noun = table.noun;
  /** How a listed resource shows its owner marker on this API, if the kind carries one here (ownership.ts). */
  const ownerMarker = (spec.markedOn ?? ["v1", "v2"]).includes(backend) ? spec.ownerMarker : undefined;
  /** Per connection (client), the ids the engine holds or this process made (ownership.ts). */
  const heldIds = new WeakMap<ManagementApi, Set<string>>();
  function heldOf(client: ManagementApi): Set<string> {
    const found = heldIds.get(client) ?? new Set<string>();
    heldIds.set(client, found);
    return found;
  }
  /** Per connection (client), the snapshots its creates share (createOnce.ts). */
  const snapshots = new WeakMap<ManagementApi, CreateSnapshots<L>>();
  function snapshotsOf(client: ManagementApi): CreateSnapshots<L> {
    let found = snapshots.get(client);
    if (!found) {
      found = new CreateSnapshots<L>(deps.now);
      snapshots.set(client, found);
    }
    return found;
  }

  function operation(id: string, args: Args, name: unknown, live?: L): Operation<Args, L> {
    return { deps, client: deps.client(), id, subject: subjectOf(noun, args.name ?? name, id), args, live, mutated: false };
  }

  /** Changes, waits, and records the outputs; a failure after a change keeps the new state. */
  async function converge(op: Operation<Args, L>, changes: Changes, declared: Props, inputs: Props, justCreated = false): Promise<Props> {
    try {
      if (justCreated) await spec.afterCreate?.(op);
      else if (spec.converge) await spec.converge(op, changes);
      else if (spec.update && Object.keys(spec.updateBody?.(changes, op.args) ?? changes.body).length > 0) {
        const body = spec.updateBody?.(changes, op.args) ?? changes.body;
        deps.log.info(`${op.subject}: updating ${Object.keys(body).join(", ")}${spec.updateNote ? ` (${spec.updateNote})` : ""}`);
        op.live = await spec.update(op.client, op.id, body, op.args);
        op.mutated = true;
      }
      const live = spec.ready ? await spec.ready(op) : (op.live ?? (await spec.get(op.client, op.id)));
      return { ...buildOutputs(table, declared, live), ...estimateOf(inputs) };
    } catch (error) {
      // Nothing changed yet: a plain failure keeps the previous state, which is still true.
      if (!op.mutated && !(error instanceof ReadinessTimeoutError)) throw error;
      const last = error instanceof ReadinessTimeoutError ? (error.last as L) : op.live;
      if (last === undefined) throw error;
      throw new ResourceInitError(op.id, withProvider(buildOutputs(table, declared, last), inputs), reasonFor(op.subject, error));
    }
  }

  async function adopt(id: string, args: Args, inputs: Props, origin: AdoptionOrigin): Promise<pulumi.dynamic.CreateResult> {
    const declared = declaredInputs(table, withoutUnset(inputs));
    const client = deps.client();
    let live: L;
    try {
      live = await spec.get(client, id);
    } catch (error) {
      if (isNotFound(error))
        throw new Error(
          `adoptId ${JSON.stringify(id)}: no ${noun} with this id exists for this API key; check the id, or remove adoptId to create a new ${noun}`,
        );
      throw error;
    }
    const refusal = spec.refuseAdoption?.(live);
    if (refusal) throw new Error(`adoptId ${JSON.stringify(id)}: ${refusal}`);
    const op = operation(id, args, live.name, live);
    const plan = adoptionPlan(table, declared, live);
    if (plan.conflicts.length > 0) {
      const remedy = origin === "adoptId" ? spec.adoptRemedy : earlierCreateRemedy(noun, id);
      throw new Error(`cannot adopt ${op.subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
    }
    const note = spec.adoptNote
      ? spec.adoptNote(origin, plan.unverifiable)
      : plan.unverifiable.length > 0
        ? {
            level: "warn" as const,
            text: `the service does not report ${plan.unverifiable.join(", ")}; adopting on the assumption that they match what is declared`,
          }
        : undefined;
    if (note) deps.log[note.level](`${op.subject}: ${note.text}`);
    const body: Props = {};
    for (const field of plan.updates)
      body[field] = table.fields[field]?.envMap ? mergeEnv((live as Props)[field], {}, declared[field]) : declared[field];
    const changes: Changes = { body, changed: new Set(plan.updates) };
    spec.guard?.(op, changes);
    deps.log.info(`${op.subject}: adopting the existing ${noun}${plan.updates.length > 0 ? `; updating ${plan.updates.join(", ")}` : ""}`);
    return { id, outs: await converge(op, changes, declared, inputs) };
  }

  /** The create body with the owner's marker in its env, for kinds that carry one (ownership.ts). */
  function markedBody(body: Props, owner: string | undefined): Props {
    if (!ownerMarker || owner === undefined) return body;
    const env = body["env"];
    return { ...body, env: { ...(typeof env === "object" && env !== null ? env : {}), [OWNER_MARKER_ENV]: markerOf(owner) } };
  }

  /** The engine holds `id` for the owner: accounted for, and the journal's entry for it is spent. */
  function heldByStack(id: string, news: Props): void {
    let held: Set<string>;
    try {
      held = heldOf(deps.client());
    } catch {
      // No connection settings (check says so): nothing can be created in this process either.
      return;
    }
    if (held.has(id)) return;
    held.add(id);
    const owner = ownerOf(news);
    if (owner !== undefined) deps.journal?.()?.forget(owner, id);
  }

  const provider: LifecycleProvider = {
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
      const args = withoutUnset(news);
      const previous = withoutUnset(olds ?? {});
      const outcome = runSchema<Args>(table.schema, noun, args);
      // What the API cannot express is said only of values that are valid in themselves.
      const invalid = new Set(outcome.failures.map((f) => f.property.split(/[.[]/)[0]));
      // Settings that cannot work fail every resource's check: `up` creates nothing with them.
      const failures = [
        ...(deps.connectionFailures?.() ?? []),
        ...outcome.failures,
        ...backendFailures(table, args, backend).filter((f) => !invalid.has(f.property)),
      ];
      const warnings: string[] = [];
      if (table.crossCheck) {
        const cross = table.crossCheck(args, previous, backend);
        // Cross-field rules only make sense once every field is individually valid; a rule that
        // reads no other field is said beside the fields' own failures.
        if (failures.length === 0) failures.push(...cross.failures);
        failures.push(...(cross.standalone ?? []));
        warnings.push(...cross.warnings);
      }
      // Valid arguments and settings are proven by the service (one read per process): bad input
      // fails before anything is sent anywhere.
      if (failures.length === 0 && deps.connectionProof) failures.push(...(await deps.connectionProof()));
      // On v2, ids the catalog does not list fail (did-you-mean) once the catalog was read.
      // One read of the prices serves this check and the estimate below.
      const readPrices = pricesReader();
      const catalogFields = backend === "v2" && failures.length === 0 && readPrices ? catalogFieldsToCheck(args, previous) : [];
      if (catalogFields.length > 0 && readPrices) {
        const catalog = catalogIdFailures(args, catalogFields, await readPrices());
        failures.push(...catalog.failures);
        if (catalog.read) {
          const superseded = catalogFields.map((field) => `${noun} ${field}`);
          warnings.splice(0, warnings.length, ...warnings.filter((w) => !superseded.some((prefix) => w.startsWith(prefix))));
        }
      }
      for (const field of forgottenFields(table, previous, args)) {
        warnings.push(
          `${noun} ${field} is no longer declared: the service has no default to go back to, so the ` +
            `${noun} keeps its current value. Declare the value you want to change it.`,
        );
      }
      for (const w of warnings) deps.log.warn(w);
      // The parsed arguments become the inputs: create and update use them without parsing again.
      const checked = failures.length === 0 && outcome.value !== undefined ? (outcome.value as Props) : args;
      // The estimate rides on the inputs: at preview the engine shows a new resource's inputs as its outputs.
      const estimated =
        failures.length === 0 && spec.estimate
          ? await estimateOn(spec.estimate, withoutUnset(checked), previous, readPrices)
          : withoutUnset(checked);
      const owner = ownerOf(news);
      return {
        inputs: { ...estimated, __provider: news["__provider"], ...(owner !== undefined ? { [OWNER_INPUT]: owner } : {}) },
        failures: failures.map((f) => withValueShown(withoutSecretValue(f), args)),
      };
    },

    async diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
      const { detailedDiff: _detail, ...diff } = await provider.diffInDetail(id, olds, news);
      return diff;
    },

    async diffInDetail(id: string, olds: Props, news: Props): Promise<LifecycleDiff> {
      if (isPlaceholderId(id)) return replacePlaceholder(id, olds, news);
      heldByStack(id, news);
      const outcome = computeDiff(table, withoutUnset(olds), withoutUnset(news), { id });
      // A new estimate alone (new prices) is an update that only records it (see update).
      const newEstimate = estimateRefreshed(olds, news);
      return {
        changes: outcome.changes || newEstimate,
        replaces: outcome.replaces,
        deleteBeforeReplace: outcome.deleteBeforeReplace,
        detailedDiff: newEstimate ? { ...outcome.detailedDiff, [COST_ESTIMATE]: { kind: "update", replace: false } } : outcome.detailedDiff,
      };
    },

    /**
     * A refresh: the recorded properties brought up to date. Without any (an import, which only the
     * provider plugin can serve): what a program would declare for the resource, as inputs, and
     * the outputs (with the estimate) a create with those inputs would have recorded.
     */
    async read(id: string, props?: Props): Promise<pulumi.dynamic.ReadResult> {
      // Nothing to read under a placeholder, and dropping it would forget the doubt it records.
      if (isPlaceholderId(id)) return { id, props: props ?? {} };
      heldOf(deps.client()).add(id);
      let live: L;
      try {
        live = await spec.get(deps.client(), id);
      } catch (error) {
        // A 404 (or a resource the service reports as gone) returns no id: it leaves the state.
        if (isNotFound(error)) return {};
        throw error;
      }
      if (spec.gone?.(live)) return {};
      if (props === undefined) {
        // The inputs are what the program declares; check adds the estimate to them, as for a create.
        const inputs = importedInputs(table, live);
        const estimated = spec.estimate ? await estimateOn(spec.estimate, inputs, {}, pricesReader()) : inputs;
        return { id, props: { ...buildOutputs(table, inputs, live), ...estimateOf(estimated) }, inputs };
      }
      const refreshed = refreshFromLive(table, withoutUnset(props), live);
      // The estimate stays on the inputs too: the next check keeps it without reading prices.
      const estimate = estimateOf(props ?? {});
      return { id, props: { ...refreshed.props, ...estimate }, inputs: { ...refreshed.inputs, ...estimate } };
    },

    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
      const args = withoutUnset(inputs) as Args;
      if (args.adoptId !== undefined) return adopt(args.adoptId, args, inputs, "adoptId");
      const client = deps.client();
      const shared = snapshotsOf(client);
      const owner = ownerOf(inputs);
      const outcome = await createWithoutDuplicates<L>({
        subject: subjectOf(noun, args.name),
        table,
        inputs,
        list: () => spec.list(client),
        snapshot: () => shared.take(() => spec.list(client)),
        matches: (candidate) => spec.matches(candidate, args),
        create: () => spec.create(client, markedBody(createBodyOf(table, args), owner) as Create, args),
        log: deps.log,
        sleep: deps.sleep,
        now: deps.now,
        owner,
        held: heldOf(client),
        markerOf: ownerMarker && owner !== undefined ? (candidate) => ownerMarker(candidate) : undefined,
        markable: ownerMarker !== undefined,
        journal: deps.journal?.(),
        createWindowMs: deps.createWindowMs?.() ?? DEFAULT_CREATE_TIMEOUT_MS,
        uniqueName: spec.uniqueName,
        adoptHint: (found) =>
          `declare adoptId: ${JSON.stringify(found)} on it (a program on the provider plugin: \`pulumi import\` it by that id)`,
      });
      heldOf(client).add(outcome.resource.id);
      shared.add(outcome.resource);
      if (outcome.incomplete) {
        // Made, then a follow-up call failed: the resource is recorded (the next up finishes it), never dropped.
        const declared = declaredInputs(table, withoutUnset(inputs));
        const subject = subjectOf(noun, args.name, outcome.resource.id);
        throw new ResourceInitError(
          outcome.resource.id,
          withProvider(buildOutputs(table, declared, outcome.resource), inputs),
          reasonFor(subject, outcome.incomplete),
        );
      }
      // An earlier create whose answer was lost made it: bring it to the declared state like adoptId does.
      if (outcome.adopted) return adopt(outcome.resource.id, args, inputs, "earlierCreate");
      const op = operation(outcome.resource.id, args, outcome.resource.name, outcome.resource);
      // The resource exists: any failure from here on is recorded as a partial create.
      op.mutated = true;
      op.created = true;
      deps.log.info(`${op.subject}: created`);
      const declared = declaredInputs(table, withoutUnset(inputs));
      return { id: op.id, outs: await converge(op, { body: {}, changed: new Set() }, declared, inputs, true) };
    },

    async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
      const args = withoutUnset(news) as Args;
      heldByStack(id, news);
      const outcome = computeDiff(table, withoutUnset(olds), withoutUnset(news), { id });
      if (outcome.replaces.length > 0)
        throw new Error(`pulumi-gpucloud: ${noun} ${id}: ${outcome.replaces.join(", ")} can only change by replacement, not in an update`);
      // Nothing declared may have changed: the engine also updates to record a new estimate only,
      // and to finish a partial create or update (an earlier readiness wait that ran out), which
      // it does not tell apart. Either way the resource is brought to ready below, and an empty
      // body sends no change to the service.
      const changed = changedFields(outcome);
      const changes: Changes = { body: serviceUpdates(table, outcome, withoutUnset(news)), changed };
      const op = operation(id, args, olds["name"]);
      const envFields = [...changed].filter((f) => table.fields[f]?.envMap);
      if (envFields.length > 0 || spec.readBeforeUpdate?.(changes)) {
        op.live = await spec.get(op.client, id);
        // Keep what the platform injected (PUBLIC_KEY on pods, PORT on serverless templates).
        for (const field of envFields) changes.body[field] = mergeEnv((op.live as Props)[field], olds[field], news[field]);
        op.subject = subjectOf(noun, args.name ?? op.live.name, id);
      }
      spec.guard?.(op, changes);
      return { outs: await converge(op, changes, declaredInputs(table, withoutUnset(news)), news) };
    },

    async delete(id: string, props: Props): Promise<void> {
      if (!isPlaceholderId(id)) heldOf(deps.client()).add(id);
      if (!isPlaceholderId(id)) return spec.delete({ deps, client: deps.client(), id, subject: subjectOf(noun, props["name"], id) }, props);
      const subject = subjectOf(noun, props["name"]);
      // A placeholder (partialCreate.ts): there is no resource under that id, so nothing is called.
      if (wasTakenOver(id)) {
        deps.log.info(`${subject}: removed the pending-create record ${id} from the stack (its replacement resolved it)`);
        return;
      }
      const record = pendingCreateOf(props);
      deps.log.warn(
        `${subject}: removing the record ${id} of a create whose outcome was never resolved` +
          `${record ? ` (sent at ${record.startedAt})` : ""} without calling the service. If the service did create it, ` +
          `that ${noun} still exists outside the stack${record && record.matchedBefore.length > 0 ? ` (it is none of ${record.matchedBefore.join(", ")})` : ""}: ` +
          "look for it and delete it if it is not wanted.",
      );
    },
  };
  return provider;

  /** Reads the catalog's prices at most once for the operation that calls it (absent: no prices to read). */
  function pricesReader(): ProviderDeps["prices"] {
    const prices = deps.prices;
    if (!prices) return undefined;
    let read: ReturnType<typeof prices> | undefined;
    return () => (read ??= prices());
  }

  /**
   * A placeholder of a create whose outcome is unknown (partialCreate.ts) is always replaced: its
   * replacement's create adopts what the earlier create made, or creates it. Create first, delete
   * after (deleting a placeholder calls nothing, so the order cannot collide with a unique name).
   */
  function replacePlaceholder(id: string, olds: Props, news: Props): LifecycleDiff {
    const record = pendingCreateOf(olds);
    if (record) rememberPendingCreate(noun, id, record, news);
    // The engine wants a property to blame for the replacement: the first declared input will do.
    const fields = inputFields(table);
    const field = fields.find((f) => isPresent(news, f)) ?? fields[0] ?? "name";
    return { changes: true, replaces: [field], deleteBeforeReplace: false, detailedDiff: { [field]: { kind: "update", replace: true } } };
  }

  /**
   * The checked inputs with their estimate. The one recorded is kept as it is when the arguments and
   * own prices are unchanged (no call for catalog prices: a preview of unchanged resources makes
   * none), and when a new one has the same figures (a plan shows `costEstimate` only when its
   * figures change, never for a new read of the same prices or 0.1.0's longer record of them).
   */
  async function estimateOn(estimate: Estimator, checked: Props, previous: Props, readPrices: ProviderDeps["prices"]): Promise<Props> {
    const recorded = recordedEstimate(previous[COST_ESTIMATE]);
    const kept = keptEstimate(checked, previous, recorded);
    if (kept) return { ...checked, [COST_ESTIMATE]: kept };
    const fresh = await withEstimate(estimate, checked, readPrices ? { ...deps, prices: readPrices } : deps);
    const made = fresh[COST_ESTIMATE] as CostEstimate;
    return recorded && sameEstimate(recorded, made) ? { ...fresh, [COST_ESTIMATE]: recorded } : fresh;
  }

  /**
   * The recorded estimate, when the arguments and own prices are unchanged. Only an estimated
   * figure is kept, and only where the catalog prices (v2): one that was unavailable is made again
   * (from the arguments alone when they decide it: model/cost/attach.ts).
   */
  function keptEstimate(checked: Props, previous: Props, recorded: CostEstimate | undefined): CostEstimate | undefined {
    if (backend !== "v2" || recorded?.status !== "estimated") return undefined;
    // Your own prices cost no call to read: when they changed, the estimate is made again.
    if ((recorded.ownPrices ?? "none") !== ownPricesDigest(deps.ownPrices?.())) return undefined;
    const declared = (props: Props): Props => {
      const { [COST_ESTIMATE]: _estimate, __provider: _provider, ...rest } = props;
      return rest;
    };
    return deepEqual(declared(checked), declared(previous)) ? recorded : undefined;
  }

  /** Values of secret-bearing arguments: the failure names no property, so the engine prints no value. */
  function withoutSecretValue(f: CheckFailure): CheckFailure {
    const field = f.property.split(/[.[]/)[0] ?? "";
    return sensitiveFields(table).includes(field) ? { property: "", reason: f.reason } : f;
  }
}

/**
 * The recorded estimate of a property bag, to carry over into outputs, as it is: a refresh reads
 * back 0.1.0's longer record unchanged (a JobRunner's revision digests its endpoint's outputs, so a
 * reshaped record would re-run its cases); an update records today's compact one from its inputs.
 */
function estimateOf(props: Props): Props {
  return props[COST_ESTIMATE] === undefined ? {} : { [COST_ESTIMATE]: props[COST_ESTIMATE] };
}

/** `pod "trainer" (id abc123)` */
export function subjectOf(noun: string, name: unknown, id?: string): string {
  const named = typeof name === "string" && name !== "" ? ` ${JSON.stringify(name)}` : "";
  return `${noun}${named}${id ? ` (id ${id})` : ""}`;
}

/** What to do when the resource an earlier, interrupted create made differs in create-only fields. */
function earlierCreateRemedy(noun: string, id: string): string {
  return (
    `the ${noun} an earlier, interrupted create made (id ${id}) was created with other values than are declared now; ` +
    `declare its values to keep it, or delete it to have a new ${noun} created.`
  );
}

/** The error's message, prefixed with the subject unless it already names it. */
function reasonFor(subject: string, error: unknown): string {
  const message = messageOf(error);
  return message.startsWith(subject) ? message : `${subject}: ${message}`;
}

/** Deletes, treating "already gone" as success. */
export async function deleteIgnoringMissing(del: () => Promise<void>): Promise<void> {
  try {
    await del();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
