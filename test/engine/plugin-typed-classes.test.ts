/**
 * The typed classes over the provider plugin (`pulumi-gpucloud/plugin`, generated from the plugin's
 * schema) through the real engine on today's (v2) API, one resource of every kind the plugin
 * serves: create; a preview with no changes; in-place updates, planned and shown field by field;
 * replacements, planned as such; destroy, after which the account holds nothing. The classes are
 * the compiled ones a program imports, and their outputs are read by their declared names.
 *
 * On v2, a Template and the AccountSshKeys have no argument fixed at create (a template's category
 * and isServerless replace only on v1), and a RegistryAuth has no argument that changes in place:
 * those kinds take part in the phases they have.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { createEngineStack, declaredResources } from "../support/engineStack";
import { pluginProjectSettings } from "../support/pluginProgram";
import { accountOf, emulatorConfig, loadPluginSdk, marker } from "./provider-support";

const gpucloud = loadPluginSdk();

const SSH_KEY = (who: string) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITyped ${who}@typed-classes`;

describe("the typed classes over the provider plugin through the real engine", { timeout: 600_000 }, () => {
  it("on the v2 API, every kind: create, no changes, updates in place, replacements, destroy", async ({ expect }) => {
    const started = Date.now();
    const tag = marker();
    const emulator = await startEmulator({ port: 0, timeScale: 0.01 });
    // What the phases change: first in place, then what replaces.
    const phase = {
      templateImage: "ghcr.io/acme/worker:1",
      workersMax: 2,
      endpointType: "QUEUE" as "QUEUE" | "LOAD_BALANCER",
      volumeSize: 10,
      volumeDataCenter: "EU-RO-1",
      podImage: "ghcr.io/acme/trainer:1",
      cloudType: "SECURE",
      registryUser: "robot",
      secretName: `hf-token-${tag}`,
      secretDescription: "the model hub token",
      sshKeys: [SSH_KEY("alice")],
    };
    const engine = await createEngineStack({
      projectName: "plugin-typed-classes",
      config: emulatorConfig(emulator, emulator.apiKey, "v2"),
      projectSettings: pluginProjectSettings(),
      program: async () => {
        const registry = new gpucloud.RegistryAuth("registry", {
          name: `ghcr-${tag}`,
          username: phase.registryUser,
          password: pulumi.secret("registry-password"),
        });
        const template = new gpucloud.Template("worker", {
          name: `worker-${tag}`,
          imageName: phase.templateImage,
          isServerless: true,
          containerRegistryAuthId: registry.id,
        });
        const volume = new gpucloud.NetworkVolume("models", {
          name: `models-${tag}`,
          size: phase.volumeSize,
          dataCenterId: phase.volumeDataCenter,
        });
        const endpoint = new gpucloud.Endpoint("inference", {
          templateId: template.id,
          templateRevision: template.revision,
          gpuTypeIds: ["NVIDIA L4"],
          workersMin: 0,
          workersMax: phase.workersMax,
          type: phase.endpointType,
          ...(phase.endpointType === "LOAD_BALANCER" ? { scalerType: "REQUEST_COUNT" } : {}),
        });
        const pod = new gpucloud.Pod("trainer", { imageName: phase.podImage, gpuTypeIds: ["NVIDIA L4"], cloudType: phase.cloudType });
        const secret = new gpucloud.Secret("token", {
          name: phase.secretName,
          value: pulumi.secret("hf_typed"),
          description: phase.secretDescription,
        });
        const keys = new gpucloud.AccountSshKeys("keys", { keys: phase.sshKeys });
        return {
          endpointId: endpoint.endpointId,
          podImage: pod.imageName,
          volumeSize: volume.size,
          secretName: secret.name,
          keys: keys.keys,
          estimate: endpoint.costEstimate.apply((e) => e?.status),
        };
      },
    });
    const account = () => {
      const held = accountOf(emulator);
      return {
        templates: held.templates.filter((t) => t.name === `worker-${tag}`).map((t) => t.imageName),
        endpoints: held.endpoints.map((e) => [e.workersMax, e.scalerType]),
        volumes: held.networkVolumes.map((v) => [v.size, v.dataCenterId]),
        pods: held.pods.filter((p) => p.desiredStatus !== "TERMINATED").map((p) => p.imageName),
        registryAuths: held.registryAuths.map((r) => r.name),
      };
    };
    const ids = async (): Promise<Record<string, string | undefined>> =>
      Object.fromEntries(declaredResources(await engine.exportState()).map((r) => [r.type.replace("gpucloud:index:", ""), r.id]));
    const diffOf = async () => {
      let text = "";
      const result = await engine.stack.preview({ diff: true, onOutput: (out) => (text += out) });
      return { summary: result.changeSummary, text };
    };
    try {
      const up = await engine.stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 8 }); // seven kinds and the stack (providers are not counted)
      expect(account()).toEqual({
        templates: ["ghcr.io/acme/worker:1"],
        endpoints: [[2, "QUEUE_DELAY"]],
        volumes: [[10, "EU-RO-1"]],
        pods: ["ghcr.io/acme/trainer:1"],
        registryAuths: [`ghcr-${tag}`],
      });
      expect(up.outputs["keys"]?.value).toEqual([SSH_KEY("alice")]);
      expect(up.outputs["secretName"]?.value).toBe(`hf-token-${tag}`);
      expect(up.outputs["estimate"]?.value).toBe("estimated");
      expect(
        declaredResources(await engine.exportState())
          .map((r) => r.type)
          .sort(),
      ).toEqual(
        ["AccountSshKeys", "Endpoint", "NetworkVolume", "Pod", "RegistryAuth", "Secret", "Template"].map((k) => `gpucloud:index:${k}`),
      );

      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 8 });

      // In place, one field of each kind that has one.
      Object.assign(phase, {
        templateImage: "ghcr.io/acme/worker:2",
        workersMax: 3,
        volumeSize: 20,
        podImage: "ghcr.io/acme/trainer:2",
        secretDescription: "the model hub token, rotated monthly",
        sshKeys: [SSH_KEY("alice"), SSH_KEY("bob")],
      });
      const updates = await diffOf();
      // The endpoint updates twice over: its workersMax, and the template revision it follows.
      expect(updates.summary).toEqual({ same: 2, update: 6 });
      expect(updates.text).toMatch(/~ imageName\s*:\s*"ghcr.io\/acme\/worker:1" => "ghcr.io\/acme\/worker:2"/);
      expect(updates.text).toMatch(/~ workersMax\s*:\s*2 => 3/);
      expect(updates.text).toMatch(/~ size\s*:\s*10 => 20/);
      expect(updates.text).toMatch(/~ imageName\s*:\s*"ghcr.io\/acme\/trainer:1" => "ghcr.io\/acme\/trainer:2"/);
      expect(updates.text).toMatch(/~ description\s*:\s*"the model hub token" => "the model hub token, rotated monthly"/);
      expect(updates.text).not.toMatch(/\(replace\)/);
      const updated = await engine.stack.up();
      expect(updated.summary.resourceChanges).toEqual({ same: 2, update: 6 });
      expect(account()).toMatchObject({
        templates: ["ghcr.io/acme/worker:2"],
        endpoints: [[3, "QUEUE_DELAY"]],
        volumes: [[20, "EU-RO-1"]],
        pods: ["ghcr.io/acme/trainer:2"],
      });
      expect(updated.outputs["keys"]?.value).toEqual([SSH_KEY("alice"), SSH_KEY("bob")]);
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 8 });

      // Replacements, one field of each kind fixed at create.
      Object.assign(phase, {
        endpointType: "LOAD_BALANCER",
        volumeDataCenter: "EU-SE-1",
        cloudType: "COMMUNITY",
        registryUser: "robot-2",
        secretName: `hf-token-2-${tag}`,
      });
      const idsBefore = await ids();
      const replacements = await diffOf();
      expect(replacements.summary).toMatchObject({ replace: 5 });
      for (const kind of ["Endpoint", "NetworkVolume", "Pod", "RegistryAuth", "Secret"])
        expect(replacements.text).toMatch(new RegExp(`\\+-gpucloud:index:${kind}: \\(replace\\)`));
      expect(replacements.text).toMatch(/~ cloudType\s*:\s*"SECURE" => "COMMUNITY"/);
      const replaced = await engine.stack.up();
      expect(replaced.summary.resourceChanges).toMatchObject({ replace: 5 });
      expect(account()).toEqual({
        templates: ["ghcr.io/acme/worker:2"],
        endpoints: [[3, "REQUEST_COUNT"]],
        volumes: [[20, "EU-SE-1"]],
        pods: ["ghcr.io/acme/trainer:2"],
        registryAuths: [`ghcr-${tag}`],
      });
      // New ones, of each kind replaced: new ids.
      const idsAfter = await ids();
      for (const kind of ["Endpoint", "NetworkVolume", "Pod", "RegistryAuth", "Secret"])
        expect(idsAfter[kind], kind).not.toBe(idsBefore[kind]);
      expect(idsAfter["Template"]).toBe(idsBefore["Template"]);
      expect(replaced.outputs["secretName"]?.value).toBe(`hf-token-2-${tag}`);
      expect((await engine.stack.preview({ expectNoChanges: true })).changeSummary).toEqual({ same: 8 });

      const destroyed = await engine.stack.destroy();
      expect(destroyed.summary.resourceChanges).toEqual({ delete: 8 });
      expect(account()).toEqual({ templates: [], endpoints: [], volumes: [], pods: [], registryAuths: [] });
      console.log(`[plugin typed classes] ${Math.round((Date.now() - started) / 1000)} s`);
    } finally {
      await engine.dispose();
      await emulator.close();
    }
  });
});
