// The provider plugin under a Node.js too old for it (main.ts): instead of exiting, which the engine
// reports as a provider that "exited prematurely" with "this is *always* a bug in the provider"
// above the plugin's own words, it serves the protocol just far enough to refuse every call with
// the one line saying what is wrong and the fix. The engine then prints that line as the
// provider's error, first. Only the gRPC runtime and the protocol's messages are loaded: they run
// on any Node.js the engine's language hosts run on.

import type * as GrpcJs from "@grpc/grpc-js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { emptyPb, grpc, pluginPb, providerGrpc } from "./rpcModules";

/** A service whose every method but GetPluginInfo, Cancel and Handshake fails with `message` (FAILED_PRECONDITION). */
export function refusingService(message: string, version: string): IResourceProviderServer {
  const status = { code: grpc.status.FAILED_PRECONDITION, details: message };
  const service: Record<string, unknown> = {
    getPluginInfo: (_call: unknown, callback: GrpcJs.sendUnaryData<unknown>) =>
      callback(null, new pluginPb.PluginInfo().setVersion(version)),
    // As the real plugin answers it: the engine then goes on to configure the provider, which fails
    // with the line. A failed handshake would make it stop the plugin as one that "did not come alive".
    // The engine cancels every plugin at its end: a failed Cancel reads to it as a plugin that crashed.
    cancel: (_call: unknown, callback: GrpcJs.sendUnaryData<unknown>) => callback(null, new emptyPb.Empty()),
    handshake: (_call: unknown, callback: GrpcJs.sendUnaryData<unknown>) =>
      callback({ code: grpc.status.UNIMPLEMENTED, details: "Handshake is not implemented by the gpucloud provider plugin" }, null),
  };
  for (const [name, method] of Object.entries(providerGrpc.ResourceProviderService)) {
    if (name in service) continue;
    service[name] = method.responseStream
      ? (call: GrpcJs.ServerWritableStream<unknown, unknown>) => call.emit("error", status)
      : (_call: unknown, callback: GrpcJs.sendUnaryData<unknown>) => callback(status, null);
  }
  return service as unknown as IResourceProviderServer;
}

/** Serves the refusal on a free local port and prints the port, as the engine expects of a plugin. */
export async function serveRefusal(message: string, version: string): Promise<void> {
  const server = new grpc.Server();
  server.addService(providerGrpc.ResourceProviderService, refusingService(message, version));
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  // Not on stderr: the engine takes a plugin's stderr for a crash's output, and says so first.
  process.stdout.write(`${port}\n`);
}
