/**
 * The foundation's proof that the real engine runs here: a small dynamic resource goes through
 * up, preview (no changes), refresh and destroy, and the exported state says what happened.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createEngineStack, declaredResources, type EngineStack } from "../support/engineStack";

/** A pure resource: its id and outputs are functions of its inputs, so read can recompute them. */
const greetingProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: { message: string }) {
    return { id: `greeting-${inputs.message.length}`, outs: { message: inputs.message, length: inputs.message.length } };
  },
  async read(id: string, props: { message: string }) {
    return { id, props: { message: props.message, length: props.message.length } };
  },
  async diff(_id: string, olds: { message: string }, news: { message: string }) {
    return { changes: olds.message !== news.message };
  },
};

class Greeting extends pulumi.dynamic.Resource {
  declare readonly length: pulumi.Output<number>;
  constructor(name: string, message: string) {
    super(greetingProvider, name, { message, length: undefined }, {}, "enginetest", "Greeting");
  }
}

describe("the real engine", { timeout: 240_000 }, () => {
  let engine: EngineStack;
  beforeAll(async () => {
    engine = await createEngineStack({
      program: async () => {
        const greeting = new Greeting("hello", "hello, engine");
        return { greetingLength: greeting.length, greetingId: greeting.id };
      },
    });
  });
  afterAll(async () => engine?.dispose());

  it("runs up, preview, refresh and destroy on a dynamic resource", async () => {
    const cli = inject("pulumiCli");
    console.log(`engine test running against Pulumi CLI ${cli.version}`);
    expect(cli.version).toMatch(/^v3\.\d+\.\d+/);

    const up = await engine.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(up.outputs["greetingLength"]?.value).toBe("hello, engine".length);
    expect(up.outputs["greetingId"]?.value).toBe("greeting-13");

    const afterUp = await engine.exportState();
    const [resource] = declaredResources(afterUp);
    expect(resource?.type).toBe("pulumi-nodejs:dynamic/enginetest:Greeting");
    expect(resource?.id).toBe("greeting-13");
    expect(resource?.outputs).toMatchObject({ message: "hello, engine", length: 13 });

    const preview = await engine.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).toEqual({ same: 2 });

    const refresh = await engine.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(refresh.summary.resourceChanges).toEqual({ same: 2 });

    const destroy = await engine.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect(declaredResources(await engine.exportState())).toEqual([]);
  });
});
