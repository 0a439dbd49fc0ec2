/**
 * A container's settings in v2's words, as pods and templates share them (an endpoint's come from
 * what its workers run, endpoints/releases.ts): the view of a record's, and the record fields a
 * body's set.
 */
import type { PodRecord, TemplateRecord } from "../../state/model";
import type { Pod } from "../../vocabulary/schemas/v2/wire";
import { commandView } from "../command";
import type { ContainerBody, ContainerSettings } from "../endpoints/container";

type ContainerRecord = PodRecord | TemplateRecord;

/** A persistent mount or a network volume's, as the record keeps the storage. */
function mountsOf(record: ContainerRecord): Pod["mounts"] {
  if ("networkVolumeId" in record && record.networkVolumeId)
    return { network: [{ volumeId: record.networkVolumeId, path: record.volumeMountPath }] };
  return record.volumeInGb > 0 ? { persistent: { size: record.volumeInGb, path: record.volumeMountPath } } : {};
}

export function containerView(
  record: ContainerRecord,
): Pick<Pod, "image" | "args" | "cmd" | "entrypoint" | "disk" | "env" | "ports" | "registry" | "mounts"> {
  return {
    image: record.imageName,
    ...commandView(record),
    disk: record.containerDiskInGb,
    env: { ...record.env },
    ports: [...record.ports],
    registry: record.containerRegistryAuthId,
    mounts: mountsOf(record),
  };
}

/**
 * The record fields the settings a body sends set (the command is the domain's to read:
 * command.ts), in the order a refusal lists changed fields in (pods/update.ts).
 */
export function containerFieldsOf(body: ContainerBody): Partial<ContainerSettings> {
  const fields: Partial<ContainerSettings> = {};
  if (body.image !== undefined) fields.imageName = body.image;
  if (body.disk !== undefined) fields.containerDiskInGb = body.disk;
  if (body.ports !== undefined) fields.ports = [...body.ports];
  if (body.env !== undefined) fields.env = { ...body.env };
  if (body.registry !== undefined) fields.containerRegistryAuthId = body.registry;
  return fields;
}
