/**
 * Every v2 answer the emulator's own tests receive, checked against the response schema the
 * project's description of the v2 wire (fixtures/v2-wire.json) gives its operation and status.
 *
 * How it is collected: `startTestEmulator` (managementHelpers.ts) installs `recordV2Answer` as the
 * emulator's `onReply` observer, which sees every operation's answer (sent or lost) with its
 * operation id, status and body. Each answer is validated as it is recorded, and what does not fit
 * is kept; test/support/v2CorpusSetup.ts (a vitest setup file) fails the test during which a
 * violation was recorded, and the file's last hook fails for answers recorded after its last test.
 *
 * Why inline rather than a corpus file checked at the end: vitest runs test files in parallel
 * forked workers with no order between them, so a checker reading a shared file could run before
 * the answers it should check were written; validating where the answer is recorded needs no
 * ordering, and the failure names the test that received the answer.
 *
 * What fails: a field the description does not define (so the emulator cannot drift into answers
 * the service never gives), a required field missing, a wrong JSON type or nullability, a value
 * outside an enum, a success status the operation does not describe, a body on a no-body answer.
 */
import type { ReplyEvent } from "../../emulator/http/router";
import { type Wire, type WireNode, flattenWire, loadV2Wire } from "./v2Wire";

/** The emulator's own operations, which the description rightly does not hold. */
const EMULATOR_ONLY: ReadonlySet<string> = new Set(["getOpenApi"]);

/**
 * Ways the emulator's answers differ from the description, with why, keyed by the problem as
 * checkV2Answer words it (`Schema.path: what`), whichever operation answers it. A listed difference
 * is not reported; test/emulator/management/v2/v2-corpus.test.ts fails for one that no answer shows
 * any more. Nothing but what the emulator does not serve yet belongs here.
 */
export const ANSWER_DIFFERENCES: Readonly<Record<string, string>> = {};

const V2_BASE_PATH = "/api/v2";

let recorded = 0;
const violations: string[] = [];

/** The emulator's `onReply` observer: records and checks a v2 answer (v1 answers are ignored). */
export function recordV2Answer(event: ReplyEvent): void {
  if (event.basePath !== V2_BASE_PATH) return;
  recorded += 1;
  // One line per distinct problem: a list of a hundred pods with the same fault reports it once.
  for (const problem of new Set(checkV2Answer(event.operationId, event.status, event.body))) {
    if (!(problem in ANSWER_DIFFERENCES)) violations.push(`${event.operationId} ${event.status}: ${problem}`);
  }
}

/** Composes the recorder with an observer a test passes itself. */
export function withV2Recorder(onReply: ((event: ReplyEvent) => void) | undefined): (event: ReplyEvent) => void {
  return (event) => {
    recordV2Answer(event);
    onReply?.(event);
  };
}

/** The violations recorded since the last call, and how many v2 answers were recorded in all. */
export function takeV2Violations(): { violations: string[]; recorded: number } {
  return { violations: violations.splice(0), recorded };
}

/** Every way `body` departs from what the description says operation `operationId` answers with `status`. */
export function checkV2Answer(operationId: string, status: number, body: unknown, wire: Wire = loadV2Wire()): string[] {
  if (EMULATOR_ONLY.has(operationId)) return [];
  const op = wire.operations.find((o) => o.operationId === operationId);
  if (!op) return [`operation ${operationId} is not in the description`];
  if (!op.responses.has(status))
    return [`status ${status} is not one the description gives ${operationId} (${[...op.responses.keys()].join(", ")})`];
  const schema = op.responses.get(status);
  if (schema === undefined) return body === undefined ? [] : [`a body on an answer the description gives none`];
  if (body === undefined) return [`no body where the description gives ${schema}`];
  const problems: string[] = [];
  validate(wire, { ref: schema, types: [], required: [], properties: new Map(), allOf: [], oneOf: [], anyOf: [] }, body, schema, problems);
  return problems;
}

/** Every way an event's `data` (parsed) departs from what the description says operation `operationId` streams. */
export function checkV2Event(operationId: string, data: unknown, wire: Wire = loadV2Wire()): string[] {
  const events = wire.operations.find((o) => o.operationId === operationId)?.events;
  if (!events) return [`operation ${operationId} streams no events in the description`];
  const problems: string[] = [];
  validate(
    wire,
    { ref: events.data, types: [], required: [], properties: new Map(), allOf: [], oneOf: [], anyOf: [] },
    data,
    events.data,
    problems,
  );
  return problems;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function validate(wire: Wire, node: WireNode, value: unknown, at: string, problems: string[]): void {
  const flat = flattenWire(wire, node);
  if (value === null) {
    if (!flat.nullable && (flat.types.size > 0 || flat.variants.length > 0))
      problems.push(`${at}: null, which the description does not allow`);
    return;
  }
  if (flat.variants.length > 0) {
    const attempts = flat.variants.map((variant) => {
      const found: string[] = [];
      validate(wire, variant, value, at, found);
      return found;
    });
    const best = attempts.reduce((a, b) => (b.length < a.length ? b : a));
    if (best.length > 0) problems.push(`${at}: fits none of its ${flat.variants.length} alternatives (closest: ${best.join("; ")})`);
    return;
  }
  const type = jsonType(value);
  if (flat.types.size > 0 && !flat.types.has(type) && !(type === "integer" && flat.types.has("number"))) {
    problems.push(`${at}: ${type} ${JSON.stringify(value)?.slice(0, 60)}, the description says ${[...flat.types].join(" or ")}`);
    return;
  }
  if (flat.enum && !flat.enum.includes(String(value)))
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${flat.enum.join(", ")}`);
  if (type === "object") {
    const fields = value as Record<string, unknown>;
    for (const name of flat.required) if (!(name in fields)) problems.push(`${at}.${name}: required, missing`);
    // An object the description gives neither fields nor a value schema is open (its fields are not documented).
    const open = flat.properties.size === 0 && !flat.additionalProperties;
    for (const [name, field] of Object.entries(fields)) {
      const described = flat.properties.get(name) ?? flat.additionalProperties;
      if (described) validate(wire, described, field, `${at}.${name}`, problems);
      else if (!open) problems.push(`${at}.${name}: a field the description does not define`);
    }
  }
  if (type === "array" && flat.items) {
    const items = flat.items;
    for (const item of value as unknown[]) validate(wire, items, item, `${at}[]`, problems);
  }
}
