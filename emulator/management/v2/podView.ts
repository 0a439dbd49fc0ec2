/**
 * A pod record in the v2 shape: nested `gpu`/`cpu`, container settings, `mounts`, its `status`
 * and the `actions` that status allows (pods/status.ts), `runtime.ports` once RUNNING.
 */
import type { PodRecord } from "../../state/model";
import { CPU_FLAVORS, CUDA_VERSIONS } from "../../vocabulary/catalog";
import type { Pod } from "../../vocabulary/schemas/v2/wire";
import { type ManagementContext, isoTime } from "../context";
import { podActions, podStatus } from "../pods/status";
import { containerView } from "./container";

/** The CUDA version an emulated GPU host reports when the pod did not narrow it. */
export const DEFAULT_HOST_CUDA = "12.8";
const SSH_PROXY_HOST = "ssh.gpucloud.internal";
/**
 * The address an http port reports: the service's shared http proxy, in 100.64.0.0/10, never the
 * pod's own (reference today 6.1 #10: "HTTP ports in runtime.ports report an IP in the proxy's
 * carrier-grade-NAT range 100.64.0.0/10 — not a public address"); `public` is null (assumption:
 * the proxy maps no port of its own; PodRuntimePort.public is nullable).
 */
export const HTTP_PROXY_IP = "100.64.0.1";

export function v2PodView(ctx: ManagementContext, pod: PodRecord): Pod {
  const now = ctx.clock.now();
  const status = podStatus(ctx, pod);
  const running = status === "RUNNING";
  const publicIp = running ? (pod.boot?.publicIp ?? null) : null;
  const mappings = running ? (pod.boot?.portMappings ?? {}) : {};
  const sshPort = mappings["22"];
  const view: Pod = {
    id: pod.id,
    name: pod.name,
    status,
    actions: podActions(status, pod.locked),
    ...containerView(pod),
    cloud: pod.cloudType,
    dataCenterId: pod.dataCenterId,
    // The first allowed version a machine reports (placement.ts: a pod allowing none is not placed).
    cudaVersion:
      pod.computeType === "GPU"
        ? (pod.allowedCudaVersions.find((version) => (CUDA_VERSIONS as readonly string[]).includes(version)) ?? DEFAULT_HOST_CUDA)
        : null,
    ssh: {
      proxy: {
        host: SSH_PROXY_HOST,
        port: 22,
        username: `${pod.id}-${pod.machineId}`,
        command: `ssh ${pod.id}-${pod.machineId}@${SSH_PROXY_HOST}`,
      },
      direct:
        publicIp !== null && sshPort !== undefined && pod.ports.includes("22/tcp")
          ? { host: publicIp, port: sshPort, username: "root", command: `ssh root@${publicIp} -p ${sshPort}` }
          : null,
    },
    // Pod.template: "ID of the template this pod was created from" (management-api-v2-schemas.txt),
    // the link deleteTemplate checks ("Rejected if the template is currently referenced by a pod (see
    // that pod's `template` field)"). A v2 create keeps none (CreatePodRequest.templateId: "the
    // created pod does not retain a link to the template (`template` stays null)"; pods/create.ts
    // keepTemplateLink), so only a pod made through /v1 from a template answers its id.
    template: pod.templateId,
    // Pod.cluster: "Cluster membership; omitted from a standalone pod."
    ...(pod.cluster ? { cluster: { ...pod.cluster } } : {}),
    cost: pod.desiredStatus === "RUNNING" ? pod.costPerHr : 0,
    locked: pod.locked,
    // The value of the running boot (a PATCH takes effect at the next start/restart); a stopped
    // pod shows what its next start will have.
    globalNetworking: (
      running || status === "PROVISIONING" || status === "STARTING"
        ? (pod.boot?.globalNetworking ?? pod.globalNetworking)
        : pod.globalNetworking
    )
      ? {
          enabled: true,
          ip: `10.${pod.id.charCodeAt(0) % 256}.${pod.id.charCodeAt(1) % 256}.${pod.id.charCodeAt(2) % 256}`,
          internalDns: `${pod.id}.gpucloud.internal`,
        }
      : { enabled: false },
    runtime: running
      ? {
          uptime: Math.max(0, Math.floor((now - (pod.boot?.readyAtMs ?? now)) / 1000)),
          gpus: Array.from({ length: pod.gpuCount }, () => ({ util: 0, memoryUtil: 0 })),
          cpu: { util: 0 },
          memory: { util: 0 },
          ports: pod.ports.map((entry) => {
            const [internal = "", type = "tcp"] = entry.split("/");
            if (type === "http") return { private: Number(internal), public: null, type, ip: HTTP_PROXY_IP };
            return { private: Number(internal), public: mappings[internal] ?? null, type, ip: publicIp };
          }),
        }
      : null,
    createdAt: isoTime(pod.createdAtMs),
    startedAt: pod.lastStartedAtMs === null ? null : isoTime(pod.lastStartedAtMs),
  };
  // gpu.vcpuCount and gpu.memory (GB): "required on GPU pods", totals across the pod's GPUs (today 5.2).
  if (pod.computeType === "GPU" && pod.gpuTypeId !== null)
    view.gpu = { id: pod.gpuTypeId, count: pod.gpuCount, vcpuCount: pod.vcpuCount, memory: pod.memoryInGb };
  if (pod.computeType === "CPU" && pod.cpuFlavorId !== null) {
    view.cpu = {
      id: pod.cpuFlavorId,
      vcpuCount: pod.vcpuCount,
      memory: Math.round(pod.vcpuCount * (CPU_FLAVORS.get(pod.cpuFlavorId)?.ramPerVcpuGb ?? 2)),
    };
  }
  return view;
}
