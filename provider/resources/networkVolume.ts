// The NetworkVolume resource: create, rename / grow in place, refresh, delete. Ready on create.
// A volume attached to a pod or endpoint cannot be deleted: the error names what holds it.

import type * as pulumi from "@pulumi/pulumi";
import type { NetworkVolume } from "../../client/schemas";
import { createWithoutDuplicates } from "./ambiguous";
import { buildOutputs, declaredInputs } from "./declared";
import type { ManagementApi, ProviderDeps } from "./deps";
import { computeDiff } from "./diffEngine";
import { networkVolumeDefinition, networkVolumePolicy, type NetworkVolumeArgs } from "./networkVolumeArgs";
import {
  checkArgs,
  deleteIgnoringMissing,
  deleteUnlessPlaceholder,
  diffArgs,
  earlierCreateRemedy,
  getForAdoption,
  messageOf,
  parseArgs,
  readLive,
  subjectOf,
  type AdoptionOrigin,
} from "./resourceBase";
import { adoptionPlan, serviceUpdates } from "./updates";
import { withoutUnset, type Props } from "./values";

export function networkVolumeProvider(deps: ProviderDeps): pulumi.dynamic.ResourceProvider {
  return {
    check: (olds: Props, news: Props) => checkArgs(networkVolumeDefinition, deps, olds, news),
    diff: (id: string, olds: Props, news: Props) => diffArgs(networkVolumePolicy, id, olds, news),
    create: (inputs: Props) => createNetworkVolume(deps, inputs),
    read: (id: string, props?: Props) => readLive(networkVolumePolicy, id, props, (volumeId) => deps.client().getNetworkVolume(volumeId)),
    update: (id: string, olds: Props, news: Props) => updateNetworkVolume(deps, id, olds, news),
    delete: (id: string, props: Props) => deleteUnlessPlaceholder(deps, "network volume", id, props, () => deleteNetworkVolume(deps, id, props)),
  };
}

function refuseShrink(subject: string, liveSize: number | undefined, wanted: unknown): void {
  if (typeof liveSize === "number" && typeof wanted === "number" && wanted < liveSize) {
    throw new Error(`${subject} is ${liveSize} GB and cannot shrink to ${wanted} GB; a network volume can only grow. Set size to ${liveSize} or more.`);
  }
}

async function createNetworkVolume(deps: ProviderDeps, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const args: NetworkVolumeArgs = parseArgs(networkVolumeDefinition, inputs);
  const declared = declaredInputs(networkVolumePolicy, withoutUnset(inputs));
  const client = deps.client();
  if (args.adoptId !== undefined) return adoptNetworkVolume(deps, args.adoptId, args, declared, "adoptId");
  const outcome = await createWithoutDuplicates<NetworkVolume>({
    subject: subjectOf("network volume", args.name),
    policy: networkVolumePolicy,
    inputs,
    list: () => client.listNetworkVolumes(),
    matches: (v) => v.name === args.name && v.dataCenterId === args.dataCenterId && v.size === args.size,
    create: (options) => client.createNetworkVolume({ name: args.name, size: args.size, dataCenterId: args.dataCenterId }, options),
    log: deps.log,
    now: deps.now,
  });
  // An earlier create whose answer was lost made it: bring it to the declared state like adoptId does.
  if (outcome.adopted) return adoptNetworkVolume(deps, outcome.resource.id, args, declared, "earlierCreate");
  return { id: outcome.resource.id, outs: buildOutputs(networkVolumePolicy, declared, outcome.resource) };
}

async function adoptNetworkVolume(deps: ProviderDeps, adoptId: string, args: NetworkVolumeArgs, declared: Props, origin: AdoptionOrigin): Promise<pulumi.dynamic.CreateResult> {
  const client = deps.client();
  const live = await getForAdoption("network volume", adoptId, (id) => client.getNetworkVolume(id));
  const subject = subjectOf("network volume", live.name, adoptId);
  const plan = adoptionPlan(networkVolumePolicy, declared, live);
  if (plan.conflicts.length > 0) {
    const remedy =
      origin === "adoptId"
        ? "A volume's data center is fixed: declare the live value to adopt it, or remove adoptId to create a new volume."
        : earlierCreateRemedy("network volume", adoptId);
    throw new Error(`cannot adopt ${subject}: ${plan.conflicts.join("; ")}. ${remedy}`);
  }
  refuseShrink(`cannot adopt ${subject}: it`, live.size, args.size);
  const body: Props = {};
  for (const field of plan.updates) body[field] = declared[field];
  deps.log.info(`${subject}: adopting the existing network volume${plan.updates.length > 0 ? `; updating ${plan.updates.join(", ")}` : ""}`);
  const updated = Object.keys(body).length > 0 ? await client.updateNetworkVolume(adoptId, body) : live;
  return { id: adoptId, outs: buildOutputs(networkVolumePolicy, declared, updated) };
}

async function updateNetworkVolume(deps: ProviderDeps, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const args = parseArgs(networkVolumeDefinition, news);
  const declared = declaredInputs(networkVolumePolicy, withoutUnset(news));
  const outcome = computeDiff(networkVolumePolicy, withoutUnset(olds), withoutUnset(news), { id });
  if (outcome.replaces.length > 0) throw new Error(`pulumi-gpucloud: network volume ${id}: ${outcome.replaces.join(", ")} can only change by replacement, not in an update`);
  const client = deps.client();
  const body = serviceUpdates(networkVolumePolicy, outcome, withoutUnset(news));
  const subject = subjectOf("network volume", args.name, id);
  if (body["size"] !== undefined) refuseShrink(subject, (await client.getNetworkVolume(id)).size, body["size"]);
  const live = Object.keys(body).length > 0 ? await client.updateNetworkVolume(id, body) : await client.getNetworkVolume(id);
  if (Object.keys(body).length > 0) deps.log.info(`${subject}: updated ${Object.keys(body).join(", ")}`);
  return { outs: buildOutputs(networkVolumePolicy, declared, live) };
}

async function deleteNetworkVolume(deps: ProviderDeps, id: string, props: Props): Promise<void> {
  const client = deps.client();
  try {
    await deleteIgnoringMissing(() => client.deleteNetworkVolume(id));
  } catch (error) {
    const holders = await holdersOf(client, id).catch(() => [] as string[]);
    const held = holders.length > 0 ? ` It is attached to ${holders.join(", ")}: delete those or detach the volume from them first.` : " If a pod or endpoint uses it, delete that or detach the volume first.";
    throw new Error(`${subjectOf("network volume", props["name"], id)} cannot be deleted: ${messageOf(error)}.${held}`, { cause: error });
  }
}

/** Pods and endpoints that reference the volume, as `pod "a" (id x)`. */
async function holdersOf(client: ManagementApi, volumeId: string): Promise<string[]> {
  const [pods, endpoints] = await Promise.all([client.listPods({ networkVolumeId: volumeId, includeNetworkVolume: true }), client.listEndpoints()]);
  // Filtered here as well: a service that ignores the query filter must not make every pod a holder.
  const attached = (p: (typeof pods)[number]) => p.networkVolumeId === volumeId || p.networkVolume?.id === volumeId;
  return [
    ...pods.filter((p) => attached(p) && p.desiredStatus !== "TERMINATED").map((p) => subjectOf("pod", p.name, p.id)),
    ...endpoints
      .filter((e) => e.networkVolumeId === volumeId || (e.networkVolumeIds ?? []).includes(volumeId))
      .map((e) => subjectOf("endpoint", e.name, e.id)),
  ];
}
