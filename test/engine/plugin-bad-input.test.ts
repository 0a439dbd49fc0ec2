/**
 * The corpus of invalid arguments (test/support/badInputs.ts) through the provider plugin: every
 * resource case fails at `pulumi preview`, before anything is sent anywhere, with the property path,
 * the value and the fix, in the same words as for the dynamic resources
 * (test/engine/reliability-bad-input.test.ts). JobRunner's cases are left out: the components stay
 * TypeScript-only. Both management APIs, side by side (one stack each, one preview per round).
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, it } from "vitest";
import { argsOn, type BadKind, casesOn, fragmentsOn, packRounds, parseCheckFailure, USEFUL } from "../support/badInputs";
import { createEngineStack } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";
import { findSecrets, rawBackendFiles } from "../support/reliability";
import { API_VERSIONS } from "./provider-support";

const API_KEY = "plugin-bad-input-key-7c2d9e";

/** The plugin's type of each resource kind of the corpus. */
const TYPES: Partial<Record<BadKind, string>> = {
  pod: "Pod",
  endpoint: "Endpoint",
  networkVolume: "NetworkVolume",
  template: "Template",
  registryAuth: "RegistryAuth",
};

describe("invalid arguments through the provider plugin", { timeout: 900_000 }, () => {
  it.concurrent.for(API_VERSIONS)(
    "are rejected at preview on the %s API, naming the field, the value and the fix",
    async (api, { expect }) => {
      const started = Date.now();
      const rounds = packRounds(casesOn(api).filter((c) => TYPES[c.kind] !== undefined));
      let current = rounds[0];
      const engine = await createEngineStack({
        projectName: `plugin-bad-input-${api}`,
        projectSettings: pluginProjectSettings(),
        program: async () => {
          const type = current ? TYPES[current.kind] : undefined;
          if (current && type) new PluginResource(type, current.name, argsOn(api, current));
          return {};
        },
        // Nothing is sent anywhere: check runs before any call to the service.
        config: {
          "gpucloud:apiUrl": { value: `http://127.0.0.1:9/${api === "v2" ? "api/v2" : "v1"}` },
          "gpucloud:serverlessUrl": { value: "http://127.0.0.1:9/v2" },
          "gpucloud:apiKey": { value: API_KEY, secret: true },
        },
      });
      const allErrors: string[] = [];
      try {
        expect(rounds.reduce((n, r) => n + r.cases.length, 0)).toBeGreaterThanOrEqual(100);
        for (const round of rounds) {
          current = round;
          const errors: string[] = [];
          const onEvent = (event: EngineEvent): void => {
            const d = event.diagnosticEvent;
            if (d?.severity === "error" && (d.urn ?? "").endsWith(`::${round.name}`)) errors.push(d.message);
          };
          const failed = await engine.stack.preview({ onEvent }).then(
            () => false,
            () => true,
          );
          expect.soft(failed, `${round.name}: the preview must fail`).toBe(true);
          allErrors.push(...errors);
          const byProperty = new Map(errors.flatMap((e) => parseCheckFailure(e) ?? []).map((f) => [f.property, f]));
          for (const { input, property } of round.cases) {
            const label = `${input.kind} "${input.label}" (${round.name})`;
            const f = byProperty.get(property);
            expect.soft(f, `${label}: a check failure on ${property}; got ${JSON.stringify(errors)}`).toBeDefined();
            if (!f) continue;
            expect.soft(f.reason.startsWith(`${property}: `), `${label}: the reason starts with the path`).toBe(true);
            const message = f.reason.slice(property.length + 2);
            expect.soft(message, `${label}: a useful message`).toMatch(USEFUL);
            expect.soft(message, label).not.toMatch(/\bundefined\b|\[object Object\]/);
            for (const fragment of fragmentsOn(input, api)) expect.soft(message, label).toContain(fragment);
            for (const secret of input.notContains ?? []) expect.soft(f.raw, `${label}: never shows the credential`).not.toContain(secret);
          }
          // Nothing but the round's own failures: a stray one would mean its base arguments are wrong.
          expect.soft([...byProperty.keys()].sort(), round.name).toEqual(round.cases.map((c) => c.property).sort());
        }
        const sources = [
          ...rawBackendFiles(engine).map((f) => ({ where: f.file, text: f.text })),
          { where: "engine output", text: engine.output() },
          ...allErrors.map((text, i) => ({ where: `error #${i}`, text })),
        ];
        expect(findSecrets(sources, [API_KEY])).toEqual([]);
        console.log(
          `[plugin bad-input, ${api}] ${rounds.length} previews, ${allErrors.length} failures reported, ${Math.round((Date.now() - started) / 1000)} s`,
        );
      } finally {
        await engine.dispose();
      }
    },
  );
});
