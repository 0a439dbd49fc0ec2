// The provider plugin's gRPC service: the engine's requests, translated (protobuf Structs, secrets,
// detailed diffs, errors) to the resources and functions the plugin serves and back. Implemented
// here rather than with @pulumi/pulumi's provider server, which in 3.259 drops the Configure request
// (an explicit provider's own settings never reach it) and fails a Read without properties (every
// import). Methods the plugin does not serve (Handshake, Construct, Call, ...) answer UNIMPLEMENTED.

import type * as GrpcJs from "@grpc/grpc-js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import { connectionFailures } from "../../model/connection";
import { setStackConfig } from "../../model/stackConfig";
import { messageOf, type Props } from "../../model/fields/values";
import { defaultDeps, type ProgressLog, type ProviderDeps } from "../resources/deps";
import { ResourceInitError } from "../resources/partialCreate";
import { changedSettings, checkProviderConfig, configurationOf, SECRET_SETTINGS } from "./config";
import { forResource } from "./engineLog";
import { pluginFunctions } from "./invokes";
import { packageVersion, schemaText } from "./packageFiles";
import { detailedDiffOf, forEngine, revealProps, secretKeysOf, type Revealed } from "./protocol";
import { pluginResources, type PluginResource } from "./resources";
import { anyPb, emptyPb, grpc, pluginPb, providerGrpc, providerPb, statusPb, structPb } from "./rpcModules";

type Unary<Req, Res> = (request: Req) => Promise<Res>;

/** The service's implementation, given where progress is logged. */
export function providerService(log: ProgressLog): IResourceProviderServer {
  let unknownSettings = false;
  const deps: ProviderDeps = {
    ...defaultDeps(),
    log,
    // While a setting of an explicit provider is not known yet (preview), its problems cannot be either.
    connectionFailures: () => (unknownSettings ? [] : connectionFailures("ifSet")),
  };
  const resources = pluginResources(deps);
  const functions = pluginFunctions();

  function resourceOf(type: string): PluginResource {
    const resource = resources.get(type);
    if (!resource)
      throw new Error(`pulumi-gpucloud: the provider plugin has no resource type ${type}; it serves ${[...resources.keys()].join(", ")}`);
    return resource;
  }

  const served: Partial<IResourceProviderServer> = {
    getPluginInfo: unary(async () => new pluginPb.PluginInfo().setVersion(packageVersion())),
    getSchema: unary(async () => new providerPb.GetSchemaResponse().setSchema(schemaText())),
    cancel: unary(async () => new emptyPb.Empty()),

    checkConfig: unary(async (req: ProviderPb.CheckRequest) => {
      const news = revealProps(fromStruct(req.getNews()));
      const response = new providerPb.CheckResponse();
      response.setInputs(toStruct(forEngine(news.values, secretKeysOf(SECRET_SETTINGS, news))));
      response.setFailuresList(checkProviderConfig(news.values).map(toFailure));
      return response;
    }),

    diffConfig: unary(async (req: ProviderPb.DiffRequest) => {
      const olds = revealProps(fromStruct(req.hasOldInputs() ? req.getOldInputs() : req.getOlds())).values;
      const news = revealProps(fromStruct(req.getNews())).values;
      const changed = changedSettings(olds, news);
      const response = new providerPb.DiffResponse();
      response.setChanges(
        changed.length > 0 ? providerPb.DiffResponse.DiffChanges.DIFF_SOME : providerPb.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(changed);
      for (const key of changed) {
        const kind = !(key in olds) ? "ADD" : !(key in news) ? "DELETE" : "UPDATE";
        response.getDetaileddiffMap().set(key, propertyDiff(kind));
      }
      response.setHasdetaileddiff(true);
      return response;
    }),

    configure: unary(async (req: ProviderPb.ConfigureRequest) => {
      const variables = new Map(req.getVariablesMap().getEntryList());
      const { config, unknown } = configurationOf(variables, revealProps(fromStruct(req.getArgs())).values);
      setStackConfig(config);
      unknownSettings = unknown.length > 0;
      const response = new providerPb.ConfigureResponse();
      response.setAcceptsecrets(true);
      // Without preview support the engine shows a new resource's checked inputs at preview, as it
      // does for the dynamic resources, and never calls Create or Update then.
      response.setSupportspreview(false);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      return response;
    }),

    check: unary(async (req: ProviderPb.CheckRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      const olds = revealProps(fromStruct(req.getOlds()));
      const news = revealProps(fromStruct(req.getNews()));
      const result = await forResource(req.getUrn(), () => resource.check(req.getName() || nameOf(req.getUrn()), olds.values, news.values));
      const response = new providerPb.CheckResponse();
      response.setInputs(toStruct(forEngine(result.inputs ?? news.values, secretKeysOf(resource.sensitive, news))));
      response.setFailuresList((result.failures ?? []).map(toFailure));
      return response;
    }),

    diff: unary(async (req: ProviderPb.DiffRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      const olds = revealProps(fromStruct(req.getOlds())).values;
      const news = revealProps(fromStruct(req.getNews())).values;
      const result = await forResource(req.getUrn(), () => resource.diff(req.getId(), olds, news));
      const response = new providerPb.DiffResponse();
      const changes = providerPb.DiffResponse.DiffChanges;
      response.setChanges(
        result.changes === true ? changes.DIFF_SOME : result.changes === false ? changes.DIFF_NONE : changes.DIFF_UNKNOWN,
      );
      response.setReplacesList(result.replaces ?? []);
      response.setDeletebeforereplace(result.deleteBeforeReplace === true);
      if (result.detailedDiff) {
        const detailed = detailedDiffOf(result.detailedDiff);
        for (const [path, kind] of Object.entries(detailed)) response.getDetaileddiffMap().set(path, propertyDiff(kind));
        response.setDiffsList([...new Set(Object.keys(detailed).map((path) => path.split(/[.[]/)[0] ?? path))]);
        response.setHasdetaileddiff(true);
      }
      return response;
    }),

    create: unary(async (req: ProviderPb.CreateRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      const inputs = revealProps(fromStruct(req.getProperties()));
      const secret = secretKeysOf(resource.sensitive, inputs);
      const result = await forResource(req.getUrn(), () => withInitFailure(secret, () => resource.create(inputs.values)));
      const response = new providerPb.CreateResponse();
      response.setId(result.id);
      response.setProperties(toStruct(forEngine(result.outs ?? {}, secret)));
      return response;
    }),

    read: unary(async (req: ProviderPb.ReadRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      // No properties: an import. The engine then checks and records the inputs returned.
      const props: Revealed | undefined = req.hasProperties() ? revealProps(fromStruct(req.getProperties())) : undefined;
      const inputs = revealProps(fromStruct(req.getInputs()));
      const result = await forResource(req.getUrn(), () => resource.read(req.getId(), props?.values));
      const response = new providerPb.ReadResponse();
      if (!result.id) return response;
      const secret = secretKeysOf(resource.sensitive, ...(props ? [props] : []), inputs);
      response.setId(result.id);
      response.setProperties(toStruct(forEngine(result.props ?? {}, secret)));
      if (result.inputs) response.setInputs(toStruct(forEngine(result.inputs, secret)));
      return response;
    }),

    update: unary(async (req: ProviderPb.UpdateRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      const olds = revealProps(fromStruct(req.getOlds()));
      const news = revealProps(fromStruct(req.getNews()));
      const secret = secretKeysOf(resource.sensitive, news);
      const result = await forResource(req.getUrn(), () =>
        withInitFailure(secret, () => resource.update(req.getId(), olds.values, news.values)),
      );
      return new providerPb.UpdateResponse().setProperties(toStruct(forEngine(result.outs ?? {}, secret)));
    }),

    delete: unary(async (req: ProviderPb.DeleteRequest) => {
      const resource = resourceOf(typeOf(req.getType(), req.getUrn()));
      const props = revealProps(fromStruct(req.getProperties())).values;
      await forResource(req.getUrn(), () => resource.delete(req.getId(), props));
      return new emptyPb.Empty();
    }),

    invoke: unary(async (req: ProviderPb.InvokeRequest) => {
      const call = functions.get(req.getTok());
      if (!call)
        throw new Error(
          `pulumi-gpucloud: the provider plugin has no function ${req.getTok()}; it serves ${[...functions.keys()].join(", ")}`,
        );
      const result = await call(revealProps(fromStruct(req.getArgs())).values);
      return new providerPb.InvokeResponse().setReturn(toStruct(forEngine(result.outputs, result.secretKeys)));
    }),
  };
  return withUnimplemented(served);
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

// ---- translation ------------------------------------------------------------------------------

function fromStruct(struct: StructPb.Struct | undefined): Props {
  return struct ? (struct.toJavaScript() as Props) : {};
}

function toStruct(props: Props): StructPb.Struct {
  return structPb.Struct.fromJavaScript(props as Record<string, StructPb.JavaScriptValue>);
}

function toFailure(failure: { property: string; reason: string }): ProviderPb.CheckFailure {
  return new providerPb.CheckFailure().setProperty(failure.property).setReason(failure.reason);
}

function propertyDiff(kind: keyof typeof ProviderPb.PropertyDiff.Kind): ProviderPb.PropertyDiff {
  // The diff compares the declared values, which the recorded inputs hold: show them against the old inputs.
  return new providerPb.PropertyDiff().setKind(providerPb.PropertyDiff.Kind[kind]).setInputdiff(true);
}

/** The type token of a request: its own field, else the URN's type (the part after any parent type). */
function typeOf(type: string, urn: string): string {
  if (type !== "") return type;
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** The resource's name in the program: the URN's last part. */
function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

// ---- errors -----------------------------------------------------------------------------------

/** A failure after the resource came to exist: the engine records the resource (its id and outputs) as partly done. */
class InitFailure extends Error {
  constructor(
    readonly failure: ResourceInitError,
    readonly secret: ReadonlySet<string>,
  ) {
    super(failure.message);
  }
}

async function withInitFailure<T>(secret: ReadonlySet<string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ResourceInitError ? new InitFailure(error, secret) : error;
  }
}

/** The gRPC error for a failed request; an InitFailure carries the resource's id and outputs as details. */
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

// ---- handlers ---------------------------------------------------------------------------------

function unary<Req, Res>(handler: Unary<Req, Res>): GrpcJs.handleUnaryCall<Req, Res> {
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

/** The served methods, and UNIMPLEMENTED for every other method of the service. */
function withUnimplemented(served: Partial<IResourceProviderServer>): IResourceProviderServer {
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
