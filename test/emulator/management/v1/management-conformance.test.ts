/**
 * Conformance: every response body the emulator sends is checked against the service's own
 * schemas (../shared/reference/management-api-schemas.txt), transcribed below as field -> JSON
 * type. Every field returned must be documented there with the right type; the important ones
 * must be present. The table is written by hand from the reference, not derived from the
 * emulator's code, so a drift in either shows up here.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import {
  type Api,
  FakeServerless,
  GPU_POD,
  type Json,
  api,
  createServerlessTemplate,
  startTestEmulator,
} from "../../../support/managementHelpers";

type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object";

interface FieldSpec {
  type: JsonType;
  /** Documented nullable=true, or documented with example=null. */
  nullable?: true;
  /** Nested object or array item schema (a key of SCHEMAS), or "string" items. */
  of?: string;
}

interface SchemaSpec {
  fields: Record<string, FieldSpec>;
  /** Fields every response of this schema must carry. */
  required: string[];
}

const s = (type: JsonType, extra: Omit<FieldSpec, "type"> = {}): FieldSpec => ({ type, ...extra });
const strings = s("array", { of: "string" });

const SCHEMAS: Record<string, SchemaSpec> = {
  Pod: {
    fields: {
      adjustedCostPerHr: s("number"),
      aiApiId: s("string", { nullable: true }),
      consumerUserId: s("string"),
      containerDiskInGb: s("integer"),
      containerRegistryAuthId: s("string"),
      costPerHr: s("number"),
      cpuFlavorId: s("string"),
      desiredStatus: s("string"),
      dockerEntrypoint: strings,
      dockerStartCmd: strings,
      endpointId: s("string", { nullable: true }),
      env: s("object", { of: "StringMap" }),
      gpu: s("object", { of: "GpuType" }),
      id: s("string"),
      image: s("string"),
      interruptible: s("boolean"),
      lastStartedAt: s("string"),
      lastStatusChange: s("string"),
      locked: s("boolean"),
      machine: s("object", { of: "Machine" }),
      machineId: s("string"),
      memoryInGb: s("number"),
      name: s("string"),
      networkVolume: s("object", { of: "NetworkVolume" }),
      portMappings: s("object", { nullable: true, of: "IntMap" }),
      ports: strings,
      publicIp: s("string", { nullable: true }),
      savingsPlans: s("array", { of: "SavingsPlan" }),
      slsVersion: s("integer"),
      templateId: s("string", { nullable: true }),
      vcpuCount: s("number"),
      volumeEncrypted: s("boolean"),
      volumeInGb: s("integer"),
      volumeMountPath: s("string"),
      // Reported in NOTES.md section 1 ("The Pod image may come back as image or imageName"),
      // and the includeTemplate query parameter of GET /pods documents an embedded template.
      imageName: s("string"),
      template: s("object", { of: "Template" }),
    },
    required: [
      "id",
      "name",
      "desiredStatus",
      "image",
      "env",
      "ports",
      "costPerHr",
      "publicIp",
      "portMappings",
      "containerDiskInGb",
      "volumeInGb",
      "volumeMountPath",
      "locked",
      "interruptible",
      "machineId",
      "vcpuCount",
      "memoryInGb",
    ],
  },
  Machine: {
    fields: {
      costPerHr: s("number"),
      cpuCount: s("integer"),
      cpuType: s("object", { of: "CpuType" }),
      cpuTypeId: s("string"),
      currentPricePerGpu: s("number"),
      dataCenterId: s("string"),
      diskThroughputMBps: s("integer"),
      gpuAvailable: s("integer"),
      gpuDisplayName: s("string"),
      gpuType: s("object", { of: "GpuType" }),
      gpuTypeId: s("string"),
      location: s("string"),
      maintenanceEnd: s("string"),
      maintenanceNote: s("string"),
      maintenanceStart: s("string"),
      maxDownloadSpeedMbps: s("integer"),
      maxUploadSpeedMbps: s("integer"),
      minPodGpuCount: s("integer"),
      note: s("string"),
      secureCloud: s("boolean"),
      supportPublicIp: s("boolean"),
    },
    required: ["dataCenterId", "costPerHr", "secureCloud"],
  },
  // Pod.gpu / Machine.gpuType: the reference lists the property names only; types follow their meaning.
  GpuType: {
    fields: {
      id: s("string"),
      count: s("integer"),
      displayName: s("string"),
      securePrice: s("number"),
      communityPrice: s("number"),
      oneMonthPrice: s("number"),
      threeMonthPrice: s("number"),
      sixMonthPrice: s("number"),
      oneWeekPrice: s("number"),
      communitySpotPrice: s("number"),
      secureSpotPrice: s("number"),
    },
    required: ["id", "displayName"],
  },
  CpuType: {
    fields: { id: s("string"), displayName: s("string"), cores: s("integer"), threadsPerCore: s("integer"), groupId: s("string") },
    required: ["id"],
  },
  SavingsPlan: {
    fields: {
      costPerHr: s("number"),
      endTime: s("string"),
      gpuTypeId: s("string"),
      id: s("string"),
      podId: s("string"),
      startTime: s("string"),
    },
    required: [],
  },
  NetworkVolume: {
    fields: { dataCenterId: s("string"), id: s("string"), name: s("string"), size: s("integer") },
    required: ["dataCenterId", "id", "name", "size"],
  },
  Template: {
    fields: {
      category: s("string"),
      containerDiskInGb: s("integer"),
      containerRegistryAuthId: s("string"),
      dockerEntrypoint: strings,
      dockerStartCmd: strings,
      earned: s("number"),
      env: s("object", { of: "StringMap" }),
      id: s("string"),
      imageName: s("string"),
      isPublic: s("boolean"),
      isServerless: s("boolean"),
      name: s("string"),
      ports: strings,
      readme: s("string"),
      runtimeInMin: s("integer"),
      volumeInGb: s("integer"),
      volumeMountPath: s("string"),
    },
    required: [
      "category",
      "containerDiskInGb",
      "dockerEntrypoint",
      "dockerStartCmd",
      "env",
      "id",
      "imageName",
      "isPublic",
      "isServerless",
      "name",
      "ports",
      "readme",
      "volumeInGb",
      "volumeMountPath",
    ],
  },
  Endpoint: {
    fields: {
      allowedCudaVersions: strings,
      computeType: s("string"),
      createdAt: s("string"),
      dataCenterIds: strings,
      env: s("object", { of: "StringMap" }),
      executionTimeoutMs: s("integer"),
      gpuCount: s("integer"),
      gpuTypeIds: strings,
      id: s("string"),
      idleTimeout: s("integer"),
      instanceIds: strings,
      minCudaVersion: s("string"),
      name: s("string"),
      networkVolumeId: s("string"),
      networkVolumeIds: strings,
      scalerType: s("string"),
      scalerValue: s("integer"),
      template: s("object", { of: "Template" }),
      templateId: s("string"),
      userId: s("string"),
      version: s("integer"),
      workers: s("array", { of: "Pod" }),
      workersMax: s("integer"),
      workersMin: s("integer"),
    },
    required: [
      "id",
      "name",
      "templateId",
      "computeType",
      "gpuTypeIds",
      "gpuCount",
      "dataCenterIds",
      "idleTimeout",
      "scalerType",
      "scalerValue",
      "workersMin",
      "workersMax",
      "version",
      "executionTimeoutMs",
      "createdAt",
      "userId",
      "env",
    ],
  },
  ContainerRegistryAuth: {
    fields: { id: s("string"), name: s("string") },
    required: ["id", "name"],
  },
  BillingRecord: {
    fields: {
      amount: s("number"),
      diskSpaceBilledGb: s("integer"),
      endpointId: s("string"),
      gpuTypeId: s("string"),
      podId: s("string"),
      time: s("string"),
      timeBilledMs: s("integer"),
    },
    required: ["amount", "diskSpaceBilledGb", "time", "timeBilledMs"],
  },
  NetworkVolumeBillingRecord: {
    fields: {
      amount: s("number"),
      diskSpaceBilledGb: s("integer"),
      highPerformanceStorageAmount: s("number"),
      highPerformanceStorageDiskSpaceBilledGb: s("integer"),
      time: s("string"),
    },
    required: ["amount", "diskSpaceBilledGb", "highPerformanceStorageAmount", "highPerformanceStorageDiskSpaceBilledGb", "time"],
  },
  // `{"error": "..."}`; NOTES.md adds `status` ("pod not found","status":404).
  Error: { fields: { error: s("string"), status: s("integer") }, required: ["error"] },
};

function jsonTypeOf(value: unknown): JsonType | "null" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

function typeMatches(want: JsonType, got: JsonType | "null"): boolean {
  return want === got || (want === "number" && got === "integer");
}

/** Returns problems found in `value` as `schema`. */
function check(schema: string, value: unknown, path: string, problems: string[]): void {
  if (schema === "string") {
    if (typeof value !== "string") problems.push(`${path}: expected string, got ${jsonTypeOf(value)}`);
    return;
  }
  if (schema === "StringMap" || schema === "IntMap") {
    const item = schema === "StringMap" ? "string" : "integer";
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (jsonTypeOf(v) !== item) problems.push(`${path}.${key}: expected ${item}, got ${jsonTypeOf(v)}`);
    }
    return;
  }
  const spec = SCHEMAS[schema];
  if (!spec) throw new Error(`no schema ${schema}`);
  if (jsonTypeOf(value) !== "object") {
    problems.push(`${path}: expected object (${schema}), got ${jsonTypeOf(value)}`);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const field of spec.required) if (!(field in record)) problems.push(`${path}.${field}: missing (${schema})`);
  for (const [field, fieldValue] of Object.entries(record)) {
    const fieldSpec = spec.fields[field];
    const at = `${path}.${field}`;
    if (!fieldSpec) {
      problems.push(`${at}: not a documented field of ${schema}`);
      continue;
    }
    const got = jsonTypeOf(fieldValue);
    if (got === "null") {
      if (!fieldSpec.nullable) problems.push(`${at}: null but ${schema}.${field} is not nullable`);
      continue;
    }
    if (!typeMatches(fieldSpec.type, got)) {
      problems.push(`${at}: expected ${fieldSpec.type}, got ${got}`);
      continue;
    }
    if (fieldSpec.of) {
      if (fieldSpec.type === "array") {
        for (const [i, item] of (fieldValue as unknown[]).entries()) check(fieldSpec.of, item, `${at}[${i}]`, problems);
      } else check(fieldSpec.of, fieldValue, at, problems);
    }
  }
}

let emu: RunningEmulator;
let client: Api;
const fake = new FakeServerless();
/** Every response body seen, with the schema it must follow. */
const seen: Array<{ what: string; schema: string; body: Json; array: boolean }> = [];

async function expectSchema(what: string, schema: string, res: Promise<{ status: number; body: Json }>, array = false): Promise<Json> {
  const { body } = await res;
  seen.push({ what, schema, body, array });
  return body;
}

beforeAll(async () => {
  emu = await startTestEmulator({ serverlessFactory: fake.factory });
  client = api(emu);
  const all = {
    includeMachine: "true",
    includeNetworkVolume: "true",
    includeSavingsPlans: "true",
    includeTemplate: "true",
    includeWorkers: "true",
  };

  const auth = await expectSchema(
    "create auth",
    "ContainerRegistryAuth",
    client.post("/containerregistryauth", { name: "c", username: "u", password: "p" }),
  );
  await expectSchema("get auth", "ContainerRegistryAuth", client.get(`/containerregistryauth/${auth.id}`));
  await expectSchema("list auths", "ContainerRegistryAuth", client.get("/containerregistryauth"), true);

  const volume = await expectSchema(
    "create volume",
    "NetworkVolume",
    client.post("/networkvolumes", { name: "v", size: 10, dataCenterId: "EU-RO-1" }),
  );
  await expectSchema("patch volume", "NetworkVolume", client.patch(`/networkvolumes/${volume.id}`, { size: 20 }));
  await expectSchema("get volume", "NetworkVolume", client.get(`/networkvolumes/${volume.id}`));
  await expectSchema("list volumes", "NetworkVolume", client.get("/networkvolumes"), true);

  const podTemplate = await expectSchema(
    "create template",
    "Template",
    client.post("/templates", { name: "pod tpl", imageName: "example/t:1", containerRegistryAuthId: auth.id, readme: "r" }),
  );
  await expectSchema("patch template", "Template", client.patch(`/templates/${podTemplate.id}`, { readme: "r2" }));
  await expectSchema("get template", "Template", client.get(`/templates/${podTemplate.id}`));
  await expectSchema(
    "list templates",
    "Template",
    client.get("/templates", { includePublicTemplates: "true", includeServiceTemplates: "true" }),
    true,
  );

  const pod = await expectSchema(
    "create gpu pod",
    "Pod",
    client.post("/pods", { ...GPU_POD, networkVolumeId: volume.id, templateId: podTemplate.id }),
  );
  const cpu = await expectSchema("create cpu pod", "Pod", client.post("/pods", { imageName: "example/c:1", computeType: "CPU" }));
  await new Promise((resolve) => setTimeout(resolve, 40)); // booted: publicIp and portMappings set
  await expectSchema("get pod (all includes)", "Pod", client.get(`/pods/${pod.id}`, all));
  await expectSchema("get cpu pod (all includes)", "Pod", client.get(`/pods/${cpu.id}`, all));
  await expectSchema("patch pod", "Pod", client.patch(`/pods/${pod.id}`, { name: "n" }));
  await expectSchema("update pod", "Pod", client.post(`/pods/${pod.id}/update`, { locked: true }));
  await client.patch(`/pods/${pod.id}`, { locked: false });
  for (const action of ["stop", "start", "restart", "reset"])
    await expectSchema(`${action} pod`, "Pod", client.post(`/pods/${pod.id}/${action}`));

  const workerTemplate = await createServerlessTemplate(client);
  const endpoint = await expectSchema(
    "create endpoint",
    "Endpoint",
    client.post("/endpoints", {
      templateId: workerTemplate.id,
      networkVolumeId: volume.id,
      allowedCudaVersions: ["12.4"],
      minCudaVersion: "12.1",
    }),
  );
  await expectSchema(
    "create cpu endpoint",
    "Endpoint",
    client.post("/endpoints", { templateId: workerTemplate.id, computeType: "CPU", networkVolumeIds: [volume.id] }),
  );
  fake.workerList.set(endpoint.id, [
    { id: "w1", status: "idle", gpuTypeId: "NVIDIA L4", dataCenterId: "EU-RO-1", costPerHr: 0.43, createdAtMs: emu.clock.now() },
    { id: "w2", status: "initializing", gpuTypeId: null, dataCenterId: "EU-RO-1", costPerHr: 0.06, createdAtMs: emu.clock.now() },
  ]);
  await expectSchema("patch endpoint", "Endpoint", client.patch(`/endpoints/${endpoint.id}`, { workersMax: 4 }));
  await expectSchema(
    "get endpoint (all includes)",
    "Endpoint",
    client.get(`/endpoints/${endpoint.id}`, { includeTemplate: "true", includeWorkers: "true" }),
  );
  await expectSchema("list endpoints", "Endpoint", client.get("/endpoints", { includeTemplate: "true", includeWorkers: "true" }), true);
  await expectSchema("list pods with workers", "Pod", client.get("/pods", all), true);

  fake.deps?.recordWorkerUsage({
    accountId: emu.accountIdOf(emu.apiKey),
    endpointId: endpoint.id,
    workerId: "w1",
    templateId: workerTemplate.id,
    imageName: workerTemplate.imageName,
    gpuTypeId: null,
    dataCenterId: "EU-RO-1",
    costPerHr: 0.06,
    startMs: emu.clock.now() - 60_000,
    endMs: emu.clock.now(),
  });
  for (const grouping of ["podId", "gpuTypeId"]) {
    await expectSchema(`pod billing ${grouping}`, "BillingRecord", client.get("/billing/pods", { grouping, bucketSize: "hour" }), true);
  }
  for (const grouping of ["endpointId", "podId", "gpuTypeId"]) {
    await expectSchema(`endpoint billing ${grouping}`, "BillingRecord", client.get("/billing/endpoints", { grouping }), true);
  }
  await expectSchema("volume billing", "NetworkVolumeBillingRecord", client.get("/billing/networkvolumes", { bucketSize: "week" }), true);

  await expectSchema("404", "Error", client.get("/pods/nope"));
  await expectSchema("400", "Error", client.post("/pods", {}));
  await expectSchema("401", "Error", api(emu, "wrong").get("/pods"));
  await expectSchema("405", "Error", client.raw("PUT", "/pods"));
  await expectSchema("409", "Error", client.del(`/networkvolumes/${volume.id}`));
});
afterAll(() => emu.close());

describe("conformance with the reference schemas", () => {
  test("the checker itself catches undocumented fields, wrong types, bad nulls and missing fields", () => {
    const problems: string[] = [];
    check("NetworkVolume", { id: 1, name: "n", size: 1.5, dataCenterId: null, extra: true }, "v", problems);
    check("Endpoint", { id: "e" }, "e", problems);
    expect(problems).toEqual(
      expect.arrayContaining([
        "v.id: expected string, got integer",
        "v.size: expected integer, got number",
        "v.dataCenterId: null but NetworkVolume.dataCenterId is not nullable",
        "v.extra: not a documented field of NetworkVolume",
        "e.templateId: missing (Endpoint)",
      ]),
    );
  });

  test("every response body uses documented fields with documented types", () => {
    const problems: string[] = [];
    for (const { what, schema, body, array } of seen) {
      if (array) {
        expect(Array.isArray(body), what).toBe(true);
        expect(body.length, `${what} returned nothing to check`).toBeGreaterThan(0);
        for (const [i, item] of (body as unknown[]).entries()) check(schema, item, `${what}[${i}]`, problems);
      } else {
        check(schema, body, what, problems);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the scenario covered the optional parts (includes, workers, nullable fields set)", () => {
    const text = JSON.stringify(seen.map((entry) => entry.body));
    for (const field of [
      "machine",
      "networkVolume",
      "savingsPlans",
      "template",
      "workers",
      "instanceIds",
      "cpuFlavorId",
      "containerRegistryAuthId",
      "publicIp",
      "minCudaVersion",
    ]) {
      expect(text, field).toContain(`"${field}":`);
    }
    const booted = seen.find((entry) => entry.what === "get pod (all includes)")?.body;
    expect(booted.publicIp).toEqual(expect.any(String));
    expect(Object.keys(booted.portMappings).length).toBeGreaterThan(0);
  });

  test("the emulator's own OpenAPI response schemas advertise only documented fields", async () => {
    const doc = (await client.get("/openapi.json")).body;
    const problems: string[] = [];
    for (const name of [
      "Pod",
      "Endpoint",
      "Template",
      "NetworkVolume",
      "ContainerRegistryAuth",
      "BillingRecord",
      "NetworkVolumeBillingRecord",
    ]) {
      const properties = Object.keys(doc.components.schemas[name].properties);
      for (const property of properties) if (!SCHEMAS[name]?.fields[property]) problems.push(`${name}.${property}`);
    }
    expect(problems).toEqual([]);
  });
});
