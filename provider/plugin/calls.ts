// How the plugin's handlers answer gRPC: a request handled by a promise, a failure as a gRPC error
// (a resource that exists but failed to become ready with its id and outputs as the error's
// details, which is how the engine records a partial create or update), and UNIMPLEMENTED for every
// method of the service the plugin does not serve.

import type * as GrpcJs from "@grpc/grpc-js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { messageOf } from "../../model/fields/values";
import { ResourceInitError } from "../resources/partialCreate";
import { toStruct } from "./messages";
import { forEngine } from "./protocol";
import { anyPb, grpc, providerGrpc, providerPb, statusPb } from "./rpcModules";

/** A unary method from a function of its request. */
export function unary<Req, Res>(handler: (request: Req) => Promise<Res>): GrpcJs.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const status = grpcError(error);
        callback(status, null, status.metadata);
      },
    );
  };
}

/** A failure after the resource came to exist, with the properties that are secret in its outputs. */
class InitFailure extends Error {
  constructor(
    readonly failure: ResourceInitError,
    readonly secret: ReadonlySet<string>,
  ) {
    super(failure.message);
  }
}

/** Runs a create or update; its partial failure keeps the resource's id and outputs for the engine. */
export async function withInitFailure<T>(secret: ReadonlySet<string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ResourceInitError ? new InitFailure(error, secret) : error;
  }
}

function grpcError(error: unknown): Partial<GrpcJs.StatusObject> & { message: string } {
  const message = messageOf(error);
  const metadata = new grpc.Metadata();
  if (error instanceof InitFailure) {
    const detail = new providerPb.ErrorResourceInitFailed();
    detail.setId(error.failure.id);
    detail.setProperties(toStruct(forEngine(error.failure.properties, error.secret)));
    detail.setReasonsList(error.failure.reasons);
    const any = new anyPb.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusPb.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
    status.addDetails(any);
    // The engine reads structured error details from this trailer.
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, message, metadata };
}

/** The served methods, and UNIMPLEMENTED for every other method of the service. */
export function withUnimplemented(served: Partial<IResourceProviderServer>): IResourceProviderServer {
  const service: Record<string, unknown> = { ...served };
  for (const [name, method] of Object.entries(providerGrpc.ResourceProviderService)) {
    if (name in service) continue;
    const status = { code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by the gpucloud provider plugin` };
    service[name] = method.responseStream
      ? (call: GrpcJs.ServerWritableStream<unknown, unknown>) => call.emit("error", status)
      : (_call: unknown, callback: GrpcJs.sendUnaryData<unknown>) => callback(status, null);
  }
  return service as unknown as IResourceProviderServer;
}
