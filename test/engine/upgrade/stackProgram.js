/**
 * The representative stack of the upgrade fixtures: every resource kind and component the package
 * offers, as a user's program would declare them. `scripts/record-upgrade-fixture.ts` copies this
 * file into each fixture folder (test/engine/fixtures/upgrade/<version>/stackProgram.js), deploys
 * it with the package at a git ref and keeps the state; the upgrade test runs that frozen copy
 * again with the current package. Plain CommonJS on purpose: the same file must run against the
 * package of any version, so it takes the package and @pulumi/pulumi as arguments instead of
 * importing them.
 *
 * `options.api` picks the management API ("v2": everything; "v1": everything v1 can express, so no
 * load-balancing endpoint). `options.change` is the one in-place change the upgrade test applies
 * after the no-change preview: the queue endpoint's `workersMax` (recorded at 2).
 *
 * @param {typeof import("../../../sdk/index")} gpucloud
 * @param {typeof import("@pulumi/pulumi")} pulumi
 * @param {{ api: "v1" | "v2", change?: boolean }} options
 */
module.exports = function stackProgram(gpucloud, pulumi, options) {
  const api = options.api;
  const registry = new gpucloud.RegistryAuth("registry", {
    name: `upgrade-registry-${api}`,
    username: "robot",
    password: pulumi.secret("upgrade-fixture-registry-password"),
  });
  const volume = new gpucloud.NetworkVolume("models", { name: `upgrade-models-${api}`, size: 10, dataCenterId: "EU-RO-1" });
  const pod = new gpucloud.Pod("trainer", {
    name: `upgrade-trainer-${api}`,
    imageName: "example/pytorch:2.4",
    gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
    gpuCount: 1,
    networkVolumeId: volume.id,
    dataCenterIds: ["EU-RO-1"],
    containerRegistryAuthId: registry.id,
    ports: ["8888/http", "22/tcp"],
    env: { LOG_LEVEL: "info" },
  });
  const worker = new gpucloud.Template("worker", {
    name: `upgrade-worker-${api}`,
    imageName: "example/echo-worker:1.0",
    isServerless: true,
    env: { MODEL_NAME: "upgrade-echo" },
  });
  const queue = new gpucloud.Endpoint("queue", {
    name: `upgrade-queue-${api}`,
    templateId: worker.id,
    gpuTypeIds: ["NVIDIA L4"],
    workersMin: 0,
    workersMax: options.change ? 3 : 2,
    idleTimeout: 5,
  });
  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint: queue,
    template: worker,
    cases: [{ name: "echo", input: { prompt: "hello" }, expect: { outputSubset: { prompt: "hello" } }, timeoutSeconds: 60 }],
  });
  const outputs = {
    registryId: registry.id,
    volumeId: volume.id,
    podId: pod.id,
    templateId: worker.id,
    queueEndpointId: queue.id,
    smokePassed: smoke.results.apply((results) => results.every((r) => r.passed)),
  };
  if (api === "v2") {
    // Load-balancing endpoints exist on the v2 API only.
    const server = new gpucloud.Template("server", {
      name: "upgrade-server-v2",
      imageName: "example/http-server:1.0",
      isServerless: true,
      env: { PORT: "8000", PORT_HEALTH: "8001" },
    });
    const balancer = new gpucloud.Endpoint("balancer", {
      name: "upgrade-balancer-v2",
      templateId: server.id,
      type: "LOAD_BALANCER",
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      gpuTypeIds: ["NVIDIA L4"],
      workersMin: 0,
      workersMax: 1,
    });
    outputs.balancerEndpointId = balancer.id;
  }
  const rollout = new gpucloud.EndpointRollout("chat", {
    version: "1.0",
    template: { name: `upgrade-chat-${api}`, imageName: "example/chat-worker:1.0", isServerless: true },
    endpoint: { name: `upgrade-chat-${api}`, gpuTypeIds: ["NVIDIA L4"], workersMin: 0, workersMax: 1, idleTimeout: 5 },
    cases: [
      {
        name: "replies",
        input: { output: { reply: "chat 1.0" } },
        expect: { outputPredicates: [{ path: "reply", op: "contains", value: "1.0" }] },
        timeoutSeconds: 60,
      },
    ],
  });
  outputs.chatEndpointId = rollout.endpointId;
  outputs.chatServingVersion = rollout.servingVersion;
  // Declared last: it sums every priced resource declared before it.
  new gpucloud.CostReport("cost");
  return outputs;
};
