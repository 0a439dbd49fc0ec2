// The lookups of existing resources against the emulator on both APIs: resources made through the
// v1 client (the versions share one store) are read back by id, templates and registry auths also
// by name, with the resource classes' output names; missing ids fail naming the kind and the id.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ManagementClient } from "../../client/management";
import { NotFoundError } from "../../client/errors";
import { GpuCloudError } from "../../client/gpuCloudError";
import { outputNames } from "../../model/fields/fieldTable";
import { podTable } from "../../model/kinds/pod/podFields";
import { endpointTable } from "../../model/kinds/endpoint/endpointFields";
import {
  getEndpoint,
  getNetworkVolume,
  getPod,
  getRegistryAuth,
  getTemplate,
  LookupArgsError,
  LookupNotFoundError,
  type EndpointInfo,
  type PodInfo,
  type RegistryAuthInfo,
} from "../../sdk/lookups";

let emulator: RunningEmulator;
let client: ManagementClient;
const ids = { pod: "", endpoint: "", template: "", volume: "", auth: "" };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 0.001 });
  client = new ManagementClient({ baseUrl: emulator.apiUrl, apiKey: emulator.apiKey });
  ids.template = (await client.createTemplate({ name: "lookup-tpl", imageName: "worker:1", isServerless: true, env: { MODE: "fast" } })).id;
  ids.volume = (await client.createNetworkVolume({ name: "lookup-vol", size: 25, dataCenterId: "EU-RO-1" })).id;
  ids.auth = (await client.createRegistryAuth({ name: "lookup-creds", username: "bot", password: "pw" })).id;
  ids.pod = (
    await client.createPod({
      name: "lookup-pod",
      imageName: "pytorch:2.4",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 1,
      env: { LOG_LEVEL: "info" },
    })
  ).id;
  ids.endpoint = (
    await client.createEndpoint({ name: "lookup-ep", templateId: ids.template, gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 2 })
  ).id;
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe.each(["v1", "v2"] as const)("lookups on %s", (version) => {
  const options = () => ({ apiUrl: version === "v1" ? emulator.apiUrl : emulator.apiUrlV2, apiKey: emulator.apiKey });

  it("getPod reads a pod by id with the Pod class's output names", async () => {
    const pod = await getPod({ id: ids.pod }, options());
    expect(pod).toMatchObject({ id: ids.pod, name: "lookup-pod", imageName: "pytorch:2.4", gpuCount: 1, gpuTypeId: "NVIDIA L4" });
    expect(pod.env).toMatchObject({ LOG_LEVEL: "info" });
    expect(["RUNNING", "EXITED"]).toContain(pod.desiredStatus);
    const known = new Set(["id", ...outputNames(podTable)]);
    expect(Object.keys(pod).filter((k) => !known.has(k))).toEqual([]);
  });

  it("getEndpoint reads an endpoint by id: worker counts (and the template on v1)", async () => {
    const endpoint = await getEndpoint({ id: ids.endpoint }, options());
    expect(endpoint).toMatchObject({ id: ids.endpoint, name: "lookup-ep", workersMin: 0, workersMax: 2 });
    // v2's endpoint object does not name its template: only v1 reports templateId.
    expect(endpoint.templateId).toBe(version === "v1" ? ids.template : undefined);
    const known = new Set(["id", ...outputNames(endpointTable)]);
    expect(Object.keys(endpoint).filter((k) => !known.has(k))).toEqual([]);
  });

  it("getNetworkVolume reads size (GB) and data center", async () => {
    expect(await getNetworkVolume({ id: ids.volume }, options())).toMatchObject({
      id: ids.volume,
      name: "lookup-vol",
      size: 25,
      dataCenterId: "EU-RO-1",
    });
  });

  it("getTemplate reads by id and by its unique name, the same template", async () => {
    const byId = await getTemplate({ id: ids.template }, options());
    expect(byId).toMatchObject({ id: ids.template, name: "lookup-tpl", imageName: "worker:1", isServerless: true, env: { MODE: "fast" } });
    expect(await getTemplate({ name: "lookup-tpl" }, options())).toEqual(byId);
  });

  it("getRegistryAuth reads id and name (never the credentials), by id or name", async () => {
    const byId = await getRegistryAuth({ id: ids.auth }, options());
    expect(byId).toEqual({ id: ids.auth, name: "lookup-creds" });
    expect(await getRegistryAuth({ name: "lookup-creds" }, options())).toEqual(byId);
  });

  it("a missing id fails with a LookupNotFoundError naming the kind and the id", async () => {
    const error = await getPod({ id: "no-such-pod" }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupNotFoundError);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(GpuCloudError);
    expect((error as Error).message).toMatch(/^getPod: no pod with id "no-such-pod" \(.*404/);
    expect(error).toMatchObject({ resourceKind: "pod", lookedUp: { id: "no-such-pod" } });
    const volume = await getNetworkVolume({ id: "vol-missing" }, options()).catch((e: unknown) => e);
    expect((volume as Error).message).toMatch(/^getNetworkVolume: no network volume with id "vol-missing"/);
  });

  it("a missing name fails the same way", async () => {
    const error = await getTemplate({ name: "nobody-made-this" }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupNotFoundError);
    expect((error as Error).message).toMatch(
      /^getTemplate: no template with name "nobody-made-this" \(the service lists none by that name\)/,
    );
  });
});

describe("lookup result types", () => {
  it("are the resource classes' outputs as plain values", () => {
    expectTypeOf<PodInfo["id"]>().toEqualTypeOf<string>();
    expectTypeOf<PodInfo["publicIp"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PodInfo["portMappings"]>().toEqualTypeOf<Record<string, number> | undefined>();
    expectTypeOf<EndpointInfo["workersMax"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<PodInfo>().not.toHaveProperty("urn");
    expectTypeOf<keyof RegistryAuthInfo>().toEqualTypeOf<"id" | "name">();
  });
});

describe("lookup arguments", () => {
  const options = () => ({ apiUrl: emulator.apiUrl, apiKey: emulator.apiKey });

  it("refuse an empty id, naming the value and what to give", async () => {
    const error = await getPod({ id: " " }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupArgsError);
    expect((error as Error).message).toBe('getPod: {"id":" "} is not a lookup key: give { id: "<pod id>" }, each a non-empty string.');
  });

  it("refuse a name for kinds whose names are not unique", async () => {
    const error = await getEndpoint({ name: "lookup-ep" } as unknown as { id: string }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupArgsError);
    expect((error as Error).message).toContain('give { id: "<endpoint id>" }');
  });

  it("a terminated pod counts as missing", async () => {
    const pod = await client.createPod({ name: "short-lived", imageName: "img" });
    await client.deletePod(pod.id);
    const error = await getPod({ id: pod.id }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LookupNotFoundError);
    expect((error as Error).message).toContain(`getPod: no pod with id "${pod.id}"`);
  });
});
