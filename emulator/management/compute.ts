/**
 * What a pod or a serverless worker asks to run on, as the current API states it: a rentable GPU
 * type, a CPU flavor with a power-of-two vCPU count, and the CUDA versions a GPU one accepts (v2
 * `gpu.allowedCudaVersions`, `gpu.minCudaVersion`). /v1 reads its types and flavors through its
 * request schemas and checks none of the rules below; each rule names the field as v2 does.
 */
import { CUDA_VERSIONS, GPU_TYPES, type GpuType, POD_CPU_FLAVOR_IDS, isPowerOfTwo } from "../vocabulary/catalog";
import { invalid } from "./errors";

/** A GPU type a v2 client may name: known, and not a legacy spelling. */
export function requireRentableGpu(id: string, field: string): GpuType {
  const type = GPU_TYPES.get(id);
  if (!type || type.legacy) throw invalid(field, `unknown GPU type ${JSON.stringify(id)}; list them with GET /api/v2/catalog/gpus`);
  return type;
}

/** A CPU flavor of those `flavors` (a pod's or an endpoint's), named `what` in the message. */
export function requireCpuFlavor(flavors: readonly string[], id: string, field: string, what: string): void {
  if (!flavors.includes(id)) throw invalid(field, `unknown ${what} ${JSON.stringify(id)}; one of ${flavors.join(", ")}`);
}

/** A pod or worker takes a power-of-two vCPU count (so no other count can be available either). */
export function requireVcpuCount(count: number, field: string): void {
  if (!isPowerOfTwo(count)) throw invalid(field, `must be a power of two (2, 4, 8, ...), got ${count}`);
}

/** A v2 body names exactly one compute family, `gpu` or `cpu`; `what` says what each makes ("a GPU pod", "a CPU pod"). */
export function requireOneFamily(gpu: unknown, cpu: unknown, what: readonly [gpu: string, cpu: string]): void {
  if ((gpu === undefined) === (cpu === undefined))
    throw invalid(gpu ? "cpu" : "gpu", `supply exactly one of gpu (${what[0]}) or cpu (${what[1]})`);
}

/** A v2 pod's compute: a rentable GPU type and its CUDA versions, or a pod CPU flavor at a power-of-two vCPU count. */
export function requirePodCompute(
  gpu: { id: string; allowedCudaVersions?: string[] | undefined; minCudaVersion?: string | undefined } | undefined,
  cpu: { id: string; vcpuCount: number } | undefined,
): void {
  requireOneFamily(gpu, cpu, ["a GPU pod", "a CPU pod"]);
  if (gpu) {
    requireRentableGpu(gpu.id, "gpu.id");
    checkCuda(gpu.allowedCudaVersions, gpu.minCudaVersion);
  }
  if (cpu) {
    requireCpuFlavor(POD_CPU_FLAVOR_IDS, cpu.id, "cpu.id", "CPU flavor");
    requireVcpuCount(cpu.vcpuCount, "cpu.vcpuCount");
  }
}

/**
 * CreateGpuConfig / CreateEndpointGpuConfig / UpdateEndpointGpuConfig: "Mutually exclusive with a
 * non-empty allowedCudaVersions (400 if both are sent)" (management-api-v2-today.md 6.1 #4: "A
 * non-empty set plus a floor → 400"); an explicit `[]` / `""` clears one. An endpoint is checked as
 * the PATCH would leave it (an assumption, emulator/README.md): a floor sent while a set is stored
 * is refused unless the same PATCH clears the set with `[]`.
 */
export function checkCuda(allowed: readonly string[] | null | undefined, min: string | null | undefined): void {
  if (allowed && allowed.length > 0 && min) {
    throw invalid("gpu.minCudaVersion", "give either a non-empty gpu.allowedCudaVersions or gpu.minCudaVersion, not both");
  }
}

/**
 * A floor as the list a pod record keeps: every known version at or above it. A floor above every
 * known version is kept as itself, so that it still narrows (to a version no machine reports:
 * placement.ts answers the capacity error) rather than reading as an empty list, which means any.
 */
export function versionsFrom(min: string): string[] {
  const [major = 0, minor = 0] = min.split(".").map(Number);
  const known = CUDA_VERSIONS.filter((v) => {
    const [a = 0, b = 0] = v.split(".").map(Number);
    return a > major || (a === major && b >= minor);
  });
  return known.length > 0 ? known : [min];
}
