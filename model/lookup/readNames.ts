// The reads beyond the lookups of one resource (v2 API only), by name: the SDK's functions
// (sdk/reads.ts, sdk/billingV2.ts) and the provider plugin's functions of the same names
// (`gpucloud:index:<name>`) are these. Apart from reads.ts, which loads zod and the clients.

/** An endpoint's workers and releases, the public templates, a pod's and a worker's recent log lines. */
export const RESOURCE_READS = ["getEndpointWorkers", "getEndpointReleases", "getPublicTemplates", "getPodLog", "getWorkerLog"] as const;

/** One per billing history of the reference: the aggregate, pods, serverless, public endpoints, network volumes, clusters. */
export const BILLING_READS = [
  "getAccountBilling",
  "getPodBilling",
  "getServerlessBilling",
  "getPublicEndpointBilling",
  "getNetworkVolumeBilling",
  "getClusterBilling",
] as const;

export type ResourceRead = (typeof RESOURCE_READS)[number];
export type BillingRead = (typeof BILLING_READS)[number];
export type ReadName = ResourceRead | BillingRead;
export const READ_NAMES: readonly ReadName[] = [...RESOURCE_READS, ...BILLING_READS];
