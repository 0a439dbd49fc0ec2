import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, GPU_POD, type Json, api, startTestEmulator } from "../../../support/managementHelpers";

let emu: RunningEmulator;
let client: Api;
let doc: Json;

// Every operation of management-api-paths.txt, as METHOD path.
const REFERENCE_OPERATIONS = [
  "GET /openapi.json",
  "GET /docs",
  "POST /pods",
  "GET /pods",
  "GET /pods/{podId}",
  "PATCH /pods/{podId}",
  "DELETE /pods/{podId}",
  "POST /pods/{podId}/update",
  "POST /pods/{podId}/start",
  "POST /pods/{podId}/stop",
  "POST /pods/{podId}/reset",
  "POST /pods/{podId}/restart",
  "POST /endpoints",
  "GET /endpoints",
  "GET /endpoints/{endpointId}",
  "PATCH /endpoints/{endpointId}",
  "DELETE /endpoints/{endpointId}",
  "POST /endpoints/{endpointId}/update",
  "POST /templates",
  "GET /templates",
  "GET /templates/{templateId}",
  "PATCH /templates/{templateId}",
  "DELETE /templates/{templateId}",
  "POST /templates/{templateId}/update",
  "POST /networkvolumes",
  "GET /networkvolumes",
  "GET /networkvolumes/{networkVolumeId}",
  "PATCH /networkvolumes/{networkVolumeId}",
  "DELETE /networkvolumes/{networkVolumeId}",
  "POST /networkvolumes/{networkVolumeId}/update",
  "POST /containerregistryauth",
  "GET /containerregistryauth",
  "GET /containerregistryauth/{containerRegistryAuthId}",
  "DELETE /containerregistryauth/{containerRegistryAuthId}",
  "GET /billing/pods",
  "GET /billing/endpoints",
  "GET /billing/networkvolumes",
];

beforeAll(async () => {
  emu = await startTestEmulator();
  client = api(emu);
  doc = (await api(emu, null).get("/openapi.json")).body;
});
afterAll(() => emu.close());

describe("GET /v1/openapi.json", () => {
  test("an OpenAPI 3.0 document with exactly the reference's operations", () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.servers).toEqual([{ url: "/v1" }]);
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual([...REFERENCE_OPERATIONS].sort());
  });

  test("every documented query parameter of the reference is described, with enums and defaults", () => {
    const params = (path: string, method = "get") =>
      Object.fromEntries(
        (doc.paths[path][method].parameters as Array<{ name: string; in: string; schema: Json }>)
          .filter((p) => p.in === "query")
          .map((p) => [p.name, p.schema]),
      );
    expect(Object.keys(params("/pods")).sort()).toEqual(
      [
        "computeType",
        "cpuFlavorId",
        "dataCenterId",
        "desiredStatus",
        "endpointId",
        "gpuTypeId",
        "id",
        "imageName",
        "includeMachine",
        "includeNetworkVolume",
        "includeSavingsPlans",
        "includeTemplate",
        "includeWorkers",
        "name",
        "networkVolumeId",
        "templateId",
      ].sort(),
    );
    expect(params("/billing/pods").grouping).toMatchObject({ enum: ["podId", "gpuTypeId"], default: "gpuTypeId" });
    expect(params("/billing/endpoints").grouping).toMatchObject({ enum: ["endpointId", "podId", "gpuTypeId"], default: "endpointId" });
    expect(params("/billing/networkvolumes").bucketSize).toMatchObject({ enum: ["hour", "day", "week", "month", "year"], default: "day" });
    expect(params("/billing/endpoints").dataCenterId.type).toBe("array");
    expect(params("/pods/{podId}").includeMachine).toMatchObject({ type: "boolean", default: false });
    expect(Object.keys(params("/templates")).sort()).toEqual([
      "includeEndpointBoundTemplates",
      "includePublicTemplates",
      "includeServiceTemplates",
    ]);
  });

  test("request bodies reference strict schemas with the reference's constraints", () => {
    const schemas = doc.components.schemas;
    expect(doc.paths["/pods"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/PodCreateInput" });
    expect(schemas.PodUpdateInput.additionalProperties).toBe(false);
    expect(Object.keys(schemas.PodUpdateInput.properties).sort()).toEqual(
      [
        "containerDiskInGb",
        "containerRegistryAuthId",
        "dockerEntrypoint",
        "dockerStartCmd",
        "env",
        "globalNetworking",
        "imageName",
        "locked",
        "name",
        "ports",
        "volumeInGb",
        "volumeMountPath",
      ].sort(),
    );
    expect(schemas.EndpointCreateInput.required).toEqual(["templateId"]);
    expect(schemas.EndpointCreateInput.properties.idleTimeout).toMatchObject({ minimum: 1, maximum: 3600, default: 5 });
    expect(schemas.EndpointUpdateInput.properties.computeType).toBeUndefined();
    expect(schemas.NetworkVolumeCreateInput.properties.size).toMatchObject({ type: "integer", minimum: 0, maximum: 4000 });
    expect(schemas.TemplateUpdateInput.properties.category).toBeUndefined();
    expect(schemas.TemplateUpdateInput.properties.isServerless).toBeUndefined();
    expect(schemas.ContainerRegistryAuthCreateInput.required.sort()).toEqual(["name", "password", "username"]);
    expect(schemas.PodCreateInput.properties.containerDiskInGb.default).toBe(50);
    expect(schemas.PodCreateInput.properties.gpuTypeIds.items.enum).toContain("NVIDIA GeForce RTX 4090");
  });

  test("statuses: documented success codes, 401 on every non-public operation, bearer security", () => {
    expect(Object.keys(doc.paths["/pods"].post.responses)).toContain("201");
    expect(Object.keys(doc.paths["/pods/{podId}"].delete.responses)).toContain("204");
    expect(doc.paths["/openapi.json"].get.security).toEqual([]);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (path === "/openapi.json" || path === "/docs") continue;
        expect(Object.keys(op.responses), `${method} ${path}`).toContain("401");
      }
    }
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: "http", scheme: "bearer" });
  });

  test("what a refusal answers is documented: the spend cap's 402 on the routes that start a pod", async () => {
    const capped = await startTestEmulator({ spendCapPerHour: 0.01 });
    try {
      const refused = await api(capped).post("/pods", GPU_POD);
      expect(refused.status).toBe(402);
    } finally {
      await capped.close();
    }
    for (const [path, method] of [
      ["/pods", "post"],
      ["/pods/{podId}/start", "post"],
      ["/pods/{podId}/restart", "post"],
    ] as const) {
      expect(Object.keys(doc.paths[path][method].responses), `${method} ${path}`).toEqual(expect.arrayContaining(["402", "409"]));
    }
    expect(doc.paths["/pods/{podId}/stop"].post.responses["402"]).toBeUndefined();
  });

  test("served the same with or without a key, as JSON", async () => {
    const res = await client.get("/openapi.json");
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual(doc);
  });
});
