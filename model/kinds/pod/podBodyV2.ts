// A v2 pod's create body, composed once for the backend that sends it (backend/v2Backend.ts) and
// for check, which measures it against the service's limit on that body.

import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ResourceTable } from "../../fields/fieldTable";
import { failure } from "../../fields/validation";
import { isRecord, isUnknown, type Props } from "../../fields/values";
import { podMounts, setDefault, toWireV2 } from "../../fields/wireV2";

/**
 * The service's limit on a pod create's body (management-api-v2-today.md 5.2, POST /v2/pods:
 * "`413` | request body over **102,400 bytes**, rejected before auth — also when the body
 * *expanded with the referenced template* exceeds it | shrink env/command values (own or
 * template's)").
 */
export const CREATE_POD_BODY_LIMIT_BYTES = 102_400;

/** The createPod body for a pod's fields (provider names; `locked` is set after the create, never sent here). */
export function podCreateBodyV2<L>(table: Pick<ResourceTable<L>, "fields">, fields: Props): Props {
  const body = toWireV2(table, fields);
  const compute = fields["computeType"] ?? "GPU";
  if (compute === "CPU") {
    delete body["gpu"];
    // BaseCpuConfig requires vcpuCount (a CPU pod without it is a 422): send the field's default.
    setDefault(body, "cpu", "vcpuCount", table.fields["vcpuCount"]?.default);
  } else {
    delete body["cpu"];
    // A GPU pod created without a count matched no machine on the live service: always send it.
    setDefault(body, "gpu", "count", 1);
  }
  podMounts(body, fields, undefined);
  // The provider's startSsh default (true) is sent, since the service's is false; a templated
  // pod that does not declare it takes the template's flag.
  if (body["startSsh"] === undefined && fields["templateId"] === undefined) body["startSsh"] = table.fields["startSsh"]?.default;
  return body;
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
const grouped = (n: number): string => n.toLocaleString("en-US");

/**
 * A v2 pod whose own create body is over the service's limit: the failure names the field that
 * contributes most (the provider's name for it: env, dockerStartCmd, ...), the body's size, the
 * limit and the fix. Values not known yet at preview are left out, so the body measured is the
 * least it can be. A pod with a templateId is measured on its own body only: the service adds the
 * template's settings before measuring again, and the template may not exist yet or may change
 * before the create, so the message says that the template's share is not counted.
 */
export function createBodyFailure<L>(table: Pick<ResourceTable<L>, "fields">, args: Props): CheckFailure | undefined {
  const { locked: _locked, ...fields } = knownOnly(args) as Props;
  const body = podCreateBodyV2(table, fields);
  const size = bytesOf(body);
  if (size <= CREATE_POD_BODY_LIMIT_BYTES) return undefined;
  const [key, share] = Object.entries(body)
    .map(([k, value]): [string, number] => [k, bytesOf({ [k]: value })])
    .reduce((a, b) => (b[1] > a[1] ? b : a));
  const field = fieldSentAs(table, key);
  const template =
    fields["templateId"] === undefined
      ? ""
      : " Only the pod's own body is counted: the service adds the template's settings (templateId) before measuring again, which cannot be known here, so the template's env and command count against the same limit.";
  return failure(
    [field],
    `makes the pod's v2 create body ${grouped(size)} bytes (${field} alone ${grouped(share)}), over the service's limit of ` +
      `${grouped(CREATE_POD_BODY_LIMIT_BYTES)} bytes for a pod create, which it refuses with 413; shrink the env and command ` +
      `values, or pass large data by reference (e.g. a URL or an object key the container fetches at start).${template}`,
  );
}

/** The provider field sent under a top-level v2 key ("cmd" -> dockerStartCmd); the key itself when none is. */
function fieldSentAs<L>(table: Pick<ResourceTable<L>, "fields">, key: string): string {
  for (const [name, row] of Object.entries(table.fields)) {
    const m = row.v2;
    if (m && !("unsupported" in m) && m.path?.split(".")[0] === key) return name;
  }
  return key;
}

/** A value without the parts not known yet at preview. */
function knownOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isUnknown(v)).map(knownOnly);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => !isUnknown(v))
      .map(([k, v]) => [k, knownOnly(v)]),
  );
}
