/**
 * Conformance of the emulator's v2 surface: GET /api/v2/openapi.json held against the project's
 * description of the service's v2 wire (test/support/fixtures/v2-wire.json, read by
 * test/support/v2Wire.ts). Every described operation of the five resources, catalog, billing and
 * account must be served with the same method, path, operation id, success status, body and
 * response schema names and query parameters; every schema field reachable from them must be present with the description's name,
 * type, nullability and enum, and required where it is required. What the emulator does
 * differently is listed below with the reason; a listed difference that no longer occurs fails
 * too, so the lists stay true.
 *
 * Where the facts come from: each operation, schema and added field in v2-wire.json names its
 * source: "2026-08" for the service's published v2 description as of August 2026 (transcribed by
 * scripts/check-v2-wire.ts, which also compares the file with a reference copy), "today §N" for
 * the section of the project's notes on what the live API gained since: paginated lists (§1),
 * account secrets (§2), the account and its limits (§3), global volumes (§4), cmd[]/entrypoint[] on
 * container configs (§5.1), a pod's gpu.vcpuCount/gpu.memory and create's per-GPU placement filters
 * (§5.2), an endpoint's builds (§5.3), a cluster's templateId (§5.4).
 * What the answers themselves carry is checked by v2-corpus.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../../emulator";
import { startTestEmulator } from "../../../support/managementHelpers";
import { each } from "./v2-pending";
import { type WireNode, type WireOperation, flattenWire, loadV2Wire } from "../../../support/v2Wire";

/** Described operations the emulator does not serve, and why. */
const NOT_SERVED: Readonly<Record<string, string>> = {
  getPodLogs: "log streams: the emulator runs no containers, so it has no logs to stream",
  getWorkerLogs: "log streams: the emulator runs no containers, so it has no logs to stream",
};

/**
 * Schema differences, by the path the comparison reports (`Schema.field...: what`), and why. A
 * field the reference has that the emulator lacks, or a type that differs, belongs here only with
 * a reason a user of the emulator can accept.
 */
const SCHEMA_DIFFERENCES: Readonly<Record<string, string>> = {
  ...each(
    ["spendRate", "serverlessWorkers"].flatMap((limit) => [
      `AccountLimits.${limit}.limit: not in the reference`,
      `AccountLimits.${limit}.current: not in the reference`,
    ]),
    "the reference shows only that spendRate and serverlessWorkers are required objects (today §3.2, §7: their inner fields are unverified); the emulator answers the cap and the current figure (emulator README, account limits)",
  ),
  "UpdateEndpointRequest.gpu.count: default 1 in the reference, none in the emulator":
    "the reference inherits the default from the base GPU schema it shares with create; in a PATCH an omitted count leaves the count as it is",
};

/** Error statuses the reference documents on every operation that the emulator never answers, and why. */
const ERRORS_NOT_ANSWERED: Readonly<Record<number, string>> = {};

/** Operation differences (`METHOD path: what`), and why. */
const OPERATION_DIFFERENCES: Readonly<Record<string, string>> = {};

/** Query parameter differences (`operationId query name: what`), and why. */
const PARAM_DIFFERENCES: Readonly<Record<string, string>> = {};

interface JsonSchema {
  type?: string | string[];
  default?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: Array<{ name: string; in: string; schema: JsonSchema }>;
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
}

const reference = loadV2Wire();
let doc: Document;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
  const res = await fetch(`${emu.apiUrlV2}/openapi.json`);
  doc = (await res.json()) as Document;
});
afterAll(() => emu.close());

function resolveEmu(schema: JsonSchema): JsonSchema {
  if (schema.$ref) return resolveEmu(doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] ?? {});
  return schema;
}

type Mode = "request" | "response";

/** Pushes every way `emu` differs from the reference node, each prefixed by `at`. */
function compare(node: WireNode, emuSchema: JsonSchema, at: string, mode: Mode, problems: string[]): void {
  const ref = flattenWire(reference, node);
  let emu = resolveEmu(emuSchema);
  let emuNullable = emu.nullable === true;
  const emuAlternatives = [...(emu.anyOf ?? []), ...(emu.oneOf ?? [])].map(resolveEmu);
  const emuNonNull = emuAlternatives.filter((a) => a.type !== "null");
  if (emuNonNull.length < emuAlternatives.length) emuNullable = true;
  if (emuAlternatives.length > 0 && emuNonNull.length === 1) emu = { ...(emuNonNull[0] as JsonSchema), nullable: emuNullable };

  if (ref.nullable !== emuNullable) {
    // A response may be narrower than the reference (never null), a request broader (accepts null).
    const harmless = mode === "response" ? !emuNullable : emuNullable;
    if (!harmless) problems.push(`${at}: ${emuNullable ? "nullable in the emulator only" : "nullable in the reference only"}`);
  }
  if (ref.variants.length > 0) {
    const candidates = emuNonNull.length > 1 ? emuNonNull : [];
    if (candidates.length === 0) {
      problems.push(`${at}: a union of ${ref.variants.length} in the reference, not in the emulator`);
      return;
    }
    ref.variants.forEach((variant, i) => {
      const attempts = candidates.map((c) => {
        const found: string[] = [];
        compare(variant, c, at, mode, found);
        return found;
      });
      const best = attempts.reduce((a, b) => (b.length < a.length ? b : a));
      if (best.length > 0)
        problems.push(`${at}: variant ${variant.ref ?? i} has no matching emulator variant (closest: ${best.join("; ")})`);
    });
    return;
  }
  if (ref.types.size > 0) {
    const emuType = Array.isArray(emu.type) ? emu.type.filter((t) => t !== "null") : emu.type === undefined ? [] : [emu.type];
    const fits = emuType.length > 0 && emuType.every((t) => ref.types.has(t) || (t === "integer" && ref.types.has("number")));
    if (!fits) {
      problems.push(`${at}: type ${[...ref.types].join("|")} in the reference, ${emuType.join("|") || "untyped"} in the emulator`);
      return;
    }
  }
  if (ref.enum) {
    const emuEnum = (emu.enum ?? []).map(String).sort();
    const want = [...ref.enum].sort();
    if (JSON.stringify(emuEnum) !== JSON.stringify(want))
      problems.push(`${at}: enum [${want.join(", ")}] in the reference, [${emuEnum.join(", ")}] in the emulator`);
  }
  // A default is what a client gets by leaving the field out: it matters where clients send.
  if (mode === "request" && ref.default !== undefined) {
    const emuDefault = emu.default === undefined ? "none" : JSON.stringify(emu.default);
    if (emuDefault !== ref.default) problems.push(`${at}: default ${ref.default} in the reference, ${emuDefault} in the emulator`);
  }
  if (ref.types.has("object") || ref.properties.size > 0) {
    const emuProps = emu.properties ?? {};
    const emuRequired = new Set(emu.required ?? []);
    for (const [name, child] of ref.properties) {
      const emuChild = emuProps[name];
      if (!emuChild) {
        problems.push(`${at}.${name}: missing in the emulator`);
        continue;
      }
      compare(child, emuChild, `${at}.${name}`, mode, problems);
      if (mode === "response" && ref.required.has(name) && !emuRequired.has(name))
        problems.push(`${at}.${name}: required in the reference, optional in the emulator`);
      if (mode === "request" && emuRequired.has(name) && !ref.required.has(name))
        problems.push(`${at}.${name}: required by the emulator, optional in the reference`);
    }
    for (const name of Object.keys(emuProps)) if (!ref.properties.has(name)) problems.push(`${at}.${name}: not in the reference`);
    if (ref.additionalProperties && typeof emu.additionalProperties === "object")
      compare(ref.additionalProperties, emu.additionalProperties, `${at}{}`, mode, problems);
  }
  if (ref.items) {
    if (!emu.items) problems.push(`${at}[]: no item schema in the emulator`);
    else compare(ref.items, emu.items, `${at}[]`, mode, problems);
  }
}

const served = reference.operations.filter((op) => !(op.operationId in NOT_SERVED));

function emuOperation(op: WireOperation) {
  return doc.paths[op.path]?.[op.method.toLowerCase()];
}

describe("the v2 operations", () => {
  it("every reference operation is served or listed with a reason, and the emulator serves nothing else", () => {
    const missing = served.filter((op) => !emuOperation(op)).map((op) => `${op.method} ${op.path} (${op.operationId})`);
    expect(missing).toEqual([]);
    const listedButServed = reference.operations
      .filter((op) => op.operationId in NOT_SERVED && emuOperation(op))
      .map((op) => op.operationId);
    expect(listedButServed).toEqual([]);
    const known = new Set(reference.operations.map((op) => `${op.method.toLowerCase()} ${op.path}`));
    const extra = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`))
      .filter((k) => !known.has(k));
    expect(extra).toEqual(["get /openapi.json"]);
    for (const id of Object.keys(NOT_SERVED))
      expect(
        reference.operations.map((op) => op.operationId),
        `stale NOT_SERVED entry ${id}`,
      ).toContain(id);
  });

  it("each has the reference's operation id, success statuses, error statuses (problem+json), body and response schema names", () => {
    const problems: string[] = [];
    for (const op of served) {
      const emuOp = emuOperation(op);
      if (!emuOp) continue;
      const at = `${op.method} ${op.path}`;
      if (emuOp.operationId !== op.operationId) problems.push(`${at}: operationId ${emuOp.operationId}, reference ${op.operationId}`);
      const emuBody = emuOp.requestBody?.content["application/json"]?.schema.$ref?.split("/").at(-1);
      if (emuBody !== op.requestBody) problems.push(`${at}: request body ${emuBody}, reference ${op.requestBody}`);
      for (const [status, schemaName] of op.responses) {
        const response = emuOp.responses[String(status)];
        if (!response) {
          problems.push(`${at}: no ${status} response`);
          continue;
        }
        const emuSchema = response.content?.["application/json"]?.schema.$ref?.split("/").at(-1);
        if (emuSchema !== schemaName) problems.push(`${at} ${status}: schema ${emuSchema}, reference ${schemaName}`);
      }
      for (const status of op.errors.filter((code) => !(code in ERRORS_NOT_ANSWERED))) {
        const response = emuOp.responses[String(status)];
        if (!response) problems.push(`${at}: error ${status} not described`);
        else if (!response.content?.["application/problem+json"]) problems.push(`${at}: error ${status} is not application/problem+json`);
      }
    }
    expect(problems.filter((p) => !(p in OPERATION_DIFFERENCES))).toEqual([]);
    expect(Object.keys(OPERATION_DIFFERENCES).filter((d) => !problems.includes(d))).toEqual([]);
  });

  it("each takes the reference's query parameters with their types and enums", () => {
    const problems: string[] = [];
    for (const op of served) {
      const emuOp = emuOperation(op);
      if (!emuOp) continue;
      const emuParams = new Map((emuOp.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p.schema]));
      const refQuery = op.params.filter((p) => p.in === "query");
      for (const param of refQuery) {
        const emuSchema = emuParams.get(param.name);
        if (!emuSchema) problems.push(`${op.operationId} query ${param.name}: missing in the emulator`);
        else compare(param.schema, emuSchema, `${op.operationId} query ${param.name}`, "request", problems);
      }
      for (const name of emuParams.keys())
        if (!refQuery.some((p) => p.name === name)) problems.push(`${op.operationId} query ${name}: not in the reference`);
    }
    expect(problems.filter((p) => !(p in PARAM_DIFFERENCES))).toEqual([]);
    expect(Object.keys(PARAM_DIFFERENCES).filter((d) => !problems.includes(d))).toEqual([]);
  });
});

const named = (name: string): WireNode => ({ ref: name, types: [], required: [], properties: new Map(), allOf: [], oneOf: [], anyOf: [] });

describe("the v2 schemas", () => {
  it("the comparison sees a missing field, an extra field, a changed type, enum or nullability (so a pass means something)", () => {
    const pod = structuredClone(doc.components.schemas.Pod ?? {});
    const props = pod.properties ?? {};
    props.label = props.name ?? {};
    delete props.name;
    props.locked = { type: "string" };
    props.status = { type: "string", enum: ["RUNNING"] };
    props.cost = { type: "number", nullable: true };
    const problems: string[] = [];
    compare(named("Pod"), pod, "Pod", "response", problems);
    expect(problems).toEqual(
      expect.arrayContaining([
        "Pod.name: missing in the emulator",
        "Pod.label: not in the reference",
        "Pod.locked: type boolean in the reference, string in the emulator",
        expect.stringMatching(/^Pod\.status: enum \[.*PROVISIONING.*\] in the reference, \[RUNNING\] in the emulator$/),
        "Pod.cost: nullable in the emulator only",
      ]),
    );
    const endpoint = structuredClone(doc.components.schemas.Endpoint ?? {});
    delete endpoint.properties?.scaling?.oneOf?.[1]?.properties?.requestCount;
    const unionProblems: string[] = [];
    compare(named("Endpoint"), endpoint, "Endpoint", "response", unionProblems);
    expect(unionProblems.join("\n")).toMatch(/Endpoint\.scaling: variant RequestCountScaling has no matching emulator variant/);
  });

  it("every field of every request and response schema has the reference's name, type, nullability, enum and requiredness", () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const op of served) {
      const schemaNames: Array<[string | undefined, Mode]> = [
        [op.requestBody, "request"],
        ...[...op.responses.values()].map((n): [string | undefined, Mode] => [n, "response"]),
      ];
      for (const [name, mode] of schemaNames) {
        if (name === undefined || seen.has(name)) continue;
        seen.add(name);
        const emuSchema = doc.components.schemas[name];
        if (!emuSchema) problems.push(`${name}: not in the emulator's components`);
        else compare(named(name), emuSchema, name, mode, problems);
      }
    }
    compare(named("ErrorResponse"), doc.components.schemas.ErrorResponse ?? {}, "ErrorResponse", "response", problems);
    expect(seen.size).toBeGreaterThan(25);
    expect(problems.filter((p) => !(p in SCHEMA_DIFFERENCES))).toEqual([]);
    expect(Object.keys(SCHEMA_DIFFERENCES).filter((d) => !problems.includes(d))).toEqual([]);
  });
});
