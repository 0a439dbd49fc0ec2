// The pod collection on v2: the create body and its lock, the PATCH with its mounts and its
// networking restart, and the actions chosen from what the pod allows now (podActionsV2.ts).

import { ConflictError, isAmbiguousFailure } from "../../../client/errors";
import { PodSchema, type Pod } from "../../../client/schemas";
import type { PodActionV2 } from "../../../client/managementV2";
import type { PodV2 } from "../../../client/schemasV2";
import { IncompleteCreateError, type Pods } from "../../backend/port";
import type { V2Context } from "../../backend/v2Context";
import { fieldsOf, messageOf } from "../../fields/values";
import { fromWireV2, podMounts, toWireV2, wireRequest } from "../../fields/wireV2";
import { actionDone, chooseAction, isBooting } from "./podActionsV2";
import { podCreateBodyV2 } from "./podBodyV2";
import { podTable } from "./podFields";

export function podCollectionV2(v2: V2Context): Pods {
  const { client, reads } = v2;

  /**
   * One pod action, chosen from what the pod's `actions` allows now (podAction: "Which actions are
   * valid depends on the pod's current status [...] published in the pod's `actions` field"; any
   * other is a 409). An action that failed without an answer, or answered 409 (a repeat of one
   * that went through), is never sent again blindly: the pod is read and its status decides.
   */
  async function act(id: string, wanted: PodActionV2): Promise<void> {
    const pod = await client.pods.get(id);
    const action = chooseAction(wanted, pod);
    if (action === undefined) return;
    try {
      await client.podAction(id, action);
    } catch (error) {
      if (!(error instanceof ConflictError) && !isAmbiguousFailure(error)) throw error;
      const after = await client.pods.get(id);
      if (actionDone(action, pod, after)) return;
      throw error;
    }
  }

  return {
    async create(input) {
      const { locked, ...fields } = fieldsOf(input);
      const body = podCreateBodyV2(podTable, fields);
      // A pod runs where its network volume is, but the reference does not say the service places a
      // pod there by itself (CreatePodRequest.dataCenterIds: "Omit [...] to let the scheduler
      // choose"): one that names no data center is sent the volume's.
      const volumeId = fields["networkVolumeId"];
      if (typeof volumeId === "string" && !Array.isArray(body["dataCenterIds"])) {
        const { dataCenter } = await reads.networkVolumes.read(volumeId);
        if (dataCenter !== undefined) body["dataCenterIds"] = [dataCenter];
      }
      const pod = await client.pods.create(wireRequest<"createPod">(body));
      // v2 creates take no lock: it is set right after. The pod exists (and bills) whatever that answers.
      if (locked !== true) return podOf(pod);
      try {
        return podOf(await client.pods.update(pod.id, { locked: true }));
      } catch (error) {
        throw new IncompleteCreateError(podOf(pod), `pod ${pod.id} was created, but locking it failed: ${messageOf(error)}`, {
          cause: error,
        });
      }
    },

    async list(filter) {
      // v2 lists take no filters: the ones the resources use are applied here.
      const pods = (await reads.pods.list()).map(podOf);
      return pods.filter(
        (p) =>
          (filter?.name === undefined || p.name === filter.name) &&
          (filter?.templateId === undefined || p.templateId === filter.templateId) &&
          (filter?.networkVolumeId === undefined || p.networkVolumeId === filter.networkVolumeId),
      );
    },

    async get(id) {
      return podOf(await reads.pods.read(id));
    },

    async update(id, input) {
      const fields = fieldsOf(input);
      const body = toWireV2(podTable, fields);
      const touchesMounts = fields["volumeInGb"] !== undefined || fields["volumeMountPath"] !== undefined;
      podMounts(body, fields, touchesMounts ? await reads.pods.read(id) : undefined);
      const pod = await client.pods.update(id, wireRequest<"updatePod">(body));
      // UpdatePodRequest.globalNetworking "Takes effect on the next pod start/restart, not live": a
      // running pod is restarted so that the declared networking is what it has (readiness waits for it).
      // A pod this PATCH reset (an image or env change beside it) is booting with the networking it
      // had, and a booting pod takes no restart (podAction: PROVISIONING and STARTING allow stop and
      // terminate): it is stopped and started, its next start.
      const networking = fields["globalNetworking"];
      if (
        typeof networking === "boolean" &&
        pod.status !== "EXITED" &&
        pod.status !== "ERROR" &&
        pod.globalNetworking?.enabled !== networking
      ) {
        if (isBooting(pod.status)) {
          await act(id, "stop");
          await act(id, "start");
        } else await act(id, "restart");
        return podOf(await client.pods.get(id));
      }
      return podOf(pod);
    },

    delete: (id) => client.pods.delete(id),
    start: (id) => act(id, "start"),
    stop: (id) => act(id, "stop"),
    restart: (id) => act(id, "restart"),
    async reset(id) {
      // check refuses resetTrigger on v2; this is only reached by a caller that skipped it.
      throw new Error(`pod ${id}: the service's v2 API has no reset; restart the pod, or replace it for a fresh disk`);
    },
  };
}

function podOf(wire: PodV2): Pod {
  // `status` is kept beside desiredStatus: readiness tells PROVISIONING and ERROR apart from it.
  return PodSchema.parse({ ...fromWireV2(podTable, wire), status: wire.status });
}
