/**
 * The v2 endpoint, template, network volume and registry rules as the reference states them
 * (management-api-v2-today.md sections 5.3, 5.5 and 6.1; emulator/README.md cites each): GPU
 * selection and exclusions, CUDA constraints, compute family, data centers left to the scheduler,
 * the documented statuses, names that need not be unique, volume tiers, registry delete, and the
 * live PATCH defect as an opt-in quirk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_QUEUE_ENDPOINT, V2_GPU_POD, apiV2, expectProblem } from "../../../support/v2Helpers";
import type { Json } from "../../../support/wireJson";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  // Many endpoints of 3 workers each on one account: the worker quota (its own tests are in
  // v2-account.test.ts) and the rate limit (v2-ratelimit.test.ts) are
  // raised so that they are not what these rules run into: the requests here do not pace themselves.
  emu = await startTestEmulator({ serverlessWorkerQuota: 1_000, rateLimit: { perMinute: 100_000 } });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

async function endpoint(change: Record<string, unknown> = {}): Promise<Record<string, Json>> {
  const res = await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, ...change });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

describe("gpu.excludedTypes", () => {
  it("refuses an excluded type that is not in the selected pools (400 naming it)", async () => {
    const problem = expectProblem(
      await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA A40"] } }),
      400,
    );
    expect(problem.detail).toMatch(/^invalid gpu\.excludedTypes\[0\]: "NVIDIA A40" is not a GPU type of the selected pools \(ADA_24\)/);
  });

  it("refuses a type listed twice, also after trimming (422, uniqueItems)", async () => {
    for (const excludedTypes of [
      ["NVIDIA L4", "NVIDIA L4"],
      ["NVIDIA L4", " NVIDIA L4 "],
    ]) {
      const problem = expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: { pools: ["ADA_24"], excludedTypes } }), 422);
      expect(problem.errors?.join("\n")).toMatch(/gpu\.excludedTypes.*twice/);
    }
  });

  it("refuses entries starting with '-' or blank (422) and trims the rest", async () => {
    for (const bad of ["-NVIDIA L4", "   ", " -NVIDIA L4"]) {
      expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: { pools: ["ADA_24"], excludedTypes: [bad] } }), 422);
    }
    const created = await endpoint({ gpu: { pools: ["ADA_24"], excludedTypes: ["  NVIDIA L4 "] } });
    expect(created.gpu.excludedTypes).toEqual(["NVIDIA L4"]);
  });

  it("refuses excluding every type of the selection (400)", async () => {
    const problem = expectProblem(
      await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: { pools: ["ADA_32_PRO"], excludedTypes: ["NVIDIA GeForce RTX 5090"] } }),
      400,
    );
    expect(problem.detail).toMatch(/^invalid gpu\.excludedTypes: excludes every GPU type/);
  });
});

describe("PATCH gpu: pools and exclusions are one selection", () => {
  it("a PATCH without pools leaves pools and exclusions untouched", async () => {
    const created = await endpoint({ gpu: { pools: ["ADA_24", "AMPERE_48"], excludedTypes: ["NVIDIA L4", "NVIDIA A40"] } });
    for (const body of [{ image: "example/worker:2" }, { gpu: { count: 2 } }, { gpu: { minCudaVersion: "12.4" } }]) {
      const res = await v2.patch(`/serverless/${created.id}`, body);
      expect(res.status).toBe(200);
      expect(res.body.gpu).toMatchObject({ pools: ["ADA_24", "AMPERE_48"], excludedTypes: ["NVIDIA L4", "NVIDIA A40"] });
    }
  });

  it("pools replace the selection and clear exclusions not restated", async () => {
    const created = await endpoint({ gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] } });
    const restated = await v2.patch(`/serverless/${created.id}`, { gpu: { pools: ["ADA_24", "AMPERE_48"], excludedTypes: ["NVIDIA L4"] } });
    expect(restated.body.gpu).toMatchObject({ pools: ["ADA_24", "AMPERE_48"], excludedTypes: ["NVIDIA L4"] });
    const cleared = await v2.patch(`/serverless/${created.id}`, { gpu: { pools: ["ADA_24"] } });
    expect(cleared.body.gpu).toMatchObject({ pools: ["ADA_24"], excludedTypes: [] });
  });

  it("refuses excludedTypes without pools (422: the schema's dependentRequired)", async () => {
    const created = await endpoint();
    const problem = expectProblem(await v2.patch(`/serverless/${created.id}`, { gpu: { excludedTypes: ["NVIDIA L4"] } }), 422);
    expect(problem.errors?.join("\n")).toMatch(/gpu\.excludedTypes.*needs gpu\.pools/);
  });
});

describe("CUDA constraints", () => {
  it("refuses a non-empty set and a floor together on create and on PATCH (400)", async () => {
    expectProblem(
      await v2.post("/serverless", {
        ...V2_QUEUE_ENDPOINT,
        gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" },
      }),
      400,
    );
    const created = await endpoint({ gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"] } });
    expect(expectProblem(await v2.patch(`/serverless/${created.id}`, { gpu: { minCudaVersion: "12.1" } }), 400).detail).toMatch(
      /^invalid gpu\.minCudaVersion/,
    );
  });

  it("a GPU endpoint made from a template takes its allowedCudaVersions unless the body gives a set or a floor", async () => {
    // CreateEndpointGpuConfig.allowedCudaVersions: "Omit to accept any version (or inherit the
    // template's constraint when creating from `templateId`)".
    const template = (
      await v2.post("/templates", { name: "cuda-endpoint-tpl", image: "tpl/cuda:1", serverless: true, allowedCudaVersions: ["12.4"] })
    ).body;
    const { image: _image, ...noImage } = V2_QUEUE_ENDPOINT;
    const inherited = await endpoint({ ...noImage, name: "cuda-inherits", templateId: template.id });
    expect(inherited.gpu).toMatchObject({ allowedCudaVersions: ["12.4"] });
    const own = await endpoint({
      ...noImage,
      name: "cuda-own",
      templateId: template.id,
      gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.8"] },
    });
    expect(own.gpu).toMatchObject({ allowedCudaVersions: ["12.8"] });
    const floor = await endpoint({
      ...noImage,
      name: "cuda-floor",
      templateId: template.id,
      gpu: { pools: ["ADA_24"], minCudaVersion: "12.1" },
    });
    expect(floor.gpu).toMatchObject({ minCudaVersion: "12.1" });
    expect(floor.gpu).not.toMatchObject({ allowedCudaVersions: ["12.4"] });
  });

  it('switches from a set to a floor when the PATCH clears the set with [], and back with ""', async () => {
    const created = await endpoint({ gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"] } });
    const floor = await v2.patch(`/serverless/${created.id}`, { gpu: { allowedCudaVersions: [], minCudaVersion: "12.1" } });
    expect(floor.status).toBe(200);
    expect(floor.body.gpu).toMatchObject({ allowedCudaVersions: [], minCudaVersion: "12.1" });
    const set = await v2.patch(`/serverless/${created.id}`, { gpu: { allowedCudaVersions: ["12.8"], minCudaVersion: "" } });
    expect(set.body.gpu).toMatchObject({ allowedCudaVersions: ["12.8"], minCudaVersion: null });
  });

  it("refuses CUDA fields at the top level or on a CPU create (422)", async () => {
    expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, minCudaVersion: "12.1" }), 422);
    expectProblem(
      await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2, minCudaVersion: "12.1" }] }),
      422,
    );
  });
});

describe("compute family", () => {
  it("a create needs exactly one of gpu and cpu (400); a CPU endpoint needs flavors (422, minItems)", async () => {
    expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: undefined }), 400);
    expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), 400);
    expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: undefined, cpu: [] }), 422);
  });

  it("refuses gpu on a CPU endpoint's PATCH and cpu on a GPU one's (400)", async () => {
    const cpu = await endpoint({ gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2 }] });
    expect(expectProblem(await v2.patch(`/serverless/${cpu.id}`, { gpu: { count: 1 } }), 400).detail).toMatch(
      /^invalid gpu: this is a CPU endpoint/,
    );
    const gpu = await endpoint();
    expect(expectProblem(await v2.patch(`/serverless/${gpu.id}`, { cpu: [{ id: "cpu3c", vcpuCount: 2 }] }), 400).detail).toMatch(
      /^invalid cpu: this is a GPU endpoint/,
    );
    // A CPU endpoint's PATCH without gpu works (the documented rule).
    expect((await v2.patch(`/serverless/${cpu.id}`, { name: "renamed cpu" })).status).toBe(200);
  });
});

describe("data centers", () => {
  it("dataCenterIds omitted or [] leaves the choice to the scheduler: answered as []", async () => {
    expect((await endpoint()).dataCenterIds).toEqual([]);
    const chosen = await endpoint({ dataCenterIds: ["EU-RO-1"] });
    expect(chosen.dataCenterIds).toEqual(["EU-RO-1"]);
    expect((await v2.patch(`/serverless/${chosen.id}`, { dataCenterIds: [] })).body.dataCenterIds).toEqual([]);
  });

  it("/v1 shows an endpoint without data centers with every data center, its own default", async () => {
    const created = await endpoint();
    const res = await fetch(`${emu.apiUrl}/endpoints/${created.id}`, { headers: { authorization: `Bearer ${emu.apiKey}` } });
    const v1 = (await res.json()) as { dataCenterIds: string[] };
    expect(v1.dataCenterIds.length).toBeGreaterThan(1);
  });
});

describe("command: args, cmd[] and entrypoint[] on an endpoint (today 5.1, 5.3: the endpoint is built on the container config)", () => {
  it("stores cmd and entrypoint as arrays and answers all three, in the create answer and GET", async () => {
    const created = await endpoint({ name: "cmd-endpoint", entrypoint: ["bash", "-c"], cmd: ["python handler.py --name 'a b'"] });
    expect(created).toMatchObject({ entrypoint: ["bash", "-c"], cmd: ["python handler.py --name 'a b'"] });
    expect(JSON.parse(created.args)).toEqual({ entrypoint: ["bash", "-c"], cmd: ["python handler.py --name 'a b'"] });
    expect((await v2.get(`/serverless/${created.id}`)).body).toEqual(created);
  });

  it("splits a plain args string as CMD (quotes group) and keeps args verbatim", async () => {
    const created = await endpoint({ name: "shell-args", args: `python serve.py --title "hello world"` });
    expect(created).toMatchObject({
      args: `python serve.py --title "hello world"`,
      cmd: ["python", "serve.py", "--title", "hello world"],
      entrypoint: [],
    });
  });

  it('PATCH: cmd alone keeps entrypoint, [] clears one, "" clears both; args that disagree with cmd is 400', async () => {
    const created = await endpoint({ name: "patch-cmd", args: JSON.stringify({ entrypoint: ["/bin/sh"], cmd: ["-c", "echo hi"] }) });
    expect(created).toMatchObject({ entrypoint: ["/bin/sh"], cmd: ["-c", "echo hi"] });
    expect((await v2.patch(`/serverless/${created.id}`, { cmd: ["-c", "echo bye"] })).body).toMatchObject({
      entrypoint: ["/bin/sh"],
      cmd: ["-c", "echo bye"],
    });
    expect((await v2.patch(`/serverless/${created.id}`, { entrypoint: [] })).body).toMatchObject({
      entrypoint: [],
      cmd: ["-c", "echo bye"],
    });
    const conflict = expectProblem(await v2.patch(`/serverless/${created.id}`, { args: "run other", cmd: ["run", "different"] }), 400);
    expect(conflict.detail).toMatch(/same command/);
    // The refused PATCH changed nothing.
    expect((await v2.get(`/serverless/${created.id}`)).body).toMatchObject({ entrypoint: [], cmd: ["-c", "echo bye"] });
    expect((await v2.patch(`/serverless/${created.id}`, { args: "" })).body).toMatchObject({ args: "", entrypoint: [], cmd: [] });
  });

  it("a command change is a new release; the same command sent again is not", async () => {
    const created = await endpoint({ name: "cmd-release", cmd: ["python", "a.py"] });
    const changed = await v2.patch(`/serverless/${created.id}`, { cmd: ["python", "b.py"] });
    expect(changed.status).toBe(200);
    const again = await v2.patch(`/serverless/${created.id}`, { cmd: ["python", "b.py"] });
    expect(again.status).toBe(200);
    const releases = (await v2.get(`/serverless/${created.id}/releases`)).body;
    expect(releases.endpointVersion).toBe(1);
  });

  it("takes the command from a serverless template at create (the body's wins) and on a PATCH's templateId", async () => {
    const template = (
      await v2.post("/templates", {
        name: "cmd-sls-tpl",
        image: "tpl/worker:1",
        serverless: true,
        entrypoint: ["python"],
        cmd: ["-m", "my app"],
      })
    ).body;
    const fromTemplate = await endpoint({ name: "from-cmd-tpl", image: undefined, templateId: template.id });
    expect(fromTemplate).toMatchObject({ entrypoint: ["python"], cmd: ["-m", "my app"], args: template.args });
    const overridden = await endpoint({ name: "own-cmd", image: undefined, templateId: template.id, cmd: ["-m", "other"] });
    expect(overridden).toMatchObject({ entrypoint: ["python"], cmd: ["-m", "other"] });
    const plain = await endpoint({ name: "later-tpl" });
    expect((await v2.patch(`/serverless/${plain.id}`, { templateId: template.id })).body).toMatchObject({
      entrypoint: ["python"],
      cmd: ["-m", "my app"],
    });
  });

  it("refuses a cmd that is not a list of strings (422 naming it)", async () => {
    const problem = expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, cmd: "python handler.py" }), 422);
    expect(JSON.stringify(problem)).toMatch(/cmd/);
  });
});

describe("templateId on endpoint create", () => {
  it("an unknown template is 404; a pod template is 422", async () => {
    expect(expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, templateId: "nope" }), 404).detail).toMatch(
      /^invalid templateId/,
    );
    const podTemplate = (await v2.post("/templates", { name: "pod template", image: "pod/image:1" })).body;
    expect(expectProblem(await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, templateId: podTemplate.id }), 422).detail).toMatch(
      /^invalid templateId: .* pod template/,
    );
  });
});

describe("names", () => {
  it("templates, registries, endpoints and volumes may share a name on v2 (the reference states no uniqueness)", async () => {
    for (let i = 0; i < 2; i++) {
      expect((await v2.post("/templates", { name: "same template", image: "a/b:1" })).status).toBe(201);
      expect((await v2.post("/registries", { name: "same registry", username: "u", password: "p" })).status).toBe(201);
      expect((await v2.post("/serverless", { ...V2_QUEUE_ENDPOINT, name: "same endpoint" })).status).toBe(201);
      expect((await v2.post("/network-volumes", { name: "same volume", size: 10, dataCenter: "EU-RO-1" })).status).toBe(201);
    }
    const template = (await v2.post("/templates", { name: "renamed later", image: "a/b:1" })).body;
    expect((await v2.patch(`/templates/${template.id}`, { name: "same template" })).status).toBe(200);
  });

  it("/v1 keeps its unique template names", async () => {
    const create = (name: string) =>
      fetch(`${emu.apiUrl}/templates`, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name, imageName: "a/b:1" }),
      });
    expect((await create("v1 unique")).status).toBe(200);
    expect((await create("v1 unique")).status).toBe(409);
  });
});

describe("network volume tier", () => {
  it("a volume without type gets its data center's primary tier (listed first in networkVolumeTypes)", async () => {
    const dataCenters = (await v2.get("/catalog/datacenters")).body.dataCenters as Array<{ id: string; networkVolumeTypes: string[] }>;
    const primaries = new Set<string>();
    for (const id of ["EU-RO-1", "CA-MTL-3", "US-IL-1"]) {
      const offered = dataCenters.find((dc) => dc.id === id)?.networkVolumeTypes ?? [];
      const volume = (await v2.post("/network-volumes", { name: `tier ${id}`, size: 10, dataCenter: id })).body;
      expect(volume.type).toBe(offered[0]);
      primaries.add(volume.type);
    }
    // Not every site's primary is STANDARD: a client cannot assume it.
    expect([...primaries].sort()).toEqual(["HIGH_PERFORMANCE", "STANDARD"]);
  });
});

describe("registries", () => {
  it("bounds name and username at 191 and password at 16,384 characters (422)", async () => {
    expectProblem(await v2.post("/registries", { name: "n".repeat(192), username: "u", password: "p" }), 422);
    expectProblem(await v2.post("/registries", { name: "n", username: "u".repeat(192), password: "p" }), 422);
    expectProblem(await v2.post("/registries", { name: "n", username: "u", password: "p".repeat(16_385) }), 422);
    expect((await v2.post("/registries", { name: "n".repeat(191), username: "u".repeat(191), password: "p".repeat(16_384) })).status).toBe(
      201,
    );
  });

  it("delete is 400 while a pod uses it; templates lose it (registry: null)", async () => {
    const registry = (await v2.post("/registries", { name: "in use", username: "u", password: "p" })).body;
    const template = (await v2.post("/templates", { name: "with registry", image: "a/b:1", registry: registry.id })).body;
    const pod = (await v2.post("/pods", { ...V2_GPU_POD, registry: registry.id })).body;
    expect(expectProblem(await v2.del(`/registries/${registry.id}`), 400).detail).toContain(pod.id);
    expect((await v2.del(`/pods/${pod.id}`)).status).toBe(204);
    expect((await v2.del(`/registries/${registry.id}`)).status).toBe(204);
    expect((await v2.get(`/templates/${template.id}`)).body.registry).toBeNull();
  });
});

describe("quirk endpointPatchRebuildsSelection (the live defect, management-api-v2-today.md 6.1 #1, #2)", () => {
  let quirky: RunningEmulator;
  let q: Api;
  beforeAll(async () => {
    quirky = await startTestEmulator({ quirks: { endpointPatchRebuildsSelection: true } });
    q = apiV2(quirky);
  });
  afterAll(() => quirky.close());

  it("a GPU PATCH without pools and exclusions erases the exclusions; restating both keeps them", async () => {
    const created = (await q.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] } })).body;
    expect((await q.patch(`/serverless/${created.id}`, { image: "example/worker:2" })).body.gpu.excludedTypes).toEqual([]);
    const restated = await q.patch(`/serverless/${created.id}`, {
      image: "example/worker:3",
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] },
    });
    expect(restated.body.gpu.excludedTypes).toEqual(["NVIDIA L4"]);
  });

  it("any PATCH of a CPU endpoint is 400", async () => {
    const created = (await q.post("/serverless", { ...V2_QUEUE_ENDPOINT, gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 2 }] })).body;
    expect(expectProblem(await q.patch(`/serverless/${created.id}`, { name: "x" }), 400).detail).toMatch(
      /gpuId\(s\) is required for a gpu endpoint/,
    );
  });
});
