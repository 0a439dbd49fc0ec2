/**
 * A load-balancing serverless endpoint: no job queue, every request to the endpoint's
 * `requestUrls.base` + `<path>` goes straight to one worker's own HTTP server. The template
 * says where that server listens (PORT) and where it answers health checks (PORT_HEALTH,
 * HEALTH_CHECK_PATH); a JobRunner sends real HTTP requests after each deploy and fails the deploy
 * when an answer is not what the cases expect.
 */
import * as pulumi from "@pulumi/pulumi";
import * as gpucloud from "pulumi-gpucloud";

export function program() {
  const config = new pulumi.Config();
  // Template names are unique per account: a prefix keeps several stacks apart.
  const prefix = config.get("namePrefix") ?? `lb-${pulumi.getStack()}`;
  const imageTag = config.get("imageTag") ?? "1.0";

  const server = new gpucloud.Template("server", {
    name: `${prefix}-server`,
    imageName: `example/http-server:${imageTag}`,
    isServerless: true,
    env: {
      PORT: "8000", // the port the image's HTTP server listens on (default 80)
      PORT_HEALTH: "8000", // where health checks go (default 80): here the same server
      HEALTH_CHECK_PATH: "/ping", // must answer 200 once the server is ready (default /ping)
      MODEL_NAME: config.get("modelName") ?? "echo",
    },
  });

  const endpoint = new gpucloud.Endpoint("api", {
    name: `${prefix}-api`,
    templateId: server.id,
    // Fixed at create: changing it replaces the endpoint (new id, new URL).
    type: "LOAD_BALANCER",
    // Load-balancing endpoints scale on requests in flight: one worker per `scalerValue` of them.
    scalerType: "REQUEST_COUNT",
    scalerValue: 4,
    gpuTypeIds: ["NVIDIA L4", "NVIDIA A40"],
    workersMin: config.getNumber("workersMin") ?? 0, // 1 keeps a warm worker: no cold start, billed while idle
    workersMax: config.getNumber("workersMax") ?? 3,
    idleTimeout: 30, // seconds without requests before a worker stops
  });

  // HTTP smoke tests. The emulator's built-in worker server echoes every request back as JSON
  // ({method, path, query, headers, body}); against a real image, write requests your server
  // serves and expectations its answers must meet.
  const smoke = new gpucloud.JobRunner("smoke", {
    endpoint,
    template: server, // templates change in place: pass it so a new image or env re-runs the cases
    cases: [
      { name: "health", request: { path: "/ping" } }, // GET, expects 200
      {
        name: "generate",
        request: { method: "POST", path: "/v1/generate", body: { prompt: "hello", max_tokens: 16 } },
        expect: {
          status: 200,
          bodySubset: { method: "POST", path: "/v1/generate", body: { prompt: "hello" } },
          bodyPredicates: [{ path: "body.max_tokens", op: "lte", value: 16 }],
        },
        timeoutSeconds: 120, // a cold start included
      },
    ],
    trigger: config.get("smokeTrigger") ?? "",
  });

  // Where to send requests: `<endpointUrl>/<your path>`. The v2 API says where (`requestUrls.base`,
  // a host of the endpoint's own on the live service); without it, `<serverlessUrl>/<endpointId>`.
  const serverlessUrl = new pulumi.Config("gpucloud").get("serverlessUrl") ?? process.env["GPUCLOUD_SERVERLESS_URL"];
  const endpointUrl = pulumi
    .all([endpoint.id, endpoint.requestUrls])
    .apply(([id, urls]) => urls?.["base"] ?? (serverlessUrl === undefined ? undefined : `${serverlessUrl.replace(/\/+$/, "")}/${id}`));

  return {
    endpointId: endpoint.id,
    requestUrls: endpoint.requestUrls,
    endpointUrl,
    smokeTests: smoke.results.apply((results) =>
      results.map((r) => ({ name: r.name, passed: r.passed, status: r.status, workerId: r.workerId, ms: r.executionTime })),
    ),
  };
}
