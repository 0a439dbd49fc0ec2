// The reference's enum values, as the client knows them, re-exported for the argument checks.
export {
  CLOUD_TYPES,
  COMPUTE_TYPES,
  CUDA_VERSIONS,
  DATA_CENTER_IDS,
  ENDPOINT_CPU_FLAVOR_IDS as CPU_FLAVOR_IDS_FOR_ENDPOINTS,
  GPU_TYPE_IDS,
  POD_CPU_FLAVOR_IDS as CPU_FLAVOR_IDS_FOR_PODS,
  RENT_PRIORITIES,
  SCALER_TYPES,
  TEMPLATE_CATEGORIES,
} from "../../client/enums";
