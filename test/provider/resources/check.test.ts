import { describe, expect, it } from "vitest";
import { buildResourceProviders } from "../../../provider/resources/registry";
import type { ResourceKind } from "../../../model/kinds";
import { UNKNOWN } from "../../../model/fields/values";
import { recordingDeps } from "../../support/recordingDeps";

const deps = recordingDeps();
const providers = buildResourceProviders(deps);

async function check(kind: ResourceKind, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  const check = providers[kind].check;
  if (!check) throw new Error("no check");
  return check(olds, news);
}

const pod = { name: "p", imageName: "img:1" };
const endpoint = { templateId: "tpl1" };
const volume = { name: "v", size: 50, dataCenterId: "EU-RO-1" };
const template = { name: "t", imageName: "img:1" };
const auth = { name: "creds", username: "u", password: "secret-pw" };

type Row = [
  kind: ResourceKind,
  label: string,
  news: Record<string, unknown>,
  property: string,
  contains: string[],
  olds?: Record<string, unknown>,
];

const rows: Row[] = [
  [
    "pod",
    "udp port",
    { ...pod, ports: ["8888/udp"] },
    "ports[0]",
    ['"8888/udp" is not a valid port', 'use "<number>/http" or "<number>/tcp", e.g. "8888/http"'],
  ],
  ["pod", "second port malformed", { ...pod, ports: ["8888/http", "abc"] }, "ports[1]", ['"abc" is not a valid port']],
  ["pod", "port out of range", { ...pod, ports: ["70000/tcp"] }, "ports[0]", ['"70000/tcp" is not a valid port']],
  ["pod", "ports not a list", { ...pod, ports: "8888/http" }, "ports", ["expected a list", '"8888/http"']],
  ["pod", "duplicate port", { ...pod, ports: ["22/tcp", "22/tcp"] }, "ports[1]", ['"22/tcp" is listed twice']],
  ["pod", "negative container disk", { ...pod, containerDiskInGb: -5 }, "containerDiskInGb", ["-5 is below the minimum 1 GB", "e.g. 50"]],
  ["pod", "negative volume", { ...pod, volumeInGb: -1 }, "volumeInGb", ["-1 is negative", "0 GB or more"]],
  ["pod", "fractional volume", { ...pod, volumeInGb: 2.5 }, "volumeInGb", ["2.5 is not a whole number"]],
  ["pod", "quoted number", { ...pod, containerDiskInGb: "50" }, "containerDiskInGb", ['got "50"', "write 50 without quotes"]],
  ["pod", "gpuCount 0", { ...pod, gpuCount: 0 }, "gpuCount", ["0 is below the minimum 1 GPUs"]],
  ["pod", "cloudType typo", { ...pod, cloudType: "SECURED" }, "cloudType", ['"SECURED" is not a valid value', 'did you mean "SECURE"']],
  ["pod", "computeType unknown", { ...pod, computeType: "TPU" }, "computeType", ['"TPU" is not a valid value', 'use one of "GPU", "CPU"']],
  ["pod", "priority unknown", { ...pod, gpuTypePriority: "fastest" }, "gpuTypePriority", ['use one of "availability", "custom"']],
  ["pod", "country code", { ...pod, countryCodes: ["usa"] }, "countryCodes[0]", ['"usa" is not a two-letter country code']],
  [
    "pod",
    "relative mount path",
    { ...pod, volumeMountPath: "workspace" },
    "volumeMountPath",
    ['"workspace" is not an absolute path', '"/workspace"'],
  ],
  [
    "pod",
    "env name with dash",
    { ...pod, env: { "MY-VAR": "x" } },
    'env["MY-VAR"]',
    ['"MY-VAR" is not a valid environment variable name', 'e.g. "MY_VAR"'],
  ],
  [
    "pod",
    "env number value",
    { ...pod, env: { PORT: 8080 } },
    "env.PORT",
    ["expected a string value, got a number", "give it as a string (quoted)"],
  ],
  ["pod", "env not a map", { ...pod, env: "A=1" }, "env", ["expected a map of names to string values"]],
  ["pod", "no image and no template", { name: "p" }, "imageName", ["is required unless templateId is set"]],
  ["pod", "empty image", { ...pod, imageName: "" }, "imageName", ["must not be empty"]],
  [
    "pod",
    "image with a scheme",
    { ...pod, imageName: "https://ghcr.io/acme/worker:1" },
    "imageName",
    ['"https://ghcr.io/acme/worker:1" is not a valid image reference', 'drop it: "ghcr.io/acme/worker:1"'],
  ],
  [
    "template",
    "image in upper case",
    { ...template, imageName: "Acme/Worker:1" },
    "imageName",
    ['"Acme/Worker:1" is not a valid image reference', 'write it in lower case: "acme/worker:1"'],
  ],
  ["pod", "name too long", { ...pod, name: "x".repeat(200) }, "name", ["is 200 characters long", "at most 191"]],
  [
    "pod",
    "desiredStatus unknown",
    { ...pod, desiredStatus: "STOPPED" },
    "desiredStatus",
    ['"STOPPED" is not a valid value', 'use one of "RUNNING", "EXITED"'],
  ],
  ["pod", "negative deadline", { ...pod, readyTimeoutSeconds: -1 }, "readyTimeoutSeconds", ["-1 is negative"]],
  [
    "pod",
    "deadline too long",
    { ...pod, readyTimeoutSeconds: 100_000 },
    "readyTimeoutSeconds",
    ["100000 is above the maximum 86400 seconds"],
  ],
  ["pod", "argument name typo", { ...pod, imagename: "x" }, "imagename", ["is not a pod argument", "did you mean imageName?"]],
  ["pod", "start cmd as a string", { ...pod, dockerStartCmd: "python app.py" }, "dockerStartCmd", ["expected a list", '"python app.py"']],
  [
    "pod",
    "entrypoint element not a string",
    { ...pod, dockerEntrypoint: ["bash", 3] },
    "dockerEntrypoint[1]",
    ["expected a string, got 3"],
  ],
  ["pod", "boolean as string", { ...pod, interruptible: "yes" }, "interruptible", ['expected true or false, got "yes"']],
  ["pod", "negative bandwidth", { ...pod, minDownloadMbps: -10 }, "minDownloadMbps", ["-10 is negative"]],
  ["pod", "empty adoptId", { ...pod, adoptId: "" }, "adoptId", ["must not be empty"]],
  ["endpoint", "templateId missing", {}, "templateId", ["is required", "e.g. template.id"]],
  [
    "endpoint",
    "idleTimeout 0",
    { ...endpoint, idleTimeout: 0 },
    "idleTimeout",
    ["0 is below the minimum 1 seconds", "from 1 to 3600 seconds"],
  ],
  ["endpoint", "idleTimeout too long", { ...endpoint, idleTimeout: 4000 }, "idleTimeout", ["4000 is above the maximum 3600 seconds"]],
  [
    "endpoint",
    "workersMin above workersMax",
    { ...endpoint, workersMin: 5, workersMax: 2 },
    "workersMin",
    ["5 is more than workersMax (2)", "at most 2"],
  ],
  ["endpoint", "negative workersMax", { ...endpoint, workersMax: -1 }, "workersMax", ["-1 is negative"]],
  [
    "endpoint",
    "scalerType unknown",
    { ...endpoint, scalerType: "QUEUE" },
    "scalerType",
    ['"QUEUE" is not a valid value', '"QUEUE_DELAY", "REQUEST_COUNT"'],
  ],
  [
    "endpoint",
    "scalerValue 0 (v1's bound)",
    { ...endpoint, scalerValue: 0 },
    "scalerValue",
    ["0 is below the minimum 1;", "the v1 API's bound"],
  ],
  [
    "endpoint",
    "fractional scalerValue (v1)",
    { ...endpoint, scalerValue: 0.75 },
    "scalerValue",
    ["0.75 is not a whole number", "QUEUE_DELAY takes seconds from 0.5"],
  ],
  ["endpoint", "gpuCount 0", { ...endpoint, gpuCount: 0 }, "gpuCount", ["below the minimum 1"]],
  ["endpoint", "computeType lower case", { ...endpoint, computeType: "gpu" }, "computeType", ['did you mean "GPU"']],
  ["networkVolume", "negative size", { ...volume, size: -1 }, "size", ["-1 is negative", "from 0 to 4000 GB", "the v1 API's bounds"]],
  [
    "networkVolume",
    "size above both maximums (v1's quoted)",
    { ...volume, size: 5000 },
    "size",
    ["5000 is above the maximum 4000 GB", "with gpucloud:apiUrl set to the /v2 URL, 10 to 4096 GB"],
  ],
  [
    "networkVolume",
    "size above v1's 4000",
    { ...volume, size: 4050 },
    "size",
    ["4050 is above the maximum 4000 GB", "the v1 API's bounds"],
  ],
  [
    "networkVolume",
    "shrink",
    { ...volume, size: 50 },
    "size",
    ["50 GB is smaller than the current size 100 GB", "can only grow", "Set size to 100 or more"],
    { ...volume, size: 100 },
  ],
  ["networkVolume", "size missing", { name: "v", dataCenterId: "EU-RO-1" }, "size", ["is required"]],
  ["networkVolume", "dataCenterId missing", { name: "v", size: 10 }, "dataCenterId", ["is required", '"EU-RO-1"']],
  [
    "template",
    "category unknown",
    { ...template, category: "INTEL" },
    "category",
    ['"INTEL" is not a valid value', '"NVIDIA", "AMD", "CPU"'],
  ],
  ["template", "port without protocol", { ...template, ports: ["8080"] }, "ports[0]", ['"8080" is not a valid port']],
  ["template", "name missing", { imageName: "i" }, "name", ["is required"]],
  ["template", "isServerless as string", { ...template, isServerless: "true" }, "isServerless", ['expected true or false, got "true"']],
  ["template", "negative volume", { ...template, volumeInGb: -20 }, "volumeInGb", ["-20 is negative"]],
  ["registryAuth", "password missing", { name: "c", username: "u" }, "password", ["is required"]],
  ["registryAuth", "username empty", { ...auth, username: "" }, "username", ["must not be empty"]],
  ["registryAuth", "unknown argument", { ...auth, token: "x" }, "token", ["is not a registry auth argument"]],
];

describe("check rejects invalid arguments with the property path, the value and the fix", () => {
  it("covers at least 40 invalid inputs", () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)("%s: %s", async (kind, _label, news, property, contains, olds) => {
    const result = await check(kind, news, olds);
    // Failures of secret-bearing fields (env, username, password), and of a path that holds no
    // value (a missing argument, which the engine would print as `value {<nil>}`), name no property,
    // so the engine prints no value beside them; their reason still starts with the path.
    const secretField = ["env", "username", "password"].includes(property.split(/[.[]/)[0] ?? "");
    const bare = secretField || valueAt(news, property) === undefined;
    const failure = result.failures?.find((f) =>
      bare ? f.property === "" && f.reason.startsWith(`${property}: `) : f.property === property,
    );
    expect(failure, JSON.stringify(result.failures)).toBeDefined();
    expect(failure?.reason.startsWith(`${property}: `)).toBe(true);
    for (const text of contains) expect(failure?.reason).toContain(text);
  });

  it("never prints a password in a failure", async () => {
    const result = await check("registryAuth", { ...auth, password: 123456789 });
    expect(result.failures?.[0]?.property).toBe("");
    expect(result.failures?.[0]?.reason).toMatch(/^password: .*expected a string, got a number/);
    expect(JSON.stringify(result.failures)).not.toContain("123456789");
  });
});

describe("check refuses a malformed image reference at preview, naming the path, the value, the wrong part and the fix", () => {
  const HEX64 = "0123456789abcdef".repeat(4);
  const refused: [reference: string, reason: string][] = [
    [
      "acme/worker::1.1",
      'imageName: "acme/worker::1.1" is not a valid image reference: it has more than one ":" after the name "acme/worker"; ' +
        'write a single ":" between the name and the tag, e.g. "acme/worker:1.1"',
    ],
    [
      "Acme/Worker:1",
      'imageName: "Acme/Worker:1" is not a valid image reference: the path "Acme/Worker" has upper-case letters, ' +
        'which image paths do not allow; write it in lower case: "acme/worker:1"',
    ],
    [
      "https://ghcr.io/acme/worker:1",
      'imageName: "https://ghcr.io/acme/worker:1" is not a valid image reference: it starts with the scheme "https://", ' +
        'which image references do not have; drop it: "ghcr.io/acme/worker:1"',
    ],
    [
      "acme/worker:1 ",
      'imageName: "acme/worker:1 " is not a valid image reference: it has a blank at the end; image references have none; ' +
        'remove it: "acme/worker:1"',
    ],
    [
      "acme/worker:",
      'imageName: "acme/worker:" is not a valid image reference: the tag after ":" is empty; ' +
        'give a tag, e.g. "acme/worker:latest", or drop the ":"',
    ],
    [
      "acme/worker@sha256:xyz",
      'imageName: "acme/worker@sha256:xyz" is not a valid image reference: the digest "sha256:xyz" is not a sha256 digest: ' +
        'sha256 takes 64 hex digits (0-9, a-f); write "sha256:" and 64 hex digits (0-9, a-f), as the registry reports it, ' +
        `e.g. "acme/worker@sha256:${HEX64}"`,
    ],
  ];

  it.each(refused)("%j, on a pod and on a template", async (reference, reason) => {
    for (const [kind, args] of [
      ["pod", pod],
      ["template", template],
    ] as const) {
      const result = await check(kind, { ...args, imageName: reference });
      expect(result.failures).toEqual([{ property: "imageName", reason }]);
    }
  });

  const taken = [
    "ubuntu",
    "ubuntu:22.04",
    "ghcr.io/acme/worker:1.2.3",
    "localhost:5000/a/b:tag",
    `registry.example.com:443/org/img@sha256:${HEX64}`,
    `img:tag@sha256:${HEX64}`,
    "example/pytorch:2.1.0",
  ];

  it.each(taken)("takes %j", async (reference) => {
    expect((await check("pod", { ...pod, imageName: reference })).failures).toEqual([]);
    expect((await check("template", { ...template, imageName: reference })).failures).toEqual([]);
  });
});

describe("check quotes the bounds of the stack's own API", () => {
  const v2 = buildResourceProviders(recordingDeps({}, { backend: () => "v2" }));
  const checkV2 = (kind: ResourceKind, news: Record<string, unknown>, olds: Record<string, unknown> = {}) => v2[kind].check!(olds, news);
  const reasonOf = (result: { failures?: Array<{ property: string; reason: string }> }, property: string) =>
    result.failures?.find((f) => f.property === property)?.reason;

  it("a network volume: 10 to 4096 GB on v2, 0 to 4000 GB on v1", async () => {
    expect(reasonOf(await checkV2("networkVolume", { ...volume, size: 5000 }), "size")).toBe(
      "size: 5000 is above the maximum 4096 GB; use a whole number from 10 to 4096 GB, e.g. 100 (the v2 API's bounds)",
    );
    expect(reasonOf(await checkV2("networkVolume", { ...volume, size: 5 }), "size")).toContain(
      "5 is below the minimum 10 GB; use a whole number from 10 to 4096 GB",
    );
    expect((await checkV2("networkVolume", { ...volume, size: 4050 })).failures).toEqual([]);
    expect((await check("networkVolume", { ...volume, size: 5 })).failures).toEqual([]);
    const v1 = reasonOf(await check("networkVolume", { ...volume, size: 5000 }), "size");
    expect(v1).toContain("5000 is above the maximum 4000 GB; use a whole number from 0 to 4000 GB");
    expect(v1).not.toContain("maximum 4096");
  });

  it("a shrink names the largest size of the stack's API", async () => {
    expect(reasonOf(await checkV2("networkVolume", { ...volume, size: 50 }, { ...volume, size: 100 }), "size")).toContain(
      "up to 4096 on the v2 API",
    );
    expect(reasonOf(await check("networkVolume", { ...volume, size: 50 }, { ...volume, size: 100 }), "size")).toContain(
      "up to 4000 on the v1 API",
    );
  });

  it("scalerValue: seconds from 0.5 on v2 (QUEUE_DELAY), whole numbers from 1 on v1", async () => {
    expect((await checkV2("endpoint", { ...endpoint, scalerValue: 0.75 })).failures).toEqual([]);
    expect(reasonOf(await checkV2("endpoint", { ...endpoint, scalerValue: 0 }), "scalerValue")).toContain(
      "0 is below the minimum 0.5; use a number of 0.5 or more",
    );
    expect(reasonOf(await check("endpoint", { ...endpoint, scalerValue: 0 }), "scalerValue")).toContain(
      "0 is below the minimum 1; use a whole number of 1 or more",
    );
    // REQUEST_COUNT on v2 takes whole requests (a rule across the two fields).
    expect(reasonOf(await checkV2("endpoint", { ...endpoint, scalerType: "REQUEST_COUNT", scalerValue: 0.75 }), "scalerValue")).toContain(
      "not a whole number of 1 or more",
    );
  });
});

describe("check accepts valid arguments and preview unknowns", () => {
  it("returns the inputs as written (no defaults filled in), without nulls, with __provider and the cost estimate", async () => {
    const result = await check("pod", { ...pod, ports: ["22/tcp"], volumeInGb: null, __provider: "shim" });
    expect(result.failures).toEqual([]);
    // Without gpuTypeIds the arguments alone leave it unpriced (no catalog is asked).
    const costEstimate = { status: "unavailable", reason: "no gpuTypeIds given: the GPU type decides the price" };
    expect(result.inputs).toEqual({ ...pod, ports: ["22/tcp"], __provider: "shim", costEstimate });
  });

  it("lets unknown values through anywhere in the tree", async () => {
    const everything = {
      name: UNKNOWN,
      imageName: UNKNOWN,
      ports: [UNKNOWN, "22/tcp"],
      env: { A: UNKNOWN },
      gpuCount: UNKNOWN,
      cloudType: UNKNOWN,
      gpuTypeIds: UNKNOWN,
      containerDiskInGb: UNKNOWN,
      templateId: UNKNOWN,
      locked: UNKNOWN,
    };
    expect((await check("pod", everything)).failures).toEqual([]);
    expect((await check("endpoint", { templateId: UNKNOWN, workersMin: UNKNOWN, workersMax: 1 })).failures).toEqual([]);
    expect((await check("networkVolume", { ...volume, size: UNKNOWN }, { ...volume, size: 100 })).failures).toEqual([]);
    expect((await check("registryAuth", { name: "c", username: UNKNOWN, password: UNKNOWN })).failures).toEqual([]);
    expect((await check("template", { name: UNKNOWN, imageName: UNKNOWN, env: UNKNOWN })).failures).toEqual([]);
  });

  it("allows a smaller size when the volume is replaced anyway (new data center)", async () => {
    const result = await check("networkVolume", { ...volume, size: 10, dataCenterId: "US-TX-3" }, { ...volume, size: 100 });
    expect(result.failures).toEqual([]);
  });

  it("warns, not fails, on GPU types it does not know", async () => {
    deps.lines.warn.length = 0;
    const result = await check("pod", { ...pod, gpuTypeIds: ["NVIDIA GeForce RTX 9090", "NVIDIA L4"] });
    expect(result.failures).toEqual([]);
    expect(deps.lines.warn.join("\n")).toContain('gpuTypeIds[0]: "NVIDIA GeForce RTX 9090" is not among the values this provider knows');
  });

  it("warns, not fails, on CUDA versions and CPU flavors it does not know: the service's lists grow", async () => {
    deps.lines.warn.length = 0;
    const podResult = await check("pod", { ...pod, allowedCudaVersions: ["12.4", "13.1"], cpuFlavorIds: ["cpu9x"] });
    expect(podResult.failures).toEqual([]);
    const endpointResult = await check("endpoint", { ...endpoint, minCudaVersion: "13.1", cpuFlavorIds: ["cpu3m"] });
    expect(endpointResult.failures).toEqual([]);
    const warned = deps.lines.warn.join("\n");
    expect(warned).toContain('pod allowedCudaVersions[1]: "13.1" is not among the values this provider knows');
    expect(warned).toContain('pod cpuFlavorIds[0]: "cpu9x" is not among the values this provider knows (did you mean "cpu3c"?)');
    expect(warned).toContain('endpoint minCudaVersion: "13.1" is not among the values this provider knows');
    expect(warned).toContain('endpoint cpuFlavorIds[0]: "cpu3m" is not among the values this provider knows');
  });

  it("refuses an endpoint name ending in a marker the service reads back off the name", async () => {
    const result = await check("endpoint", { ...endpoint, name: "inference -fb" });
    expect((result.failures ?? []).map((f) => f.reason).join("\n")).toMatch(
      /"inference -fb" ends in " -fb", which the service uses to mark FlashBoot endpoints.*set flashboot for FlashBoot/,
    );
  });

  it("warns when an update field without a default stops being declared", async () => {
    deps.lines.warn.length = 0;
    await check("endpoint", { ...endpoint }, { ...endpoint, workersMax: 3 });
    expect(deps.lines.warn.join("\n")).toContain("endpoint workersMax is no longer declared");
  });
});

/** The value at a failure's path ("cases[0].name") in the arguments, or undefined. */
function valueAt(props: Record<string, unknown>, path: string): unknown {
  let value: unknown = props;
  for (const key of path.match(/[^.[\]]+/g) ?? [])
    value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value ?? undefined;
}
