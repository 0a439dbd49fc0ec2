/**
 * The provider plugin's gRPC service in this process, on a free port, and a client speaking to it
 * as the engine does: requests built from plain values (Structs made here), answers as plain values.
 * What the service logs for a resource is recorded with the resource's URN.
 */
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";
import { currentResource } from "../../../provider/plugin/engineLog";
import { listen, providerService } from "../../../provider/plugin/server";
import { grpc, providerGrpc, providerPb, structPb } from "../../../provider/plugin/rpcModules";
import type { Props } from "../../../model/fields/values";

export interface PluginClient {
  call<Res>(method: string, request: unknown): Promise<Res>;
  configure(args: Props, variables?: Record<string, string>): Promise<ProviderPb.ConfigureResponse>;
  check(
    type: string,
    name: string,
    news: Props,
    olds?: Props,
  ): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }>;
  diff(type: string, id: string, olds: Props, news: Props): Promise<ProviderPb.DiffResponse>;
  create(type: string, name: string, inputs: Props): Promise<{ id: string; outputs: Props }>;
  read(type: string, id: string, props?: Props, inputs?: Props): Promise<{ id: string; outputs: Props; inputs: Props | undefined }>;
  update(type: string, id: string, olds: Props, news: Props): Promise<Props>;
  delete(type: string, id: string, props: Props): Promise<void>;
  invoke(token: string, args: Props): Promise<Props>;
  /** What the service logged: `urn` and message. */
  logged: { urn: string; severity: "info" | "warn"; message: string }[];
  close(): Promise<void>;
}

export function struct(props: Props): StructPb.Struct {
  return structPb.Struct.fromJavaScript(props as Record<string, StructPb.JavaScriptValue>);
}

export function urnOf(type: string, name: string): string {
  return `urn:pulumi:test::plugin-test::${type}::${name}`;
}

export async function startPluginClient(): Promise<PluginClient> {
  const logged: PluginClient["logged"] = [];
  const log = {
    info: (message: string) => void logged.push({ urn: currentResource() ?? "", severity: "info", message }),
    warn: (message: string) => void logged.push({ urn: currentResource() ?? "", severity: "warn", message }),
  };
  const { port, server } = await listen(providerService(log));
  const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  function call<Res>(method: string, request: unknown): Promise<Res> {
    const fn = (client as unknown as Record<string, (req: unknown, cb: (e: Error | null, r: Res) => void) => void>)[method];
    if (!fn) throw new Error(`no method ${method}`);
    return new Promise((resolve, reject) => fn.call(client, request, (error, response) => (error ? reject(error) : resolve(response))));
  }
  const plain = (s: StructPb.Struct | undefined): Props => (s?.toJavaScript() ?? {}) as Props;

  return {
    call,
    logged,
    configure(args, variables = {}) {
      const request = new providerPb.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true);
      for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
      return call("configure", request);
    },
    async check(type, name, news, olds = {}) {
      const request = new providerPb.CheckRequest()
        .setUrn(urnOf(type, name))
        .setName(name)
        .setType(type)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const response = await call<ProviderPb.CheckResponse>("check", request);
      return { inputs: plain(response.getInputs()), failures: response.getFailuresList().map((f) => f.toObject()) };
    },
    diff(type, id, olds, news) {
      const request = new providerPb.DiffRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setOlds(struct(olds))
        .setNews(struct(news));
      return call("diff", request);
    },
    async create(type, name, inputs) {
      const request = new providerPb.CreateRequest().setUrn(urnOf(type, name)).setType(type).setName(name).setProperties(struct(inputs));
      const response = await call<ProviderPb.CreateResponse>("create", request);
      return { id: response.getId(), outputs: plain(response.getProperties()) };
    },
    async read(type, id, props, inputs) {
      const request = new providerPb.ReadRequest().setUrn(urnOf(type, "r")).setType(type).setId(id);
      if (props) request.setProperties(struct(props));
      if (inputs) request.setInputs(struct(inputs));
      const response = await call<ProviderPb.ReadResponse>("read", request);
      return {
        id: response.getId(),
        outputs: plain(response.getProperties()),
        inputs: response.hasInputs() ? plain(response.getInputs()) : undefined,
      };
    },
    async update(type, id, olds, news) {
      const request = new providerPb.UpdateRequest()
        .setUrn(urnOf(type, "r"))
        .setType(type)
        .setId(id)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const response = await call<ProviderPb.UpdateResponse>("update", request);
      return plain(response.getProperties());
    },
    async delete(type, id, props) {
      const request = new providerPb.DeleteRequest().setUrn(urnOf(type, "r")).setType(type).setId(id).setProperties(struct(props));
      await call("delete", request);
    },
    async invoke(token, args) {
      const response = await call<ProviderPb.InvokeResponse>("invoke", new providerPb.InvokeRequest().setTok(token).setArgs(struct(args)));
      return plain(response.getReturn());
    },
    async close() {
      client.close();
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
