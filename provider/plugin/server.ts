// The provider plugin's gRPC service: the engine's requests about the provider (providerHandlers.ts)
// and about its resources (resourceHandlers.ts), on the model's resources and lookups. Written
// here rather than with @pulumi/pulumi's provider server, which in 3.259 drops the Configure request
// (an explicit provider's own settings never reach it) and fails a Read without properties (every
// import). Methods the plugin does not serve (Handshake, Construct, Call, ...) answer UNIMPLEMENTED.

import type * as GrpcJs from "@grpc/grpc-js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { connectionFailures, connectionProof } from "../../model/connection";
import { defaultDeps, type ProgressLog, type ProviderDeps } from "../resources/deps";
import { withUnimplemented } from "./calls";
import { pluginFunctions } from "./invokes";
import { providerHandlers } from "./providerHandlers";
import { resourceHandlers } from "./resourceHandlers";
import { pluginResources } from "./resources";
import { grpc, providerGrpc } from "./rpcModules";

/** The service's implementation, given where progress is logged. */
export function providerService(log: ProgressLog): IResourceProviderServer {
  let unknownSettings = false;
  const deps: ProviderDeps = {
    ...defaultDeps(),
    log,
    // While a setting of an explicit provider is not known yet (preview), its problems cannot be either.
    connectionFailures: () => (unknownSettings ? [] : connectionFailures("ifSet")),
    connectionProof: async () => (unknownSettings ? [] : connectionProof("ifSet")),
  };
  return withUnimplemented({
    ...providerHandlers(pluginFunctions(), (configuration) => {
      unknownSettings = configuration.unknown.length > 0;
    }),
    ...resourceHandlers(pluginResources(deps)),
  });
}

/** Binds the service on a free local port: the port the engine is told on stdout. */
export async function listen(service: IResourceProviderServer): Promise<{ port: number; server: GrpcJs.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerGrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return { port, server };
}
