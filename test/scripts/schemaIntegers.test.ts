/**
 * Whole numbers in the plugin's schema: every property of a read's result, and every read argument
 * the service takes as a query parameter, is typed `integer` in plugin/schema.json exactly where the
 * project's description of the v2 wire (fixtures/v2-wire.json) says `integer`, and `number` where it
 * says `number`. The schema has them from the SDK's declarations (`Integer`, client/integer.ts);
 * the Python and Go SDKs generated from it then give counts, seconds and versions as `int`, not as
 * a float. A field declared `number` the wire says is whole (or `Integer` the wire says is a
 * fraction) fails here, naming both.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { BILLING_HISTORIES_V2 } from "../../client/billingV2";
import { BILLING_READS } from "../../model/lookup/readNames";
import { loadV2Wire, type WireNode } from "../support/v2Wire";

const root = path.resolve(__dirname, "..", "..");

interface SchemaProperty {
  type?: string;
}
interface SchemaObject {
  properties: Record<string, SchemaProperty>;
}
const schema = JSON.parse(fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8")) as {
  types: Record<string, SchemaObject>;
  functions: Record<string, { inputs?: SchemaObject; outputs: SchemaObject }>;
};

/** Each object type of the plugin whose properties are the service's: the wire schemas it stands for. */
const TYPES_ON_THE_WIRE: Record<string, readonly string[]> = {
  EndpointWorker: ["Worker"],
  WorkerSummary: ["WorkerSummary"],
  EndpointRelease: ["Release"],
  RolloutSummary: ["RolloutSummary"],
  PublicTemplate: ["Template"],
  GpuType: ["GpuType"],
  CpuType: ["CpuType"],
  DataCenter: ["DataCenter"],
  BillingMetadata: [
    "BillingMetadata",
    "PodBillingMetadata",
    "ServerlessBillingMetadata",
    "EndpointBillingMetadata",
    "NetworkVolumeBillingMetadata",
    "ClusterBillingMetadata",
  ],
  AccountBillingRecord: ["BillingRecord"],
  PodBillingRecord: ["PodBillingRecord"],
  ServerlessBillingRecord: ["ServerlessBillingRecord"],
  PublicEndpointBillingRecord: ["EndpointBillingRecord"],
  NetworkVolumeBillingRecord: ["NetworkVolumeBillingRecord"],
  ClusterBillingRecord: ["ClusterBillingRecord"],
};

/** The reads whose result is one wire answer. */
const RESULTS_ON_THE_WIRE: Record<string, string> = {
  getEndpointWorkers: "ListEndpointWorkersResponse",
  getEndpointReleases: "ListEndpointReleasesResponse",
};

/** The reads whose arguments are one operation's query parameters, and an argument's wire name where it differs. */
const ARGUMENTS_ON_THE_WIRE: Record<string, { operation: string; renamed?: Record<string, string> }> = {
  getPodLog: { operation: "getPodLogs", renamed: { lines: "tail" } },
  getWorkerLog: { operation: "getWorkerLogs", renamed: { lines: "tail" } },
  ...Object.fromEntries(BILLING_READS.map((read) => [read, { operation: BILLING_HISTORIES_V2[read].operation }])),
};

const wire = loadV2Wire();

/** A wire schema's properties, those of its allOf parts (through $ref) included. */
function wireProperties(name: string): Map<string, WireNode> {
  const node = wire.schemas.get(name);
  if (!node) throw new Error(`fixtures/v2-wire.json has no schema ${name}`);
  return propertiesOf(node);
}
function propertiesOf(node: WireNode): Map<string, WireNode> {
  const out = new Map<string, WireNode>();
  if (node.ref) for (const [k, v] of wireProperties(node.ref)) out.set(k, v);
  for (const part of node.allOf) for (const [k, v] of propertiesOf(part)) out.set(k, v);
  for (const [k, v] of node.properties) out.set(k, v);
  return out;
}

/** "integer" or "number" when the wire types a value as a number (null aside); undefined otherwise. */
function wireNumeric(node: WireNode): string | undefined {
  const types = node.types.filter((t) => t !== "null");
  return types.length === 1 && (types[0] === "integer" || types[0] === "number") ? types[0] : undefined;
}

interface Pair {
  where: string;
  schema: string | undefined;
  wire: string;
}

/** Each numeric property both sides have: where, the plugin schema's type, the wire's. */
function pairs(where: string, object: SchemaObject, wireProps: Map<string, WireNode>, renamed: Record<string, string> = {}): Pair[] {
  const out: Pair[] = [];
  for (const [name, property] of Object.entries(object.properties)) {
    const onWire = wireProps.get(renamed[name] ?? name);
    const numeric = onWire && wireNumeric(onWire);
    if (numeric) out.push({ where: `${where}.${name}`, schema: property.type, wire: numeric });
  }
  return out;
}

function allPairs(): Pair[] {
  const out: Pair[] = [];
  for (const [type, wireNames] of Object.entries(TYPES_ON_THE_WIRE)) {
    const object = schema.types[`gpucloud:index:${type}`];
    if (!object) throw new Error(`plugin/schema.json has no type ${type}`);
    for (const wireName of wireNames) out.push(...pairs(`${type} (${wireName})`, object, wireProperties(wireName)));
  }
  for (const [fn, wireName] of Object.entries(RESULTS_ON_THE_WIRE)) {
    const spec = schema.functions[`gpucloud:index:${fn}`];
    if (!spec) throw new Error(`plugin/schema.json has no function ${fn}`);
    out.push(...pairs(`${fn} result (${wireName})`, spec.outputs, wireProperties(wireName)));
  }
  for (const [fn, { operation, renamed }] of Object.entries(ARGUMENTS_ON_THE_WIRE)) {
    const spec = schema.functions[`gpucloud:index:${fn}`];
    const op = wire.operations.find((o) => o.operationId === operation);
    if (!spec?.inputs || !op) throw new Error(`no function ${fn} with arguments, or no operation ${operation}`);
    const params = new Map(op.params.map((p) => [p.name, p.schema]));
    out.push(...pairs(`${fn} argument (${operation})`, spec.inputs, params, renamed));
  }
  return out;
}

describe("whole numbers in the plugin's schema", () => {
  const compared = allPairs();

  it("a read's numeric result or argument is `integer` exactly where the v2 wire says integer", () => {
    const wrong = compared.filter((p) => p.schema !== p.wire).map((p) => `${p.where}: schema ${p.schema}, wire ${p.wire}`);
    expect(wrong, "declare the field `Integer` (client/integer.ts) where the wire says integer, `number` where it says number").toEqual([]);
  });

  it("compares the counts, seconds and versions a deploy reads, and the amounts that stay fractions", () => {
    const where = compared.map((p) => p.where);
    expect(where).toEqual(
      expect.arrayContaining([
        "EndpointWorker (Worker).gpuCount",
        "EndpointWorker (Worker).uptimeSeconds",
        "WorkerSummary (WorkerSummary).total",
        "RolloutSummary (RolloutSummary).percentOnLatest",
        "getEndpointWorkers result (ListEndpointWorkersResponse).endpointVersion",
        "BillingMetadata (PodBillingMetadata).uniquePodCount",
        "PublicTemplate (Template).disk",
        "getPodLog argument (getPodLogs).lines",
        "getAccountBilling argument (listBilling).lastN",
        "AccountBillingRecord (BillingRecord).totalAmount",
      ]),
    );
    expect(compared.filter((p) => p.wire === "number").length).toBeGreaterThan(10);
  });
});
