// The gRPC runtime and the protocol's messages, taken from @pulumi/pulumi's own dependencies. The
// generated service definitions check every message with `instanceof`, so a Struct or an Empty
// must come from the copy of google-protobuf they were generated against, and the server from the
// grpc-js they were made for: both are resolved from where @pulumi/pulumi's protocol files live,
// whatever copies a user's node_modules also hold.

import { createRequire } from "node:module";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as AnyPb from "google-protobuf/google/protobuf/any_pb";
import type * as EmptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import * as statusPb from "@pulumi/pulumi/proto/status_pb";

const besideProtocol = createRequire(require.resolve("@pulumi/pulumi/proto/provider_pb"));

export const grpc = besideProtocol("@grpc/grpc-js") as typeof GrpcJs;
export const anyPb = besideProtocol("google-protobuf/google/protobuf/any_pb") as typeof AnyPb;
export const emptyPb = besideProtocol("google-protobuf/google/protobuf/empty_pb") as typeof EmptyPb;
export const structPb = besideProtocol("google-protobuf/google/protobuf/struct_pb") as typeof StructPb;
export { engineGrpc, enginePb, pluginPb, providerGrpc, providerPb, statusPb };
