/**
 * The CUDA versions a GPU pod or endpoint accepts (v2 `gpu.allowedCudaVersions`, `gpu.minCudaVersion`;
 * /v1 has only the list, and checks neither rule below).
 */
import { CUDA_VERSIONS } from "../vocabulary/catalog";
import { invalid } from "./errors";

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

/** A floor as the list a pod record keeps: every known version at or above it. */
export function versionsFrom(min: string): string[] {
  const [major = 0, minor = 0] = min.split(".").map(Number);
  return CUDA_VERSIONS.filter((v) => {
    const [a = 0, b = 0] = v.split(".").map(Number);
    return a > major || (a === major && b >= minor);
  });
}
