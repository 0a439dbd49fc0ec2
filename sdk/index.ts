// Public entry point of pulumi-gpucloud: re-exports only, after the Node.js version check.
import "../client/nodeVersionGuard";
export { Pod, type PodArgs } from "./pod";
export { Endpoint, type EndpointArgs } from "./endpoint";
export { NetworkVolume, type NetworkVolumeArgs } from "./networkVolume";
export { Template, type TemplateArgs } from "./template";
export { RegistryAuth, type RegistryAuthArgs } from "./registryAuth";
export { Secret, type SecretArgs } from "./secret";
export type { Integer } from "../client/integer";
export type { CostEstimate } from "../model/cost/estimate";
export { CostReport, type CostReportArgs, type PricedResource } from "./costReport";
export { AccountSshKeys, type AccountSshKeysArgs } from "./accountSshKeys";
export type { CostBudget } from "../model/cost/summary";
export { EndpointRollout, type EndpointRolloutArgs, type RolloutEndpointArgs, type RolloutTemplateArgs } from "./endpointRollout";
export {
  getBilling,
  getBillingOutput,
  BillingQueryError,
  type BillingKind,
  type BillingOptions,
  type BillingRecord,
  type EndpointBillingArgs,
  type GetBillingArgs,
  type GetBillingInputs,
  type GetBillingResult,
  type NetworkVolumeBillingArgs,
  type NetworkVolumeBillingRecord,
  type PodBillingArgs,
} from "./billing";
export {
  getGpuTypes,
  getGpuTypesOutput,
  getCpuTypes,
  getCpuTypesOutput,
  getDataCenters,
  getDataCentersOutput,
  type CpuType,
  type DataCenter,
  type GpuType,
} from "./catalog";
export type { LookupOptions } from "./connection";
export {
  getEndpointWorkers,
  getEndpointWorkersOutput,
  getEndpointReleases,
  getEndpointReleasesOutput,
  getPublicTemplates,
  getPublicTemplatesOutput,
  getPodLog,
  getPodLogOutput,
  getWorkerLog,
  getWorkerLogOutput,
  type EndpointRelease,
  type EndpointReleases,
  type EndpointWorker,
  type EndpointWorkers,
  type GetEndpointReleasesArgs,
  type GetEndpointWorkersArgs,
  type GetPodLogArgs,
  type GetPublicTemplatesArgs,
  type GetWorkerLogArgs,
  type PublicTemplate,
  type PublicTemplateList,
  type PublicTemplateSource,
  type ReleaseDiffEntry,
  type RolloutSummary,
  type WorkerSummary,
} from "./reads";
export {
  getAccountBilling,
  getAccountBillingOutput,
  getPodBilling,
  getPodBillingOutput,
  getServerlessBilling,
  getServerlessBillingOutput,
  getPublicEndpointBilling,
  getPublicEndpointBillingOutput,
  getNetworkVolumeBilling,
  getNetworkVolumeBillingOutput,
  getClusterBilling,
  getClusterBillingOutput,
  type AccountBillingHistory,
  type AccountBillingRecord,
  type BillingBucketSizeV2,
  type BillingMetadataV2,
  type BillingWindowArgs,
  type ClusterBillingHistory,
  type ClusterBillingRecord,
  type GetClusterBillingArgs,
  type GetNetworkVolumeBillingArgs,
  type GetPodBillingArgs,
  type GetServerlessBillingArgs,
  type NetworkVolumeBillingHistory,
  type NetworkVolumeBillingRecordV2,
  type PodBillingHistory,
  type PodBillingRecordV2,
  type PublicEndpointBillingHistory,
  type PublicEndpointBillingRecord,
  type ResolvedBillingQuery,
  type ServerlessBillingHistory,
  type ServerlessBillingRecordV2,
} from "./billingV2";
export { getAccountLimits, getAccountLimitsOutput, type AccountLimit, type AccountLimits } from "./account";
export {
  getPod,
  getPodOutput,
  getEndpoint,
  getEndpointOutput,
  getNetworkVolume,
  getNetworkVolumeOutput,
  getTemplate,
  getTemplateOutput,
  getRegistryAuth,
  getRegistryAuthOutput,
  getSecret,
  getSecretOutput,
  LookupArgsError,
  LookupNotFoundError,
  LookupError,
  type ByIdArgs,
  type ByIdOrNameArgs,
  type EndpointInfo,
  type LookupInputs,
  type NetworkVolumeInfo,
  type PodInfo,
  type RegistryAuthInfo,
  type SecretInfo,
  type TemplateInfo,
} from "./lookups";
export {
  JobRunner,
  type JobExpectation,
  type JobRunnerArgs,
  type JobRunnerCase,
  type JobRunnerJobCase,
  type JobRunnerHttpCase,
  type HttpExpectation,
  type JobRunnerCaseResult,
  type JobStatus,
  type OutputPredicate,
} from "./jobRunner";
export {
  JobClient,
  JobRequestError,
  JobWaitTimeoutError,
  OpenAiStreamError,
  FINAL_JOB_STATUSES,
  WORKER_ID_HEADER,
  type EndpointHttpRequest,
  type EndpointHttpResponse,
  type HealthRecord,
  type JobClientOptions,
  type JobRetryInfo,
  type JobInput,
  type JobRecord,
  type OpenAiRequest,
  type PurgeRecord,
  type RequestEntry,
  type RunSyncOptions,
  type ServerSentEvent,
} from "../client/jobClient";
export { GpuCloudError } from "../client/gpuCloudError";
export { ConfigError } from "../client/config";
export {
  ApiError,
  ApiRetiredError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from "../client/errors";
export { PaginationError } from "../client/paginationError";
export { readPodLog, readWorkerLog, type LogLine, type LogReadEnd, type LogSource, type ReadLogOptions, type RecentLog } from "./logs";
