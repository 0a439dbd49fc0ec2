/**
 * Connection settings that cannot work fail `pulumi preview` through the real engine, and `up`
 * creates nothing with them: every resource's check reports them (client/configCheck.ts). Each
 * message names the setting and the fix; the API key is never printed.
 *
 * A JobRunner's job API URL is checked by the JobRunner's own check, which the engine runs at
 * preview (so `pulumi up`, which previews first, stops there) but, in an update without a preview
 * (`--skip-preview`, the automation API's `up`), only once its endpoint exists: that case is
 * asserted at preview only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigMap, EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { createEngineStack } from "../support/engineStack";
import { PluginResource, pluginProjectSettings } from "../support/pluginProgram";
import { refusedPort } from "../support/scriptedServer";
import { countsOf, loadSdk, marker } from "./provider-support";

const gpucloud = loadSdk();

interface Mistake {
  name: string;
  config(emulator: RunningEmulator): ConfigMap;
  /** Declares a JobRunner (needs the job API) besides the resources; asserted at preview only (see above). */
  jobs?: boolean;
  /** What the message must say: the setting and the fix. */
  says: RegExp[];
  /** Found by the service's answer (the connection check): its message is one diagnostic, with no retry line. */
  proven?: RegExp;
}

const WRONG_KEY = "gpc_wrong_key_never_shown_5e1";

describe("connection settings that cannot work fail preview and create nothing", { timeout: 600_000 }, () => {
  const tag = marker();
  const apiKey = `gpc_emu_config_key_${tag}`;
  let emulator: RunningEmulator;
  let closedPort = 0;
  const key = { "gpucloud:apiKey": { value: apiKey, secret: true } };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: [apiKey] });
    closedPort = await refusedPort();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  const mistakes: Mistake[] = [
    {
      name: "no API key",
      config: (e) => ({ "gpucloud:apiUrl": { value: e.apiUrlV2 }, "gpucloud:serverlessUrl": { value: e.serverlessUrl } }),
      says: [/gpucloud:apiKey/, /pulumi config set --secret gpucloud:apiKey/],
    },
    {
      name: "a management URL that is not an API base (the emulator's origin)",
      config: (e) => ({
        ...key,
        "gpucloud:apiUrl": { value: new URL(e.apiUrlV2).origin },
        "gpucloud:serverlessUrl": { value: e.serverlessUrl },
      }),
      says: [/gpucloud:apiUrl must be a management API base/, /\/api\/v2"/],
    },
    {
      name: "the job URL given as the management URL",
      config: (e) => ({ ...key, "gpucloud:apiUrl": { value: e.serverlessUrl }, "gpucloud:serverlessUrl": { value: e.serverlessUrl } }),
      says: [/gpucloud:apiUrl and gpucloud:serverlessUrl are both/, /Set each to its own URL/],
    },
    {
      name: "the management URL given as the job URL",
      config: (e) => ({ ...key, "gpucloud:apiUrl": { value: e.apiUrlV2 }, "gpucloud:serverlessUrl": { value: e.apiUrlV2 } }),
      says: [/gpucloud:serverlessUrl is "[^"]+\/api\/v2", which ends in \/api\/v2/, /Set gpucloud:serverlessUrl to the job API URL/],
    },
    {
      name: "no job URL where a JobRunner runs cases",
      config: (e) => ({ ...key, "gpucloud:apiUrl": { value: e.apiUrlV2 } }),
      jobs: true,
      says: [/No job API URL/, /pulumi config set gpucloud:serverlessUrl <url>/],
    },
    ...proven(),
  ];

  /** Settings only the service's answer shows wrong: for the TypeScript path and the plugin alike. */
  function proven(): Mistake[] {
    return [
      {
        name: "a wrong API key",
        config: (e) => ({
          "gpucloud:apiKey": { value: WRONG_KEY, secret: true },
          "gpucloud:apiUrl": { value: e.apiUrlV2 },
          "gpucloud:serverlessUrl": { value: e.serverlessUrl },
        }),
        says: [
          /The API key \(stack config gpucloud:apiKey\) was refused by the management API at "[^"]+\/api\/v2" \(401 Unauthorized\)/,
          /pulumi config set --secret gpucloud:apiKey <key>/,
        ],
        proven: /was refused by the management API/,
      },
      {
        name: "a refused port",
        config: (e) => ({
          ...key,
          "gpucloud:apiUrl": { value: `http://127.0.0.1:${closedPort}/api/v2` },
          "gpucloud:serverlessUrl": { value: e.serverlessUrl },
        }),
        says: [
          /stack config gpucloud:apiUrl is "http:\/\/127\.0\.0\.1:\d+\/api\/v2": nothing listens on 127\.0\.0\.1:\d+ \(connection refused, ECONNREFUSED\)/,
          /Is the emulator running on \d+\?/,
        ],
        proven: /nothing listens on 127\.0\.0\.1/,
      },
    ];
  }

  /** The error diagnostics of one operation, and a check that the proven mistake's message is one of them, with no retry line. */
  function diagnostics(): { onEvent(event: EngineEvent): void; errors: string[]; all: string[] } {
    const errors: string[] = [];
    const all: string[] = [];
    return {
      errors,
      all,
      onEvent: (event) => {
        const d = event.diagnosticEvent;
        if (!d) return;
        all.push(d.message);
        if (d.severity === "error") errors.push(d.message);
      },
    };
  }

  it.each(mistakes)("$name", async (mistake) => {
    const engine = await createEngineStack({
      projectName: `config-mistakes-${tag}`,
      config: mistake.config(emulator),
      program: async () => {
        const volume = new gpucloud.NetworkVolume("data", { name: `data-${tag}`, size: 10, dataCenterId: "EU-RO-1" });
        const template = new gpucloud.Template("worker", { name: `worker-${tag}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
        const endpoint = new gpucloud.Endpoint("inference", {
          name: `inference-${tag}`,
          templateId: template.id,
          gpuTypeIds: ["NVIDIA L4"],
          workersMax: 1,
        });
        if (mistake.jobs) new gpucloud.JobRunner("smoke", { endpoint, cases: [{ name: "answers", input: { prompt: "hi" } }] });
        return { volumeId: volume.id };
      },
    });
    try {
      for (const operation of mistake.jobs ? (["preview"] as const) : (["preview", "up"] as const)) {
        const seen = diagnostics();
        const error = await (operation === "preview"
          ? engine.stack.preview({ onEvent: seen.onEvent })
          : engine.stack.up({ onEvent: seen.onEvent })
        ).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `${operation} should fail`).toBeInstanceOf(Error);
        const text = `${String((error as Error).message)}\n${engine.output()}`;
        for (const pattern of mistake.says) expect(text).toMatch(pattern);
        expect(text).not.toContain(apiKey);
        expect(text).not.toContain(WRONG_KEY);
        if (mistake.proven) {
          const proven = mistake.proven;
          expect(
            seen.errors.filter((m) => proven.test(m)),
            `${operation}: the message once`,
          ).toHaveLength(1);
          expect(
            seen.all.filter((m) => /\bretry \d+ of\b/.test(m)),
            `${operation}: no retry line`,
          ).toEqual([]);
        }
        // Nothing created, under any account.
        for (const account of emulator.inspect()) {
          expect(countsOf(account), `${operation}: account ${account.accountId}`).toEqual({
            pods: 0,
            endpoints: 0,
            templates: 0,
            networkVolumes: 0,
            registryAuths: 0,
          });
        }
      }
      const state = await engine.exportState();
      expect(state.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });

  it.each(proven())("through the provider plugin: $name", async (mistake) => {
    const engine = await createEngineStack({
      projectName: `config-mistakes-plugin-${tag}`,
      projectSettings: pluginProjectSettings(),
      config: mistake.config(emulator),
      program: async () => {
        const volume = new PluginResource("NetworkVolume", "data", { name: `pdata-${tag}`, size: 10, dataCenterId: "EU-RO-1" });
        new PluginResource("Template", "worker", { name: `pworker-${tag}`, imageName: "ghcr.io/acme/worker:1", isServerless: true });
        return { volumeId: volume.id };
      },
    });
    try {
      const seen = diagnostics();
      const error = await engine.stack.preview({ onEvent: seen.onEvent }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, "preview should fail").toBeInstanceOf(Error);
      const text = `${String((error as Error).message)}\n${engine.output()}`;
      for (const pattern of mistake.says) expect(text).toMatch(pattern);
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(WRONG_KEY);
      const proven = mistake.proven ?? /never/;
      expect(
        seen.errors.filter((m) => proven.test(m)),
        "the message once",
      ).toHaveLength(1);
      expect(
        seen.all.filter((m) => /\bretry \d+ of\b/.test(m)),
        "no retry line",
      ).toEqual([]);
      for (const account of emulator.inspect()) expect(countsOf(account)).toMatchObject({ networkVolumes: 0, templates: 0 });
    } finally {
      await engine.dispose();
    }
  });
});
