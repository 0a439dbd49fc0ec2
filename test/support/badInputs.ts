/**
 * A corpus of invalid resource arguments, one bad argument per case, for every resource kind and
 * the JobRunner component, with the property path the failure must name and fragments its message
 * must contain. test/engine/reliability-bad-input.test.ts proves each is rejected at preview through
 * the real engine.
 *
 * The engine stops a preview at the first resource whose check fails, but reports every failure of
 * that resource; so cases are packed into "rounds": one resource per round carrying several bad
 * arguments on distinct properties (one preview each). Cross-field rules (which only run once every
 * field is valid on its own) get a round to themselves.
 */
export type BadKind = "pod" | "endpoint" | "networkVolume" | "template" | "registryAuth" | "jobRunner";

/** Marks an argument to leave out (a required one missing). */
export const OMIT = Symbol("omit");

export interface BadInput {
  kind: BadKind;
  label: string;
  /** Resources: top-level arguments to set (OMIT removes a base argument). JobRunner: one case object, or top-level args. */
  args: Record<string, unknown>;
  /** The property path the failure names; for JobRunner case elements "cases[#]..." where # is filled in. */
  property: string;
  /** Fragments the message must contain. */
  contains: string[];
  /** Text the message must not contain (secrets). */
  notContains?: string[];
  /** Needs its own round (cross-field rules, array-level rules). */
  alone?: boolean;
  /** JobRunner: `args` are top-level arguments, not a case element. */
  topLevel?: boolean;
  /** Fragments the message must also contain on one management API (its own bounds). */
  containsOn?: Partial<Record<ApiVersion, string[]>>;
  /** Invalid on this API only (within the other's bounds): left out of the other's previews. */
  only?: ApiVersion;
}

/** The management API a stack speaks (its apiUrl ends in /v1 or /v2). */
export type ApiVersion = "v1" | "v2";

/** The cases invalid on `api`. */
export function casesOn(api: ApiVersion, corpus: readonly BadInput[] = BAD_INPUTS): BadInput[] {
  return corpus.filter((c) => c.only === undefined || c.only === api);
}

/** What a case's message must contain on `api`. */
export function fragmentsOn(input: BadInput, api: ApiVersion): string[] {
  return [...input.contains, ...(input.containsOn?.[api] ?? [])];
}

export const BASE_ARGS: Readonly<Record<BadKind, Record<string, unknown>>> = {
  pod: { name: "bad-input-pod", imageName: "example/app:1" },
  endpoint: { templateId: "tpl0000001" },
  networkVolume: { name: "bad-input-volume", size: 10, dataCenterId: "EU-RO-1" },
  template: { name: "bad-input-template", imageName: "example/app:1" },
  registryAuth: { name: "bad-input-creds", username: "deploy-bot", password: "valid-password-1" },
  jobRunner: { endpoint: "ep00000000001" },
};

const long = (n: number): string => "x".repeat(n);
const SECRET_PASSWORD = "hunter2-secret-registry-value";

const pod = (
  label: string,
  args: Record<string, unknown>,
  property: string,
  contains: string[],
  extra: Partial<BadInput> = {},
): BadInput => ({ kind: "pod", label, args, property, contains, ...extra });
const endpoint = (
  label: string,
  args: Record<string, unknown>,
  property: string,
  contains: string[],
  extra: Partial<BadInput> = {},
): BadInput => ({ kind: "endpoint", label, args, property, contains, ...extra });
const volume = (
  label: string,
  args: Record<string, unknown>,
  property: string,
  contains: string[],
  extra: Partial<BadInput> = {},
): BadInput => ({ kind: "networkVolume", label, args, property, contains, ...extra });
const template = (label: string, args: Record<string, unknown>, property: string, contains: string[]): BadInput => ({
  kind: "template",
  label,
  args,
  property,
  contains,
});
const auth = (
  label: string,
  args: Record<string, unknown>,
  property: string,
  contains: string[],
  extra: Partial<BadInput> = {},
): BadInput => ({ kind: "registryAuth", label, args, property, contains, ...extra });
const job = (
  label: string,
  args: Record<string, unknown>,
  property: string,
  contains: string[],
  extra: Partial<BadInput> = {},
): BadInput => ({ kind: "jobRunner", label, args, property, contains, ...extra });

export const BAD_INPUTS: readonly BadInput[] = [
  // ---- Pod -------------------------------------------------------------------------------------
  pod("udp port", { ports: ["8888/udp"] }, "ports[0]", ['"8888/udp" is not a valid port', 'e.g. "8888/http"']),
  pod("port out of range", { ports: ["70000/tcp"] }, "ports[0]", ['"70000/tcp" is not a valid port']),
  pod("ports not a list", { ports: "8888/http" }, "ports", ["expected a list", '"8888/http"']),
  pod("duplicate port", { ports: ["22/tcp", "22/tcp"] }, "ports[1]", ['"22/tcp" is listed twice']),
  pod("port as a number", { ports: [8888] }, "ports[0]", ["8888", "is not a valid port"]),
  pod("negative container disk", { containerDiskInGb: -5 }, "containerDiskInGb", ["-5 is below the minimum 1 GB", "e.g. 50"]),
  pod("quoted container disk", { containerDiskInGb: "50" }, "containerDiskInGb", ['got "50"', "write 50 without quotes"]),
  pod("fractional container disk", { containerDiskInGb: 2.5 }, "containerDiskInGb", ["2.5 is not a whole number"]),
  pod("negative volume", { volumeInGb: -1 }, "volumeInGb", ["-1 is negative", "0 GB or more"]),
  pod("fractional volume", { volumeInGb: 2.5 }, "volumeInGb", ["2.5 is not a whole number"]),
  pod("gpuCount 0", { gpuCount: 0 }, "gpuCount", ["0 is below the minimum 1 GPUs"]),
  pod("gpuCount as a word", { gpuCount: "two" }, "gpuCount", ['got "two"', "e.g. 1"]),
  pod("cloudType typo", { cloudType: "SECURED" }, "cloudType", ['"SECURED" is not a valid value', 'did you mean "SECURE"']),
  pod("computeType unknown", { computeType: "TPU" }, "computeType", ['"TPU" is not a valid value', 'use one of "GPU", "CPU"']),
  pod("cuda versions not a list", { allowedCudaVersions: "12.4" }, "allowedCudaVersions", ["expected a list"]),
  pod("gpuTypePriority unknown", { gpuTypePriority: "fastest" }, "gpuTypePriority", [
    '"fastest" is not a valid value',
    'use one of "availability", "custom"',
  ]),
  pod("cpuFlavorPriority unknown", { cpuFlavorPriority: "cheap" }, "cpuFlavorPriority", ['"cheap" is not a valid value']),
  pod("dataCenterPriority a number", { dataCenterPriority: 1 }, "dataCenterPriority", ["1 is not a valid value", '"availability"']),
  pod("country code lower case", { countryCodes: ["usa"] }, "countryCodes[0]", ['"usa" is not a two-letter country code']),
  pod("country code twice", { countryCodes: ["US", "US"] }, "countryCodes[1]", ['"US" is listed twice']),
  pod("relative mount path", { volumeMountPath: "workspace" }, "volumeMountPath", ['"workspace" is not an absolute path', '"/workspace"']),
  pod("env name with dash", { env: { "MY-VAR": "x" } }, 'env["MY-VAR"]', [
    '"MY-VAR" is not a valid environment variable name',
    'e.g. "MY_VAR"',
  ]),
  pod("env number value", { env: { PORT: 8080 } }, "env.PORT", ["expected a string value, got a number", "give it as a string (quoted)"]),
  pod("env not a map", { env: "A=1" }, "env", ["expected a map of names to string values"]),
  pod("env name starting with a digit", { env: { "1ABC": "x" } }, 'env["1ABC"]', ['e.g. "_1ABC"']),
  pod("env boolean value", { env: { DEBUG: true } }, "env.DEBUG", ["got a boolean", "give it as a string (quoted)"]),
  pod("empty image", { imageName: "" }, "imageName", ["must not be empty"]),
  pod("image as a number", { imageName: 42 }, "imageName", ["expected a string, got 42"]),
  pod("name too long", { name: long(200) }, "name", ["is 200 characters long", "at most 191"]),
  pod("name as a number", { name: 7 }, "name", ["expected a string, got 7"]),
  pod("desiredStatus unknown", { desiredStatus: "STOPPED" }, "desiredStatus", [
    '"STOPPED" is not a valid value',
    'use one of "RUNNING", "EXITED"',
  ]),
  pod("negative deadline", { readyTimeoutSeconds: -1 }, "readyTimeoutSeconds", ["-1 is negative"]),
  pod("deadline too long", { readyTimeoutSeconds: 100_000 }, "readyTimeoutSeconds", ["100000 is above the maximum 86400 seconds"]),
  pod("argument name typo", { imagename: "x" }, "imagename", ["is not a pod argument", "did you mean imageName?"]),
  pod("argument case typo", { gpucount: 1 }, "gpucount", ["is not a pod argument", "did you mean gpuCount?"]),
  pod("start cmd as a string", { dockerStartCmd: "python app.py" }, "dockerStartCmd", ["expected a list", '"python app.py"']),
  pod("entrypoint element a number", { dockerEntrypoint: ["bash", 3] }, "dockerEntrypoint[1]", ["expected a string, got 3"]),
  pod("interruptible as a string", { interruptible: "yes" }, "interruptible", ['expected true or false, got "yes"']),
  pod("locked as a number", { locked: 1 }, "locked", ["expected true or false, got 1"]),
  pod("globalNetworking as a string", { globalNetworking: "true" }, "globalNetworking", ['expected true or false, got "true"']),
  pod("supportPublicIp as a string", { supportPublicIp: "no" }, "supportPublicIp", ['expected true or false, got "no"']),
  pod("negative download bandwidth", { minDownloadMbps: -10 }, "minDownloadMbps", ["-10 is negative"]),
  pod("upload bandwidth as a word", { minUploadMbps: "fast" }, "minUploadMbps", ['got "fast"']),
  pod("minRAMPerGPU 0", { minRAMPerGPU: 0 }, "minRAMPerGPU", ["0 is below the minimum 1 GB"]),
  pod("fractional minVCPUPerGPU", { minVCPUPerGPU: 1.5 }, "minVCPUPerGPU", ["1.5 is not a whole number"]),
  pod("negative disk bandwidth", { minDiskBandwidthMBps: -1 }, "minDiskBandwidthMBps", ["-1 is negative"]),
  pod("vcpuCount 0", { vcpuCount: 0 }, "vcpuCount", ["0 is below the minimum 1 vCPUs"]),
  pod("empty adoptId", { adoptId: "" }, "adoptId", ["must not be empty"]),
  pod("empty networkVolumeId", { networkVolumeId: "" }, "networkVolumeId", ["must not be empty"]),
  pod("templateId a number", { templateId: 5 }, "templateId", ["expected a string, got 5"]),
  pod("empty registry auth id", { containerRegistryAuthId: "" }, "containerRegistryAuthId", ["must not be empty"]),
  pod("gpuTypeIds a string", { gpuTypeIds: "NVIDIA L4" }, "gpuTypeIds", ["expected a list", '"NVIDIA L4"']),
  pod("gpu type twice", { gpuTypeIds: ["NVIDIA L4", "NVIDIA L4"] }, "gpuTypeIds[1]", ['"NVIDIA L4" is listed twice']),
  pod("empty gpu type", { gpuTypeIds: [""] }, "gpuTypeIds[0]", ["must not be empty"]),
  pod("dataCenterIds a string", { dataCenterIds: "EU-RO-1" }, "dataCenterIds", ["expected a list"]),
  pod("restartTrigger a number", { restartTrigger: 5 }, "restartTrigger", ["expected a string, got 5"]),
  pod("no image and no template", { imageName: OMIT }, "imageName", ["is required unless templateId is set"], { alone: true }),
  // The service refuses a pod create body over 102,400 bytes (413); env is secret, so its value is never printed.
  pod(
    "create body over the v2 limit",
    { env: { BIG: long(102_400) } },
    "env",
    ["over the service's limit of 102,400 bytes", "shrink the env"],
    {
      only: "v2",
      alone: true,
      notContains: [long(40)],
    },
  ),

  // ---- Endpoint --------------------------------------------------------------------------------
  endpoint("templateId missing", { templateId: OMIT }, "templateId", ["is required", "e.g. template.id"]),
  endpoint("templateId empty", { templateId: "" }, "templateId", ["must not be empty"]),
  endpoint("idleTimeout 0", { idleTimeout: 0 }, "idleTimeout", ["0 is below the minimum 1 seconds", "from 1 to 3600 seconds"]),
  endpoint("idleTimeout too long", { idleTimeout: 4000 }, "idleTimeout", ["4000 is above the maximum 3600 seconds"]),
  endpoint("negative workersMax", { workersMax: -1 }, "workersMax", ["-1 is negative"]),
  endpoint("fractional workersMin", { workersMin: 2.5 }, "workersMin", ["2.5 is not a whole number"]),
  endpoint("scalerType unknown", { scalerType: "QUEUE" }, "scalerType", ['"QUEUE" is not a valid value', '"QUEUE_DELAY", "REQUEST_COUNT"']),
  // Each API quotes its own bound: v1 whole numbers from 1, v2 QUEUE_DELAY seconds from 0.5.
  endpoint("scalerValue 0", { scalerValue: 0 }, "scalerValue", ["0 is below the minimum"], {
    containsOn: { v1: ["0 is below the minimum 1;", "the v1 API's bound"], v2: ["0 is below the minimum 0.5;", "the v2 API's bound"] },
  }),
  endpoint(
    "fractional scalerValue on v1",
    { scalerValue: 0.75 },
    "scalerValue",
    ["0.75 is not a whole number", "the v1 API's bound", "QUEUE_DELAY takes seconds from 0.5"],
    { only: "v1" },
  ),
  endpoint("gpuCount 0", { gpuCount: 0 }, "gpuCount", ["0 is below the minimum 1 GPUs"]),
  endpoint("computeType lower case", { computeType: "gpu" }, "computeType", ['did you mean "GPU"']),
  endpoint("executionTimeoutMs 0", { executionTimeoutMs: 0 }, "executionTimeoutMs", ["0 is below the minimum 1 ms"]),
  endpoint("flashboot as a string", { flashboot: "yes" }, "flashboot", ['expected true or false, got "yes"']),
  endpoint("volume listed twice", { networkVolumeIds: ["vol0000001", "vol0000001"] }, "networkVolumeIds[1]", [
    '"vol0000001" is listed twice',
  ]),
  endpoint("empty networkVolumeId", { networkVolumeId: "" }, "networkVolumeId", ["must not be empty"]),
  endpoint("empty data center", { dataCenterIds: [""] }, "dataCenterIds[0]", ["must not be empty"]),
  endpoint("name too long", { name: long(192) }, "name", ["is 192 characters long", "at most 191"]),
  endpoint("negative vcpuCount", { vcpuCount: -2 }, "vcpuCount", ["-2 is below the minimum 1 vCPUs"]),
  endpoint("gpuTypeIds a number", { gpuTypeIds: 7 }, "gpuTypeIds", ["expected a list, got 7"]),
  endpoint("quoted deadline", { readyTimeoutSeconds: "10" }, "readyTimeoutSeconds", ["write 10 without quotes"]),
  endpoint("argument typo", { workersmax: 3 }, "workersmax", ["is not a", "did you mean workersMax?"]),
  endpoint("env is not an endpoint argument", { env: { A: "b" } }, "env", ["is not a", "endpoint argument"]),
  endpoint("workersMin above workersMax", { workersMin: 5, workersMax: 2 }, "workersMin", ["5 is more than workersMax (2)", "at most 2"], {
    alone: true,
  }),

  // ---- NetworkVolume ---------------------------------------------------------------------------
  // Each API quotes its own bounds: v1 0 to 4000 GB, v2 10 to 4096 GB.
  volume("negative size", { size: -1 }, "size", [], {
    containsOn: {
      v1: ["-1 is negative", "from 0 to 4000 GB", "the v1 API's bounds"],
      v2: ["-1 is below the minimum 10 GB", "from 10 to 4096 GB", "the v2 API's bounds"],
    },
  }),
  volume("size above both maximums", { size: 5000 }, "size", [], {
    containsOn: {
      v1: ["5000 is above the maximum 4000 GB", "with gpucloud:apiUrl set to the /v2 URL, 10 to 4096 GB"],
      v2: ["5000 is above the maximum 4096 GB", "the v2 API's bounds"],
    },
  }),
  volume("size above v1's maximum", { size: 4050 }, "size", ["4050 is above the maximum 4000 GB", "the v1 API's bounds"], { only: "v1" }),
  volume("size below v2's minimum", { size: 5 }, "size", ["5 is below the minimum 10 GB", "from 10 to 4096 GB", "the v2 API's bounds"], {
    only: "v2",
  }),
  volume("quoted size", { size: "100" }, "size", ["write 100 without quotes"]),
  volume("fractional size", { size: 10.5 }, "size", ["10.5 is not a whole number"]),
  volume("size missing", { size: OMIT }, "size", ["is required"]),
  volume("dataCenterId missing", { dataCenterId: OMIT }, "dataCenterId", ["is required", '"EU-RO-1"']),
  volume("dataCenterId empty", { dataCenterId: "" }, "dataCenterId", ["must not be empty"]),
  volume("dataCenterId a number", { dataCenterId: 4 }, "dataCenterId", ["expected a string, got 4"]),
  volume("name missing", { name: OMIT }, "name", ["is required"]),
  volume("name empty", { name: "" }, "name", ["must not be empty"]),
  volume("name a number", { name: 12 }, "name", ["expected a string, got 12"]),
  volume("argument typo", { sizeGb: 10 }, "sizeGb", ["is not a", "did you mean size?"]),
  volume("adoptId a number", { adoptId: 3 }, "adoptId", ["expected a string, got 3"]),

  // ---- Template --------------------------------------------------------------------------------
  template("category unknown", { category: "INTEL" }, "category", ['"INTEL" is not a valid value', '"NVIDIA", "AMD", "CPU"']),
  template("category lower case", { category: "nvidia" }, "category", ['did you mean "NVIDIA"']),
  template("port without protocol", { ports: ["8080"] }, "ports[0]", ['"8080" is not a valid port']),
  template("ports a string", { ports: "8888/http" }, "ports", ["expected a list"]),
  template("name missing", { name: OMIT }, "name", ["is required"]),
  template("name too long", { name: long(300) }, "name", ["is 300 characters long"]),
  template("isServerless as a string", { isServerless: "true" }, "isServerless", ['expected true or false, got "true"']),
  template("isPublic as a string", { isPublic: "no" }, "isPublic", ['expected true or false, got "no"']),
  template("negative volume", { volumeInGb: -20 }, "volumeInGb", ["-20 is negative"]),
  template("container disk 0", { containerDiskInGb: 0 }, "containerDiskInGb", ["0 is below the minimum 1 GB"]),
  template("empty image", { imageName: "" }, "imageName", ["must not be empty"]),
  template("relative mount path", { volumeMountPath: "data" }, "volumeMountPath", ['"data" is not an absolute path']),
  template("empty registry auth id", { containerRegistryAuthId: "" }, "containerRegistryAuthId", ["must not be empty"]),
  template("entrypoint a string", { dockerEntrypoint: "bash" }, "dockerEntrypoint", ["expected a list"]),
  template("env name with a space", { env: { "bad name": "x" } }, 'env["bad name"]', [
    "is not a valid environment variable name",
    'e.g. "bad_name"',
  ]),
  template("readme a number", { readme: 5 }, "readme", ["expected a string, got 5"]),
  template("argument typo", { imagename: "x" }, "imagename", ["is not a", "did you mean imageName?"]),
  template("empty adoptId", { adoptId: "" }, "adoptId", ["must not be empty"]),

  // ---- RegistryAuth (never echoes credentials) -------------------------------------------------
  auth("password missing", { password: OMIT }, "password", ["is required"]),
  auth("password empty", { password: "" }, "password", ["must not be empty"]),
  auth("password a number", { password: 12345 }, "password", ["expected a string, got a number"], { notContains: ["12345"] }),
  auth("username empty", { username: "" }, "username", ["must not be empty"]),
  auth("username a number", { username: 424242 }, "username", ["expected a string, got a number"], { notContains: ["424242"] }),
  auth("unknown argument", { token: "x" }, "token", ["is not a registry auth argument"]),
  auth("name missing", { name: OMIT }, "name", ["is required"]),
  auth("name too long", { name: long(192) }, "name", ["is 192 characters long"]),
  auth("password as a list", { password: [SECRET_PASSWORD] }, "password", ["expected a string"], { notContains: [SECRET_PASSWORD] }),
  auth("empty adoptId", { adoptId: "" }, "adoptId", ["must not be empty"]),
  auth("name empty", { name: "" }, "name", ["must not be empty"]),

  // ---- JobRunner (smoke-test cases) ------------------------------------------------------------
  job("case name empty", { name: "", input: {} }, "cases[#].name", ["name must not be empty"]),
  job("case name too long", { name: long(101), input: {} }, "cases[#].name", ["name must be at most 100 characters"]),
  job("input not an object", { input: 3 }, "cases[#].input", ["input must be an object"]),
  job("timeoutSeconds 0", { input: {}, timeoutSeconds: 0 }, "cases[#].timeoutSeconds", ["timeoutSeconds must be greater than 0"]),
  job("timeoutSeconds too long", { input: {}, timeoutSeconds: 5000 }, "cases[#].timeoutSeconds", ["timeoutSeconds must be at most 3600"]),
  job("expected status unknown", { input: {}, expect: { status: "DONE" } }, "cases[#].expect.status", ["COMPLETED"]),
  job(
    "predicate op unknown",
    { input: {}, expect: { outputPredicates: [{ op: "between", value: 1 }] } },
    "cases[#].expect.outputPredicates[0].op",
    ["op must be one of", '"between"'],
  ),
  job(
    "predicate regex invalid",
    { input: {}, expect: { outputPredicates: [{ op: "matches", value: "(" }] } },
    "cases[#].expect.outputPredicates[0].value",
    ['"(" is not a valid regular expression'],
  ),
  job(
    "predicate gt on a string",
    { input: {}, expect: { outputPredicates: [{ op: "gt", value: "5" }] } },
    "cases[#].expect.outputPredicates[0].value",
    ['op "gt" compares numbers', '"5"'],
  ),
  job(
    "predicate type unknown",
    { input: {}, expect: { outputPredicates: [{ op: "type", value: "date" }] } },
    "cases[#].expect.outputPredicates[0].value",
    ['op "type" takes one of'],
  ),
  job(
    "predicate needs a value",
    { input: {}, expect: { outputPredicates: [{ op: "equals" }] } },
    "cases[#].expect.outputPredicates[0].value",
    ['op "equals" needs a value'],
  ),
  job(
    "regex not a string",
    { input: {}, expect: { outputPredicates: [{ op: "matches", value: 5 }] } },
    "cases[#].expect.outputPredicates[0].value",
    ["takes a regular expression as a string"],
  ),
  job("unknown key in a case", { input: {}, extra: 1 }, "cases[#]", ['"extra"']),
  job("unknown key in expect", { input: {}, expect: { errorContain: "x" } }, "cases[#].expect", ['"errorContain"']),
  job("policy ttl too short", { input: {}, policy: { ttl: 5 } }, "cases[#].policy.ttl", ["policy.ttl must be at least 10000 ms"]),
  job(
    "policy executionTimeout too long",
    { input: {}, policy: { executionTimeout: 30 * 24 * 3_600_000 } },
    "cases[#].policy.executionTimeout",
    ["must be at most", "(7 days)"],
  ),
  job("policy ttl not a number", { input: {}, policy: { ttl: "1h" } }, "cases[#].policy.ttl", [
    'policy.ttl must be a number of milliseconds (got "1h")',
  ]),
  job("no cases", { cases: [] }, "cases", ["give at least one smoke-test case"], { topLevel: true, alone: true }),
  job(
    "case name used twice",
    {
      cases: [
        { name: "same", input: {} },
        { name: "same", input: {} },
      ],
    },
    "cases[1].name",
    ['case name "same" is used twice'],
    { topLevel: true, alone: true },
  ),
  job("endpoint id empty", { endpoint: "", cases: [{ name: "ok", input: {} }] }, "endpointId", ["endpointId must not be empty"], {
    topLevel: true,
    alone: true,
  }),
];

/** One resource's worth of cases: the resource's arguments and which case fails on which path. */
export interface Round {
  kind: BadKind;
  /** Resource name in the program. */
  name: string;
  args: Record<string, unknown>;
  cases: { input: BadInput; property: string }[];
}

function topKey(property: string): string {
  return property.split(/[.[]/)[0] ?? property;
}

/** Packs the corpus into rounds: distinct top-level properties per round; `alone` cases alone. */
export function packRounds(corpus: readonly BadInput[]): Round[] {
  const rounds: Round[] = [];
  const counters = new Map<BadKind, number>();
  const newRound = (kind: BadKind): Round => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    const round: Round = { kind, name: `${kind}-bad-${n}`, args: { ...BASE_ARGS[kind] }, cases: [] };
    if (kind === "jobRunner") round.args["cases"] = [];
    rounds.push(round);
    return round;
  };
  for (const input of corpus) {
    if (input.kind === "jobRunner" && !input.topLevel) {
      // Case elements: each its own array slot with a unique name, so they never collide.
      let round = rounds.find((r) => r.kind === "jobRunner" && Array.isArray(r.args["cases"]) && !r.cases.some((c) => c.input.alone));
      round ??= newRound("jobRunner");
      const list = round.args["cases"] as Record<string, unknown>[];
      const index = list.length;
      list.push({ name: `case-${index}`, ...input.args });
      round.cases.push({ input, property: input.property.replace("#", String(index)) });
      continue;
    }
    let round: Round | undefined;
    if (!input.alone) {
      const keys = Object.keys(input.args).map(topKey);
      round = rounds.find(
        (r) =>
          r.kind === input.kind &&
          !r.cases.some(
            (c) =>
              c.input.alone ||
              c.input.topLevel ||
              keys.includes(topKey(c.property)) ||
              Object.keys(c.input.args).some((k) => keys.includes(k)),
          ),
      );
    }
    round ??= newRound(input.kind);
    for (const [key, value] of Object.entries(input.args)) {
      if (value === OMIT) delete round.args[key];
      else round.args[key] = value;
    }
    round.cases.push({ input, property: input.property });
  }
  return rounds;
}

// ---- what the engine reports ------------------------------------------------------------------

/** A message that helps: says what is wrong and, mostly, what to do. Not empty, not a bare "Invalid". */
export const USEFUL =
  /e\.g\.|use |set |did you mean|is required|must |at most|at least|or more|expected|quote it|without quotes|listed twice|is not a|is used twice|give at least|compares numbers|takes |needs a value|Unrecognized key|Invalid option/;

/** The round's arguments as declared on `api`: a v2 GPU pod takes exactly one GPU type. */
export function argsOn(api: ApiVersion, round: Round): Record<string, unknown> {
  const v2Pod = api === "v2" && round.kind === "pod" && round.args["gpuTypeIds"] === undefined && round.args["computeType"] !== "CPU";
  return v2Pod ? { ...round.args, gpuTypeIds: ["NVIDIA L4"] } : round.args;
}

/** One check failure as the engine prints it: the property path, the provider's reason, the whole line. */
export interface EngineCheckFailure {
  property: string;
  reason: string;
  raw: string;
}

/** "...resource 'NAME': property PATH value {...} has a problem: REASON" -> {property, reason}. */
export function parseCheckFailure(message: string): EngineCheckFailure | undefined {
  const m = /resource '[^']+': property (.+?) value \{[\s\S]*?\} has a problem: ([\s\S]*)$/.exec(message.trim());
  if (m) return { property: m[1] ?? "", reason: (m[2] ?? "").trim(), raw: message };
  // Failures of secret-bearing fields name no property (so the engine prints no value): the path
  // is the start of the reason.
  const bare = /resource '[^']+' has a problem: (.+?): ([\s\S]*)$/.exec(message.trim());
  return bare ? { property: bare[1] ?? "", reason: `${bare[1]}: ${(bare[2] ?? "").trim()}`, raw: message } : undefined;
}
