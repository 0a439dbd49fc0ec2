/**
 * The only code that adds, changes or removes an account's endpoint records. Each write tells the
 * job side (endpointChanged / endpointDeleted) and keeps the account's sum of workersMax, which the
 * worker quota reads (account/limits.ts).
 */
import type { AccountData, EndpointRecord, TemplateRecord } from "../../state/model";
import { workersMaxChanged } from "../account/limits";
import type { ManagementContext } from "../context";
import { endpointSpec } from "./spec";

/** `template`: the endpoint's, when the caller holds it already (a create). */
export function addEndpoint(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord, template?: TemplateRecord): void {
  account.endpoints.set(endpoint.id, endpoint);
  workersMaxChanged(account, 0, endpoint.workersMax);
  ctx.serverless.endpointChanged(template ? endpointSpec(ctx, endpoint, template) : endpointSpec(ctx, endpoint));
}

/** Writes `changes` into the record (the caller tells the job side once it has made all of them). */
export function changeEndpoint(account: AccountData, endpoint: EndpointRecord, changes: Partial<EndpointRecord>): void {
  const workersMaxBefore = endpoint.workersMax;
  Object.assign(endpoint, changes);
  workersMaxChanged(account, workersMaxBefore, endpoint.workersMax);
}

/**
 * Deletes an endpoint through either API: its workers stop, and the template a v2 create bound to
 * it (its own copy of the container settings) goes with it.
 */
export function removeEndpoint(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord): void {
  account.endpoints.delete(endpoint.id);
  workersMaxChanged(account, endpoint.workersMax, 0);
  ctx.serverless.endpointDeleted(account.accountId, endpoint.id);
  for (const template of [...account.templates.values()])
    if (template.boundEndpointId === endpoint.id) account.templates.delete(template.id);
}

/**
 * A template's worker-facing settings changed: every endpoint that points at it (a /v1 endpoint; a
 * v2 endpoint points at its own copy) is a new version, which the job side rolls out.
 */
export function rollEndpointsOf(ctx: ManagementContext, account: AccountData, templateId: string): void {
  for (const endpoint of account.endpoints.values()) {
    if (endpoint.templateId !== templateId) continue;
    endpoint.version += 1;
    ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  }
}

const DAY_MS = 86_400_000;

/**
 * Reported (NOTES.md section 1): "After about 7 days without requests the platform lowers an
 * endpoint's workersMax (to 2 after 3 days, to 0 after 7)". Applied when /v1 reads the endpoint;
 * the quirk `idleEndpointWorkersMaxDecay`, off by default.
 */
export function applyIdleDecay(ctx: ManagementContext, account: AccountData, endpoint: EndpointRecord): void {
  if (!ctx.options.quirks.idleEndpointWorkersMaxDecay) return;
  const idle = ctx.clock.now() - endpoint.lastActivityMs;
  const cap = idle >= 7 * DAY_MS ? 0 : idle >= 3 * DAY_MS ? 2 : Infinity;
  if (endpoint.workersMax <= cap) return;
  changeEndpoint(account, endpoint, { workersMax: cap, workersMin: Math.min(endpoint.workersMin, cap) });
  ctx.serverless.endpointChanged(endpointSpec(ctx, endpoint));
  ctx.changed();
}
