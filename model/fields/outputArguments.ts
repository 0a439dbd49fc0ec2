// The arguments each resource class registers as outputs (see sdk/argumentOutputs.ts), spelled out:
// the SDK's public declarations name these unions, and deriving them there from the field tables
// would pull the tables' zod types into every user's type check. Each *Fields.ts holds its union
// equal to `OutputArgumentKeys<typeof rows>` at compile time, so a new row cannot be forgotten here.

export type PodOutputArguments =
  | "costEstimate" | "name" | "imageName" | "adjustedCostPerHr" | "costPerHr" | "containerDiskInGb" | "containerRegistryAuthId"
  | "cpuFlavorId" | "dockerEntrypoint" | "dockerStartCmd" | "env" | "interruptible" | "lastStartedAt" | "lastStatusChange"
  | "locked" | "machineId" | "memoryInGb" | "dataCenterId" | "portMappings" | "ports" | "publicIp" | "templateId" | "vcpuCount"
  | "volumeInGb" | "volumeMountPath" | "computeType" | "cloudType" | "gpuCount" | "networkVolumeId" | "globalNetworking"
  | "dataCenterIds" | "startSsh" | "startJupyter" | "gpuDisplayName" | "gpuTypeIds" | "gpuTypePriority" | "allowedCudaVersions"
  | "cpuFlavorIds" | "cpuFlavorPriority" | "dataCenterPriority" | "countryCodes" | "supportPublicIp" | "minRAMPerGPU"
  | "minVCPUPerGPU" | "minDiskBandwidthMBps" | "minDownloadMbps" | "minUploadMbps" | "gpuTypeId";

export type EndpointOutputArguments =
  | "costEstimate" | "name" | "endpointId" | "type" | "templateId" | "vcpuCount" | "computeType" | "gpuCount" | "networkVolumeId"
  | "dataCenterIds" | "gpuTypeIds" | "allowedCudaVersions" | "cpuFlavorIds" | "createdAt" | "executionTimeoutMs" | "flashboot"
  | "idleTimeout" | "minCudaVersion" | "networkVolumeIds" | "scalerType" | "scalerValue" | "version" | "workersMax"
  | "workersMin" | "requestUrls";

export type NetworkVolumeOutputArguments = "costEstimate" | "name" | "size" | "dataCenterId" | "type";

export type TemplateOutputArguments =
  | "name" | "imageName" | "containerDiskInGb" | "containerRegistryAuthId" | "dockerEntrypoint" | "dockerStartCmd" | "env"
  | "ports" | "volumeInGb" | "volumeMountPath" | "startSsh" | "startJupyter" | "category" | "isPublic" | "isServerless"
  | "readme" | "revision";

export type RegistryAuthOutputArguments = "name" | "username" | "password";
