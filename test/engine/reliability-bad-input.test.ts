/**
 * Every invalid argument of the corpus (test/support/badInputs.ts: Pod, Endpoint, NetworkVolume,
 * Template, RegistryAuth, JobRunner) is rejected at `pulumi preview` through the real engine, and the
 * engine's error names the property path and carries a useful message. The unit tests
 * (test/provider/resources/check.test.ts) call check directly; this proves the failures surface at
 * preview, before anything is sent to the service. Once per management API version: the corpus is
 * invalid on both (on v2 a pod's base arguments name its one GPU type, which v2 requires).
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as gpucloud from "../../sdk";
import {
  argsOn,
  BAD_INPUTS,
  type BadKind,
  casesOn,
  type EngineCheckFailure as Failure,
  fragmentsOn,
  packRounds,
  parseCheckFailure,
  type Round,
  USEFUL,
} from "../support/badInputs";
import { createEngineStack, type EngineStack } from "../support/engineStack";
import { findSecrets, rawBackendFiles } from "../support/reliability";
import { API_VERSIONS, type ApiVersion } from "./provider-support";

const API_KEY = "bad-input-test-key-5e8a1c";

function declare(api: ApiVersion, round: Round): void {
  const args = argsOn(api, round) as never;
  const constructors: Record<BadKind, () => void> = {
    pod: () => new gpucloud.Pod(round.name, args),
    endpoint: () => new gpucloud.Endpoint(round.name, args),
    networkVolume: () => new gpucloud.NetworkVolume(round.name, args),
    template: () => new gpucloud.Template(round.name, args),
    registryAuth: () => new gpucloud.RegistryAuth(round.name, args),
    jobRunner: () => new gpucloud.JobRunner(round.name, args),
  };
  constructors[round.kind]();
}

describe.each(API_VERSIONS)(
  "invalid arguments are rejected at preview through the real engine on the %s API",
  { timeout: 600_000 },
  (api) => {
    // Cases within this API's bounds (invalid on the other only) are left out.
    const corpus = casesOn(api);
    const rounds = packRounds(corpus);
    let current: Round | undefined;
    let engine: EngineStack;
    const seen: { round: string; failures: Failure[] }[] = [];

    beforeAll(async () => {
      engine = await createEngineStack({
        projectName: `bad-input-${api}`,
        program: async () => {
          if (current) declare(api, current);
          return {};
        },
        // Nothing is sent anywhere: check runs before any call to the service.
        config: {
          // The emulator's layout (management under /api/v2 or /v1, jobs under /v2): the same URL in
          // both settings would itself be a configuration mistake that check reports.
          "gpucloud:apiUrl": { value: `http://127.0.0.1:9/${api === "v2" ? "api/v2" : "v1"}` },
          "gpucloud:serverlessUrl": { value: "http://127.0.0.1:9/v2" },
          "gpucloud:apiKey": { value: API_KEY, secret: true },
        },
      });
    });
    afterAll(async () => {
      const total = seen.reduce((a, r) => a + r.failures.length, 0);
      console.log(
        `[reliability bad-input, ${api}] ${corpus.length} bad inputs in ${rounds.length} previews; ${total} check failures reported by the engine`,
      );
      await engine?.dispose();
    });

    it(`the corpus has at least 100 cases across all six kinds`, () => {
      expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(100);
      expect(new Set(BAD_INPUTS.map((c) => c.kind))).toEqual(
        new Set(["pod", "endpoint", "networkVolume", "template", "registryAuth", "jobRunner"]),
      );
      // Every case is in exactly one round, and no round holds two cases on the same path.
      expect(rounds.reduce((a, r) => a + r.cases.length, 0)).toBe(corpus.length);
      for (const r of rounds) expect(new Set(r.cases.map((c) => c.property)).size, r.name).toBe(r.cases.length);
    });

    const allErrors: string[] = [];
    for (const round of rounds) {
      it(`${round.name}: ${round.cases.map((c) => c.input.label).join("; ")}`, async () => {
        current = round;
        const errors: string[] = [];
        const onEvent = (event: EngineEvent): void => {
          const d = event.diagnosticEvent;
          // A JobRunner's cases are checked by its child resource, "<name>-run".
          const urn = d?.urn ?? "";
          if (d?.severity === "error" && (urn.endsWith(`::${round.name}`) || urn.endsWith(`::${round.name}-run`))) errors.push(d.message);
        };
        let failed = false;
        try {
          await engine.stack.preview({ onEvent });
        } catch {
          failed = true;
        }
        expect(failed, "the preview must fail").toBe(true);
        allErrors.push(...errors);
        const failures = errors.map(parseCheckFailure).filter((f): f is Failure => f !== undefined);
        seen.push({ round: round.name, failures });
        const byProperty = new Map(failures.map((f) => [f.property, f]));
        for (const { input, property } of round.cases) {
          const f = byProperty.get(property);
          expect(f, `${input.kind} "${input.label}": a check failure on ${property}; got ${JSON.stringify(errors)}`).toBeDefined();
          if (!f) continue;
          expect(f.reason.startsWith(`${property}: `), `${input.label}: the reason starts with the path`).toBe(true);
          const message = f.reason.slice(property.length + 2);
          expect(message.length, `${input.label}: message length`).toBeGreaterThanOrEqual(12);
          expect(message, `${input.label}: a useful message`).toMatch(USEFUL);
          expect(message, input.label).not.toMatch(/\bundefined\b|\[object Object\]/);
          for (const fragment of fragmentsOn(input, api)) expect(message, `${input.kind} "${input.label}"`).toContain(fragment);
          for (const secret of input.notContains ?? []) {
            // Neither the provider's reason nor the engine's line around it shows a credential: the
            // engine prints a failing property's value, so secret-bearing fields name no property.
            expect(f.reason, `${input.label}: the provider's message never echoes the credential`).not.toContain(secret);
            expect(f.raw, `${input.label}: the engine's message never shows the credential`).not.toContain(secret);
          }
        }
        // Nothing but the corpus' own failures: a stray failure would mean a case's base arguments are wrong.
        expect([...byProperty.keys()].sort()).toEqual(round.cases.map((c) => c.property).sort());
      });
    }

    it("the API key is in none of the raw state files, the engine output or the error messages", () => {
      expect(allErrors.length).toBeGreaterThanOrEqual(corpus.length);
      const sources = [
        ...rawBackendFiles(engine).map((f) => ({ where: f.file, text: f.text })),
        { where: "engine output", text: engine.output() },
        ...allErrors.map((text, i) => ({ where: `error #${i}`, text })),
      ];
      expect(findSecrets(sources, [API_KEY])).toEqual([]);
    });
  },
);
