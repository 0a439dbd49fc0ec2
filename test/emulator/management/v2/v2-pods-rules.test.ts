/**
 * /api/v2 pod rules as the service's description states them: no link to a template, startSsh and
 * startJupyter with the account's SSH keys, the mount kind fixed at create, the command as
 * args/cmd/entrypoint, the GPU share in answers, http ports behind the shared proxy, global
 * networking at the next start, ERROR and the actions per status, and the 4xx of a create.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { type Api, api, startTestEmulator } from "../../../support/managementHelpers";
import { V2_GPU_POD, apiV2, expectProblem, waitForStatus } from "../../../support/v2Helpers";
import type { Json } from "../../../support/wireJson";

let emu: RunningEmulator;
let v2: Api;

beforeAll(async () => {
  // The status polls here do not pace themselves: the rate limit (v2-ratelimit.test.ts) is raised
  // so that a loaded machine's slow polls do not run into it.
  emu = await startTestEmulator({ bootDelayMs: 2000, rateLimit: { perMinute: 100_000 } });
  v2 = apiV2(emu);
});
afterAll(() => emu.close());

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExampleKeyOne me@laptop";

async function createPod(body: Record<string, unknown>): Promise<Record<string, Json>> {
  const res = await v2.post("/pods", body);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

describe("account SSH keys and startSsh / startJupyter", () => {
  it("GET and PUT /account/ssh-keys replace the whole set; a line that is not a key is a 422", async () => {
    expect((await v2.get("/account/ssh-keys")).body).toEqual({ keys: [] });
    const put = await v2.put("/account/ssh-keys", { keys: [KEY] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ keys: [KEY] });
    expect((await v2.get("/account/ssh-keys")).body).toEqual({ keys: [KEY] });
    expectProblem(await v2.put("/account/ssh-keys", { keys: ["not a key"] }), 422);
  });

  it("injects PUBLIC_KEY only with startSsh and registered keys; JUPYTER_PASSWORD only with startJupyter", async () => {
    expect((await v2.put("/account/ssh-keys", { keys: [KEY] })).status).toBe(200);
    const plain = await createPod({ ...V2_GPU_POD, name: "no-flags" });
    expect(plain.env).not.toHaveProperty("PUBLIC_KEY");
    expect(plain.env).not.toHaveProperty("JUPYTER_PASSWORD");
    const both = await createPod({ ...V2_GPU_POD, name: "ssh-jupyter", startSsh: true, startJupyter: true });
    expect(both.env.PUBLIC_KEY).toBe(KEY);
    expect(both.env.JUPYTER_PASSWORD).toEqual(expect.any(String));
    // "unless the request already sets one"
    const own = await createPod({ ...V2_GPU_POD, name: "own-key", startSsh: true, env: { PUBLIC_KEY: "mine" } });
    expect(own.env.PUBLIC_KEY).toBe("mine");
    // "with none registered the flag does nothing"
    expect((await v2.put("/account/ssh-keys", { keys: [] })).status).toBe(200);
    const none = await createPod({ ...V2_GPU_POD, name: "no-keys", startSsh: true });
    expect(none.env).not.toHaveProperty("PUBLIC_KEY");
  });

  it("takes the flags from the template when the body omits them (templates default to true)", async () => {
    expect((await v2.put("/account/ssh-keys", { keys: [KEY] })).status).toBe(200);
    const template = (await v2.post("/templates", { name: "ssh-tpl", image: "tpl/ssh:1" })).body;
    const pod = await createPod({ name: "from-ssh-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" } });
    expect(pod.env.PUBLIC_KEY).toBe(KEY);
    expect(pod.env.JUPYTER_PASSWORD).toEqual(expect.any(String));
    const off = await createPod({
      name: "flags-off",
      templateId: template.id,
      gpu: { id: "NVIDIA A40" },
      startSsh: false,
      startJupyter: false,
    });
    expect(off.env).not.toHaveProperty("PUBLIC_KEY");
    expect(off.env).not.toHaveProperty("JUPYTER_PASSWORD");
  });

  it("a template made through /v1 reads back startSsh and startJupyter true on /api/v2, and its pods get both", async () => {
    // Template.startSsh: "Whether containers created from this template get SSH access provisioned at startup".
    expect((await v2.put("/account/ssh-keys", { keys: [KEY] })).status).toBe(200);
    const made = await api(emu).post("/templates", { name: "v1-ssh-tpl", imageName: "tpl/v1:1" });
    expect(made.status).toBe(200);
    const template = (await v2.get(`/templates/${made.body.id}`)).body;
    expect(template).toMatchObject({ startSsh: true, startJupyter: true });
    const pod = await createPod({ name: "from-v1-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" } });
    expect(pod.env.PUBLIC_KEY).toBe(KEY);
    expect(pod.env.JUPYTER_PASSWORD).toEqual(expect.any(String));
  });
});

describe("templates and the create's status codes", () => {
  it("a pod from a template answers template: null", async () => {
    const template = (await v2.post("/templates", { name: "link-tpl", image: "tpl/link:1" })).body;
    expect((await createPod({ name: "linked?", templateId: template.id, gpu: { id: "NVIDIA A40" } })).template).toBeNull();
  });

  it("an unknown templateId is a 404, a serverless template a 422, on create and on PATCH", async () => {
    expectProblem(await v2.post("/pods", { name: "x", templateId: "nosuchtemplate", gpu: { id: "NVIDIA A40" } }), 404);
    const serverless = (await v2.post("/templates", { name: "sls-tpl", image: "tpl/sls:1", serverless: true })).body;
    const refused = expectProblem(await v2.post("/pods", { name: "x", templateId: serverless.id, gpu: { id: "NVIDIA A40" } }), 422);
    expect(refused.detail).toContain("serverless");
    const pod = await createPod({ ...V2_GPU_POD, name: "patch-tpl" });
    expectProblem(await v2.patch(`/pods/${pod.id}`, { templateId: "nosuchtemplate" }), 404);
    expectProblem(await v2.patch(`/pods/${pod.id}`, { templateId: serverless.id }), 422);
  });

  it("a GPU pod takes the template's allowedCudaVersions unless the body gives its own", async () => {
    // CreatePodRequest.templateId: resolved into "(image, args, disk, ports, env, registry, persistent
    // mount, startSsh, startJupyter, allowedCudaVersions); explicit body fields override the template's".
    const template = (await v2.post("/templates", { name: "cuda-tpl", image: "tpl/cuda:1", allowedCudaVersions: ["12.4"] })).body;
    const pod = await createPod({ name: "cuda-from-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" } });
    expect(pod.cudaVersion).toBe("12.4");
    const own = await createPod({ name: "cuda-own", templateId: template.id, gpu: { id: "NVIDIA A40", allowedCudaVersions: ["12.8"] } });
    expect(own.cudaVersion).toBe("12.8");
    // "CPU pods ignore it."
    const cpu = await createPod({ name: "cuda-cpu", templateId: template.id, cpu: { id: "cpu3c", vcpuCount: 2 } });
    expect(cpu.cudaVersion).toBeNull();
  });

  it("a CPU pod without vcpuCount is a 422 naming cpu.vcpuCount", async () => {
    const problem = expectProblem(await v2.post("/pods", { name: "cpu", image: "busybox", cpu: { id: "cpu3g" } }), 422);
    expect(problem.errors?.join(" ")).toContain("cpu.vcpuCount");
  });
});

describe("GPU share", () => {
  it("answers gpu.vcpuCount and gpu.memory, takes minRamPerGpu/minVcpuCountPerGpu, and refuses unknown gpu keys (422)", async () => {
    const pod = await createPod({
      ...V2_GPU_POD,
      name: "share",
      gpu: { id: "NVIDIA A40", count: 2, minRamPerGpu: 32, minVcpuCountPerGpu: 8 },
    });
    expect(pod.gpu).toEqual({ id: "NVIDIA A40", count: 2, vcpuCount: 16, memory: 64 });
    const plain = await createPod({ ...V2_GPU_POD, name: "share-default" });
    expect(plain.gpu.vcpuCount).toBeGreaterThanOrEqual(1);
    expect(plain.gpu.memory).toBeGreaterThanOrEqual(1);
    const problem = expectProblem(await v2.post("/pods", { ...V2_GPU_POD, gpu: { id: "NVIDIA A40", vram: 24 } }), 422);
    expect(problem.errors?.join(" ")).toContain("gpu.vram");
  });
});

describe("mount kind fixed at create", () => {
  it("a PATCH that adds a kind the pod did not have, or clears the network mount, is a 400; the path of its own kind changes", async () => {
    const bare = await createPod({ ...V2_GPU_POD, name: "bare" });
    expect(bare.mounts).toEqual({});
    const addPersistent = expectProblem(await v2.patch(`/pods/${bare.id}`, { mounts: { persistent: { size: 20, path: "/data" } } }), 400);
    expect(addPersistent.detail).toContain("fixed at create");
    const volume = (await v2.post("/network-volumes", { name: "mk", size: 10, dataCenter: "EU-RO-1" })).body;
    expectProblem(await v2.patch(`/pods/${bare.id}`, { mounts: { network: [{ volumeId: volume.id, path: "/v" }] } }), 400);

    const persistent = await createPod({ ...V2_GPU_POD, name: "persistent", mounts: { persistent: { size: 20, path: "/data" } } });
    expectProblem(await v2.patch(`/pods/${persistent.id}`, { mounts: { network: [{ volumeId: volume.id, path: "/v" }] } }), 400);
    const grown = await v2.patch(`/pods/${persistent.id}`, { mounts: { persistent: { size: 30, path: "/data2" } } });
    expect(grown.status).toBe(200);
    expect(grown.body.mounts).toEqual({ persistent: { size: 30, path: "/data2" } });

    const networked = await createPod({ ...V2_GPU_POD, name: "networked", mounts: { network: [{ volumeId: volume.id, path: "/v" }] } });
    expectProblem(await v2.patch(`/pods/${networked.id}`, { mounts: { persistent: { size: 20, path: "/data" } } }), 400);
    expectProblem(await v2.patch(`/pods/${networked.id}`, { mounts: { network: [] } }), 400);
    expect((await v2.patch(`/pods/${networked.id}`, { mounts: { network: [{ volumeId: volume.id, path: "/w" }] } })).body.mounts).toEqual({
      network: [{ volumeId: volume.id, path: "/w" }],
    });
  });
});

describe("command: args, cmd[] and entrypoint[]", () => {
  it("keeps exec-form arrays as given (elements with blanks intact) and answers all three", async () => {
    const pod = await createPod({ ...V2_GPU_POD, name: "cmd", entrypoint: ["bash", "-c"], cmd: ["python train.py --name 'a b'"] });
    expect(pod.entrypoint).toEqual(["bash", "-c"]);
    expect(pod.cmd).toEqual(["python train.py --name 'a b'"]);
    expect(JSON.parse(pod.args)).toEqual({ entrypoint: ["bash", "-c"], cmd: ["python train.py --name 'a b'"] });
    expect((await v2.get(`/pods/${pod.id}`)).body).toMatchObject({ entrypoint: ["bash", "-c"], cmd: ["python train.py --name 'a b'"] });
  });

  it("reads a plain args string as CMD split into arguments (quotes group) and keeps it verbatim", async () => {
    const pod = await createPod({ ...V2_GPU_POD, name: "args", args: `python serve.py --title "hello world"` });
    expect(pod).toMatchObject({
      args: `python serve.py --title "hello world"`,
      cmd: ["python", "serve.py", "--title", "hello world"],
      entrypoint: [],
    });
  });

  it("reads a JSON args object; accepts args with cmd/entrypoint that describe the same command and refuses (400) those that do not", async () => {
    const args = JSON.stringify({ entrypoint: ["/bin/sh"], cmd: ["-c", "echo hi"] });
    const pod = await createPod({ ...V2_GPU_POD, name: "json-args", args, cmd: ["-c", "echo hi"] });
    expect(pod).toMatchObject({ args, entrypoint: ["/bin/sh"], cmd: ["-c", "echo hi"] });
    const conflict = expectProblem(await v2.patch(`/pods/${pod.id}`, { args: "run other", cmd: ["run", "different"] }), 400);
    expect(conflict.detail).toContain("same command");
    // PATCH: omitted parts stay; [] clears one; "" clears both.
    const cmdOnly = await v2.patch(`/pods/${pod.id}`, { cmd: ["-c", "echo bye"] });
    expect(cmdOnly.body).toMatchObject({ entrypoint: ["/bin/sh"], cmd: ["-c", "echo bye"] });
    expect((await v2.patch(`/pods/${pod.id}`, { entrypoint: [] })).body).toMatchObject({ entrypoint: [], cmd: ["-c", "echo bye"] });
    expect((await v2.patch(`/pods/${pod.id}`, { args: "" })).body).toMatchObject({ args: "", entrypoint: [], cmd: [] });
  });

  it("templates carry the command too, and a pod from one inherits it", async () => {
    const template = (await v2.post("/templates", { name: "cmd-tpl", image: "tpl/cmd:1", entrypoint: ["python"], cmd: ["-m", "my app"] }))
      .body;
    expect(template).toMatchObject({ entrypoint: ["python"], cmd: ["-m", "my app"] });
    const pod = await createPod({ name: "from-cmd-tpl", templateId: template.id, gpu: { id: "NVIDIA A40" } });
    expect(pod).toMatchObject({ entrypoint: ["python"], cmd: ["-m", "my app"] });
  });
});

describe("runtime ports and global networking", () => {
  it("an http port answers the shared proxy address with public: null; a tcp port its public IP and port", async () => {
    const a = await createPod({ ...V2_GPU_POD, name: "http-a" });
    const b = await createPod({ ...V2_GPU_POD, name: "http-b" });
    const [ra, rb] = [await waitForStatus(v2, a.id, "RUNNING"), await waitForStatus(v2, b.id, "RUNNING")];
    const portsOf = (pod: Record<string, Json>) =>
      pod.runtime.ports as Array<{ private: number; public: number | null; type: string; ip: string }>;
    const httpA = portsOf(ra).find((p) => p.type === "http");
    const httpB = portsOf(rb).find((p) => p.type === "http");
    const tcpA = portsOf(ra).find((p) => p.type === "tcp");
    expect(httpA?.public).toBeNull();
    expect(httpA?.ip).toBe(httpB?.ip);
    const [o1 = 0, o2 = 0] = (httpA?.ip ?? "").split(".").map(Number);
    expect(o1 === 100 && o2 >= 64 && o2 < 128).toBe(true);
    expect(tcpA?.public).toEqual(expect.any(Number));
    expect(tcpA?.ip).not.toBe(httpA?.ip);
  });

  it("a globalNetworking PATCH is stored but takes effect at the next restart", async () => {
    const pod = await createPod({ ...V2_GPU_POD, name: "gn", dataCenterIds: ["EU-RO-1"] });
    await waitForStatus(v2, pod.id, "RUNNING");
    const patched = await v2.patch(`/pods/${pod.id}`, { globalNetworking: true });
    expect(patched.status).toBe(200);
    expect(patched.body.globalNetworking).toEqual({ enabled: false });
    expect((await v2.post(`/pods/${pod.id}/action`, { action: "restart" })).status).toBe(200);
    const after = await waitForStatus(v2, pod.id, "RUNNING");
    expect(after.globalNetworking).toMatchObject({ enabled: true, ip: expect.any(String) });
  });

  it("a globalNetworking PATCH needs an NVIDIA GPU pod in a data center that offers it, as the create does (400)", async () => {
    // UpdatePodRequest.globalNetworking: "Requires an NVIDIA GPU and a global-networking-enabled data center".
    const created = expectProblem(
      await v2.post("/pods", { ...V2_GPU_POD, name: "gn-create", dataCenterIds: ["US-CA-2"], globalNetworking: true }),
      400,
    );
    const elsewhere = await createPod({ ...V2_GPU_POD, name: "gn-elsewhere", dataCenterIds: ["US-CA-2"] });
    const patched = expectProblem(await v2.patch(`/pods/${elsewhere.id}`, { globalNetworking: true }), 400);
    expect(patched.errors).toEqual([
      expect.stringMatching(
        /^invalid globalNetworking: pod \S+ runs in US-CA-2, which does not support global networking; see globalNetwork/,
      ),
    ]);
    expect(created.errors).toEqual([
      expect.stringMatching(/^invalid globalNetworking: none of dataCenterIds supports global networking; see globalNetwork/),
    ]);
    const amd = await createPod({ name: "gn-amd", image: "example/app:1", gpu: { id: "AMD Instinct MI300X OAM" } });
    expect(expectProblem(await v2.patch(`/pods/${amd.id}`, { globalNetworking: true }), 400).errors).toEqual([
      "invalid globalNetworking: global networking needs an NVIDIA GPU pod",
    ]);
    const cpu = await createPod({ name: "gn-cpu", image: "example/app:1", cpu: { id: "cpu3c", vcpuCount: 2 } });
    expectProblem(await v2.patch(`/pods/${cpu.id}`, { globalNetworking: true }), 400);
    // Nothing changed, and turning it off is always accepted.
    expect((await v2.get(`/pods/${elsewhere.id}`)).body.globalNetworking).toEqual({ enabled: false });
    expect((await v2.patch(`/pods/${elsewhere.id}`, { globalNetworking: false })).status).toBe(200);
  });
});

describe("ERROR and the actions per status", () => {
  it("a failed pod is ERROR with start/terminate; start boots it; restart fits RUNNING only (409 otherwise)", async () => {
    const pod = await createPod({ ...V2_GPU_POD, name: "err" });
    await waitForStatus(v2, pod.id, "RUNNING");
    emu.failPod(pod.id);
    const failed = (await v2.get(`/pods/${pod.id}`)).body;
    expect(failed).toMatchObject({ status: "ERROR", actions: ["start", "terminate"], runtime: null, cost: 0 });
    expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "restart" }), 409);
    expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "stop" }), 409);
    const started = await v2.post(`/pods/${pod.id}/action`, { action: "start" });
    expect(started.status).toBe(200);
    expect(started.body.status).not.toBe("ERROR");
    await waitForStatus(v2, pod.id, "RUNNING");
    // A repeated start on a running pod does not fit its status.
    expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "start" }), 409);
    expect((await v2.post(`/pods/${pod.id}/action`, { action: "stop" })).status).toBe(200);
    expectProblem(await v2.post(`/pods/${pod.id}/action`, { action: "restart" }), 409);
  });
});
