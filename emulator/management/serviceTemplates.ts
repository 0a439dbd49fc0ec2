/**
 * Official templates managed by the service itself (listed with includeServiceTemplates=true,
 * usable by any account through templateId).
 */
import type { TemplateRecord } from "../state/model";

export const SERVICE_ACCOUNT_ID = "service";

function serviceTemplate(fields: Pick<TemplateRecord, "id" | "name" | "imageName" | "isServerless" | "readme" | "ports">): TemplateRecord {
  return {
    accountId: SERVICE_ACCOUNT_ID,
    createdAtMs: Date.UTC(2024, 0, 1),
    category: "NVIDIA",
    containerDiskInGb: 50,
    containerRegistryAuthId: null,
    dockerEntrypoint: [],
    dockerStartCmd: [],
    env: {},
    isPublic: true,
    volumeInGb: 20,
    volumeMountPath: "/workspace",
    ...fields,
  };
}

export const SERVICE_TEMPLATES: ReadonlyMap<string, TemplateRecord> = new Map(
  [
    serviceTemplate({
      id: "svcpytorch",
      name: "PyTorch 2.4 (CUDA 12.4)",
      imageName: "gpucloud/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      isServerless: false,
      readme: "PyTorch with Jupyter and SSH.",
      ports: ["8888/http", "22/tcp"],
    }),
    serviceTemplate({
      id: "svcworker0",
      name: "Serverless worker (Python)",
      imageName: "gpucloud/worker-python:1.0.0",
      isServerless: true,
      readme: "A minimal queue worker.",
      ports: [],
    }),
  ].map((template) => [template.id, template]),
);
