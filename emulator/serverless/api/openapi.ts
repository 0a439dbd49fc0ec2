/**
 * GET /v2/openapi.json: the emulator's description of its job API, generated from the job API's
 * route table and the zod schemas that read its requests (and describe its answers: wire.ts), as
 * /v1/openapi.json and /api/v2/openapi.json are from theirs. Served at the job API's base: an
 * endpoint id never holds a dot, so `openapi.json` cannot be one.
 *
 * An operation that answers several methods (some clients send POST to /status) is listed under
 * each; the first is the operation's own and carries its operationId, the others say whose they
 * are (operation ids are unique in a description).
 */
import { type Json, jsonSchema } from "../../openapi";
import type { JobOperation } from "./operation";
import { defineJobOperation } from "./operation";
import { RESPONSE_SCHEMAS } from "./wire";

export const JOB_API_BASE_PATH = "/v2";

const JSON_TYPE = "application/json";

const STATUS_TEXT: Readonly<Record<number, string>> = {
  204: "Nothing came while the request was held.",
  400: "Invalid query parameter, path parameter or body: the message names it and the value received.",
  401: "Missing or unknown API key.",
  404: "Unknown endpoint, job or path.",
  405: "Method not allowed (`Allow` lists the methods).",
  409: "The pinned worker (X-Service-Worker-Id) is gone or unhealthy.",
  413: "Request body too large for this route.",
  429: "Over the route's rate or concurrency limit for this account on this endpoint; retry after `Retry-After` seconds.",
  500: "The job did not complete.",
  502: "The worker failed while handling the request; it was not retried.",
  503: "The job service is shutting down, or (load balancing) no worker became healthy in time.",
  504: "The job did not finish within the wait.",
};

const PARAMETER_TEXT: Readonly<Record<string, string>> = {
  endpoint_id: "The endpoint's id (letters, digits, - and _).",
  job_id: "The job's id, as /run or /runsync answered it.",
  worker_id: "The worker's id; with the worker SDK's `&name=value` suffix, read as query parameters.",
  openai_route: "The OpenAI route after /openai, several segments (v1/chat/completions).",
  path: "The path the worker's HTTP server gets, several segments (and the query).",
};

const TAGS: Json[] = [
  { name: "queue", description: "Jobs on a queue-based endpoint: submit, follow, cancel, retry." },
  { name: "endpoint", description: "The endpoint's counts and recent jobs." },
  { name: "openai", description: "OpenAI-compatible requests, each run as a job." },
  { name: "worker", description: "The worker pull protocol: what a worker sends (WORKER-PROTOCOL.md)." },
  { name: "load balancing", description: "Load-balancing endpoints: every request goes to a worker's HTTP server." },
  { name: "meta", description: "This description." },
];

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Methods OpenAPI 3.0 gives no request body (an OpenAI request's GET may carry one all the same). */
const NO_BODY_DOCUMENTED: readonly string[] = ["GET", "HEAD", "OPTIONS", "DELETE"];

/** Methods whose requests carry a body the operation reads. */
function readsBody(op: JobOperation<unknown>, method: string): boolean {
  return op.body !== undefined && !op.body.notReadOn?.includes(method) && !NO_BODY_DOCUMENTED.includes(method);
}

function parameters(op: JobOperation<unknown>): Json[] {
  const out: Json[] = [];
  for (const match of op.path.matchAll(/\{(\w+)\}/g)) {
    const name = match[1] ?? "";
    out.push({ name, in: "path", required: true, description: PARAMETER_TEXT[name] ?? name, schema: { type: "string" } });
  }
  for (const [name, schema] of Object.entries(op.query)) out.push({ name, in: "query", required: false, schema: jsonSchema(schema, "input") });
  return out;
}

function responses(op: JobOperation<unknown>): { [status: string]: Json } {
  const out: { [status: string]: Json } = {};
  const { status, description, schemaName, array } = op.response;
  const schema = schemaName === undefined ? undefined : array ? { type: "array", items: ref(schemaName) } : ref(schemaName);
  out[String(status)] = schema === undefined ? { description } : { description, content: { [JSON_TYPE]: { schema } } };
  if (op.noContent !== undefined) out["204"] = { description: op.noContent };
  // What every operation of its kind can answer (router.ts), besides its own.
  const errors = new Set<number>(op.errors);
  if (op.side !== "public") [401, 404, 503].forEach((code) => errors.add(code));
  if (op.side !== "proxy") errors.add(405);
  if (op.limit !== undefined) errors.add(429);
  if (op.body !== undefined) errors.add(413);
  for (const code of [...errors].sort()) {
    out[String(code)] = { description: STATUS_TEXT[code] ?? "Error.", content: { [JSON_TYPE]: { schema: ref("Error") } } };
  }
  return out;
}

function operationObject(op: JobOperation<unknown>, method: string): Json {
  const own = method === op.methods[0];
  const operation: { [key: string]: Json } = { summary: op.summary, tags: [op.tag], parameters: parameters(op), responses: responses(op) };
  if (own) operation.operationId = op.operationId;
  else operation.description = `The same operation as ${op.methods[0]} (${op.operationId}), for clients that send ${method}.`;
  if (op.limit !== undefined) operation["x-limit"] = op.limit;
  if (op.body !== undefined && readsBody(op, method)) {
    const schema = op.bodyName !== undefined ? ref(op.bodyName) : jsonSchema(op.body.schema, "input");
    operation.requestBody = { required: op.bodyName === "JobRequest", content: { [JSON_TYPE]: { schema } } };
  }
  if (op.side === "public") operation.security = [];
  return operation;
}

export function buildJobApiDocument(operations: readonly JobOperation<unknown>[]): Json {
  const schemas: { [name: string]: Json } = {};
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) schemas[name] = jsonSchema(schema, "output");
  for (const op of operations) if (op.body !== undefined && op.bodyName !== undefined) schemas[op.bodyName] = jsonSchema(op.body.schema, "input");
  const paths: { [path: string]: { [method: string]: Json } } = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    for (const method of op.methods) item[method.toLowerCase()] = operationObject(op, method);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "pulumi-gpucloud emulator: job API",
      version: "2.0.0",
      description:
        "The local emulator's implementation of the service's job API (queue-based endpoints, OpenAI-compatible requests, " +
        "the worker pull protocol, load-balancing endpoints). Successes are JSON (`application/json`); errors are " +
        '`{"error": "..."}`. Every operation except this document needs `Authorization: Bearer <api key>` (or the bare key). ' +
        "`x-limit` names the per-account, per-endpoint limit a request counts against.",
    },
    servers: [{ url: JOB_API_BASE_PATH }],
    security: [{ apiKey: [] }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "Authorization", description: "`Bearer <api key>`, or the bare key (as workers send it)." },
      },
      schemas,
    },
  };
}

/** The public document operation; `all` is read lazily so it can describe itself. */
export function jobApiDocumentOperation(all: () => readonly JobOperation<unknown>[]): JobOperation<undefined> {
  let cached: Json | undefined;
  return defineJobOperation({
    side: "public",
    operationId: "getJobApiOpenApi",
    summary: "OpenAPI 3.0 description of this emulator's job API",
    tag: "meta",
    methods: ["GET"],
    path: "/openapi.json",
    response: { status: 200, description: "The OpenAPI document." },
    errors: [],
    handle() {
      cached ??= buildJobApiDocument(all());
      return { status: 200, body: cached };
    },
  });
}
