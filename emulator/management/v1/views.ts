/** /v1 wire shapes of the simple resources (templates, network volumes, registry auths). */
import type { NetworkVolumeRecord, RegistryAuthRecord, TemplateRecord } from "../../state/model";
import type { ContainerRegistryAuth, NetworkVolume, Template } from "../../vocabulary/schemas/wire";

export function templateView(template: TemplateRecord): Template {
  const view: Template = {
    id: template.id,
    name: template.name,
    imageName: template.imageName,
    category: template.category,
    containerDiskInGb: template.containerDiskInGb,
    dockerEntrypoint: [...template.dockerEntrypoint],
    dockerStartCmd: [...template.dockerStartCmd],
    earned: 0,
    env: { ...template.env },
    isPublic: template.isPublic,
    isServerless: template.isServerless,
    ports: [...template.ports],
    readme: template.readme,
    runtimeInMin: 0,
    volumeInGb: template.volumeInGb,
    volumeMountPath: template.volumeMountPath,
  };
  if (template.containerRegistryAuthId !== null) view.containerRegistryAuthId = template.containerRegistryAuthId;
  return view;
}

export function networkVolumeView(volume: NetworkVolumeRecord): NetworkVolume {
  return { id: volume.id, name: volume.name, size: volume.size, dataCenterId: volume.dataCenterId };
}

/** Never the username or password: the service returns id and name only. */
export function registryAuthView(auth: RegistryAuthRecord): ContainerRegistryAuth {
  return { id: auth.id, name: auth.name };
}
