import { describe, expect, expectTypeOf, it } from "vitest";
import type { EndpointUpdateInput, NetworkVolumeUpdateInput, PodUpdateInput, TemplateUpdateInput } from "../../../client/inputs";
import { endpointTable, type EndpointArgs as EndpointArgsChecked } from "../../../model/kinds/endpoint/endpointFields";
import { createBodyOf, fieldsOfKind, inputFields, outputNames, serviceFields, type ResourceTable } from "../../../model/fields/fieldTable";
import {
  networkVolumeTable,
  type NetworkVolumeArgs as NetworkVolumeArgsChecked,
} from "../../../model/kinds/networkVolume/networkVolumeFields";
import { podTable, type PodArgs as PodArgsChecked } from "../../../model/kinds/pod/podFields";
import { registryAuthTable, type RegistryAuthArgs as RegistryAuthArgsChecked } from "../../../model/kinds/registryAuth/registryAuthFields";
import { templateTable, type TemplateArgs as TemplateArgsChecked } from "../../../model/kinds/template/templateFields";
import { secretTable, type SecretArgs as SecretArgsChecked } from "../../../model/kinds/secret/secretFields";
import type { SecretUpdateBody } from "../../../client/managementV2";
import type { EndpointArgs, NetworkVolumeArgs, PodArgs, RegistryAuthArgs, SecretArgs, TemplateArgs } from "../../../sdk/index";

/** Every key of T, held by the compiler: a key missing here or unknown to T does not compile. */
type AllKeys<T> = { readonly [K in keyof Required<T>]: true };
const keysOf = <T>(all: AllKeys<T>): string[] => Object.keys(all);

// The fields each service update operation accepts, as the client's input types declare them.
const podUpdate = keysOf<PodUpdateInput>({
  name: true,
  imageName: true,
  env: true,
  ports: true,
  containerDiskInGb: true,
  volumeInGb: true,
  volumeMountPath: true,
  dockerEntrypoint: true,
  dockerStartCmd: true,
  containerRegistryAuthId: true,
  globalNetworking: true,
  locked: true,
});
const endpointUpdate = keysOf<EndpointUpdateInput>({
  templateId: true,
  name: true,
  gpuTypeIds: true,
  gpuCount: true,
  allowedCudaVersions: true,
  minCudaVersion: true,
  cpuFlavorIds: true,
  vcpuCount: true,
  dataCenterIds: true,
  networkVolumeId: true,
  networkVolumeIds: true,
  workersMin: true,
  workersMax: true,
  idleTimeout: true,
  executionTimeoutMs: true,
  scalerType: true,
  scalerValue: true,
  flashboot: true,
});
const templateUpdate = keysOf<TemplateUpdateInput>({
  name: true,
  imageName: true,
  isPublic: true,
  containerDiskInGb: true,
  volumeInGb: true,
  volumeMountPath: true,
  containerRegistryAuthId: true,
  dockerEntrypoint: true,
  dockerStartCmd: true,
  env: true,
  ports: true,
  readme: true,
  startSsh: true,
  startJupyter: true,
});
const volumeUpdate = keysOf<NetworkVolumeUpdateInput>({ name: true, size: true });
const secretUpdate = keysOf<SecretUpdateBody>({ value: true, description: true });

const specs: Record<string, { table: ResourceTable<never>; updateKeys: string[] }> = {
  pod: { table: podTable, updateKeys: podUpdate },
  endpoint: { table: endpointTable, updateKeys: endpointUpdate },
  template: { table: templateTable, updateKeys: templateUpdate },
  networkVolume: { table: networkVolumeTable, updateKeys: volumeUpdate },
  registryAuth: { table: registryAuthTable, updateKeys: [] },
  secret: { table: secretTable, updateKeys: secretUpdate },
};

const local = (table: ResourceTable<never>) =>
  Object.entries(table.fields)
    .filter(([, p]) => p.local)
    .map(([n]) => n);

describe.each(Object.entries(specs))("%s field table", (_kind, { table, updateKeys }) => {
  it("computes the argument schema from its rows: every input row is an argument, every argument a service field or a provider argument", () => {
    expect(inputFields(table).sort()).toEqual(Object.keys(table.schema.shape).sort());
    expect([...serviceFields(table), ...local(table)].sort()).toEqual(Object.keys(table.schema.shape).sort());
  });

  it("updates in place exactly the fields the service's update accepts; every other service field replaces", () => {
    const inPlace = fieldsOfKind(table, "update").filter((f) => !table.fields[f]?.local);
    expect(inPlace.sort()).toEqual([...updateKeys].sort());
    for (const field of serviceFields(table))
      if (!updateKeys.includes(field)) expect(`${field}: ${table.fields[field]?.kind}`).toBe(`${field}: replace`);
  });

  it("registers an output for every service field and every reported value, and none for provider-only arguments", () => {
    const outputs = outputNames(table);
    for (const field of serviceFields(table)) expect(outputs).toContain(field);
    for (const field of fieldsOfKind(table, "serverManaged")) expect(outputs).toContain(field);
    for (const field of local(table)) if (!table.fields[field]?.alwaysObserved) expect(outputs).not.toContain(field);
  });
});

describe("SDK Args interfaces match the checked arguments", () => {
  it("have the same keys as the field tables' arguments", () => {
    expectTypeOf<keyof PodArgs>().toEqualTypeOf<keyof PodArgsChecked>();
    expectTypeOf<keyof EndpointArgs>().toEqualTypeOf<keyof EndpointArgsChecked>();
    expectTypeOf<keyof TemplateArgs>().toEqualTypeOf<keyof TemplateArgsChecked>();
    expectTypeOf<keyof NetworkVolumeArgs>().toEqualTypeOf<keyof NetworkVolumeArgsChecked>();
    expectTypeOf<keyof RegistryAuthArgs>().toEqualTypeOf<keyof RegistryAuthArgsChecked>();
    expectTypeOf<keyof SecretArgs>().toEqualTypeOf<keyof SecretArgsChecked>();
  });
});

describe("create body", () => {
  it("holds the declared service fields only: no provider arguments, no undefined or null values", () => {
    const args = {
      name: "p",
      imageName: "img",
      gpuCount: undefined,
      volumeInGb: null,
      readyTimeoutSeconds: 5,
      desiredStatus: "EXITED",
      restartTrigger: "x",
    };
    expect(createBodyOf(podTable, args as never)).toEqual({ name: "p", imageName: "img" });
  });

  it("covers the reference's create fields", () => {
    // 33 of v1's create plus v2's startSsh and startJupyter.
    expect(serviceFields(podTable)).toHaveLength(35);
    // `type` travels beside the v1 body (as a name marker), so it is a service field too.
    expect(serviceFields(endpointTable)).toHaveLength(20);
    // 14 of v1 plus v2's startSsh and startJupyter.
    expect(serviceFields(templateTable)).toHaveLength(16);
  });
});
