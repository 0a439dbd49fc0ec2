/**
 * The engine harness against what a failed `up` leaves behind in the test process (issue #24: a
 * preview right after a good up planned deleting every resource of the rollout).
 *
 * Every inline program runs in this process. A failed up leaves its run waiting forever, and that
 * run's engine client keeps reconnecting to the address of the engine that went away. The runtime's
 * clients of later runs must not be handed that failing connection when a later engine gets the
 * same port; and a run that still ends before its program is called must fail the operation with
 * the evidence, not pass for a plan that deletes everything.
 */
import * as net from "node:net";
import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, describe, expect, it } from "vitest";
import { createEngineStack, plannedChanges, type EngineStack } from "./engineStack";

// The runtime's own modules and its copy of grpc-js (the subchannel pool is per copy).
const runtimeRequire = createRequire(createRequire(__filename).resolve("@pulumi/pulumi/package.json"));
const grpc = runtimeRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const engineRpc = runtimeRequire("./proto/engine_grpc_pb") as { EngineService: import("@grpc/grpc-js").ServiceDefinition };
const engineProto = runtimeRequire("./proto/engine_pb") as {
  SetRootResourceRequest: new () => { setUrn(urn: string): void };
  SetRootResourceResponse: new () => object;
};
const runtimeState = runtimeRequire("./runtime/state") as { withLocalStorage<T>(callback: () => T): T };
/** The settings module the runtime's Stack calls (`setRootResource` is replaced in one test). */
const runtimeSettings = runtimeRequire("./runtime/settings") as {
  resetOptions(
    project: string,
    stack: string,
    parallel: number,
    engineAddr: string,
    monitorAddr: string,
    preview: boolean,
    organization: string,
  ): void;
  getEngine(): EngineClient | undefined;
  setRootResource(stack: unknown): Promise<void>;
  waitForRPCs(): Promise<void>;
};

interface EngineClient {
  setRootResource(request: unknown, callback: (error: (Error & { code?: number }) | null) => void): void;
}

/** The engine client the runtime opens for a run whose engine listens at `address`. */
function engineClientOfRun(address: string): EngineClient {
  const client = runtimeState.withLocalStorage(() => {
    runtimeSettings.resetOptions("project", "stack", -1, address, "", false, "organization");
    return runtimeSettings.getEngine();
  });
  if (!client) throw new Error("the runtime opened no engine client");
  return client;
}

/** SetRootResource through the client: "ok", or the gRPC status code it failed with. */
function setRootResource(client: EngineClient): Promise<string> {
  const request = new engineProto.SetRootResourceRequest();
  request.setUrn("urn:pulumi:stack::project::pulumi:pulumi:Stack::project-stack");
  return new Promise((resolve) =>
    client.setRootResource(request, (error) => resolve(error ? `code ${String(error.code)}: ${error.message}` : "ok")),
  );
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the engine harness after a failed up in the same process", { timeout: 120_000 }, () => {
  it("gives a later run's engine client a connection of its own at a port a dead engine had", async () => {
    const address = `127.0.0.1:${await unusedPort()}`;
    // The run of a failed up: its engine is gone, and its client goes on reconnecting (backing off).
    expect(await setRootResource(engineClientOfRun(address))).toMatch(/^code 14: /);

    // A later engine listens on the same port.
    const server = new grpc.Server();
    server.addService(engineRpc.EngineService, {
      setRootResource: (_call: unknown, callback: (error: null, response: object) => void) =>
        callback(null, new engineProto.SetRootResourceResponse()),
    });
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve())),
    );
    try {
      // Sharing the dead engine's connection, this failed at once with "14 UNAVAILABLE".
      expect(await setRootResource(engineClientOfRun(address))).toBe("ok");
    } finally {
      server.forceShutdown();
    }
  });

  describe("an up or preview whose program was never called", () => {
    let engine: EngineStack | undefined;
    afterAll(async () => {
      await engine?.stack.destroy().catch(() => undefined);
      await engine?.dispose();
    });

    it("fails with the evidence instead of passing for a plan that deletes every resource", async () => {
      engine = await createEngineStack({
        projectName: "harness-program-never-called",
        program: async () => {
          const parent = new pulumi.ComponentResource("test:index:Parent", "parent");
          new pulumi.ComponentResource("test:index:Child", "child", {}, { parent });
          return {};
        },
      });
      await engine.stack.up();

      // The engine connection of the next run fails the way a shared, failing connection does: the
      // stack resource is registered, the run's other calls are answered, and the call that comes
      // before the program fails with UNAVAILABLE.
      const setRootResourceAsUsual = runtimeSettings.setRootResource;
      runtimeSettings.setRootResource = async (stack) => {
        await (stack as { urn: { promise(): Promise<string> } }).urn.promise();
        await runtimeSettings.waitForRPCs();
        throw Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14 });
      };
      const preview = await engine.stack
        .preview()
        .then(
          (result) => result,
          (error: unknown) => error,
        )
        .finally(() => {
          runtimeSettings.setRootResource = setRootResourceAsUsual;
        });
      expect(preview).toBeInstanceOf(Error);
      const message = (preview as Error).message;
      expect(message).toContain("the engine finished this preview as a success");
      expect(message).toContain("but the program was never called");
      // The evidence: what the engine planned, the rejection that ended the run, where the log is.
      expect(message).toMatch(/"delete":2/);
      expect(message).toContain('unhandled rejection in the test process: Error (code 14): "14 UNAVAILABLE: No connection established"');
      expect(message).toContain(engine.logFile);
      expect(message).toMatch(/Its resource monitor: 127\.0\.0\.1:\d+\. Its engine: 127\.0\.0\.1:\d+\./);

      // The next run connects as usual and plans nothing.
      expect(plannedChanges(await engine.stack.preview()), engine.lastStep()).toEqual({});
    });
  });
});
