// The engine's requests about the provider itself: its version and schema, its settings
// (CheckConfig, DiffConfig, Configure: which become the stack config the model reads), the
// functions it serves (Invoke) and Cancel.

import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import { setStackConfig } from "../../model/stackConfig";
import { unary } from "./calls";
import { changedSettings, checkProviderConfig, configurationOf, SECRET_SETTINGS, type ProviderConfiguration } from "./config";
import type { PluginFunction } from "./invokes";
import { fromStruct, propertyDiff, toFailure, toStruct } from "./messages";
import { packageVersion, schemaText } from "./packageFiles";
import { forEngine, revealProps, secretKeysOf } from "./protocol";
import { emptyPb, pluginPb, providerPb } from "./rpcModules";

type ProviderMethods = Pick<
  IResourceProviderServer,
  "getPluginInfo" | "getSchema" | "cancel" | "checkConfig" | "diffConfig" | "configure" | "invoke"
>;

/** `configured` hears each configuration, after it became the stack config in force. */
export function providerHandlers(
  functions: ReadonlyMap<string, PluginFunction>,
  configured: (configuration: ProviderConfiguration) => void,
): ProviderMethods {
  return {
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
      for (const key of changed)
        response.getDetaileddiffMap().set(key, propertyDiff(!(key in olds) ? "ADD" : !(key in news) ? "DELETE" : "UPDATE"));
      response.setHasdetaileddiff(true);
      return response;
    }),

    configure: unary(async (req: ProviderPb.ConfigureRequest) => {
      const variables = new Map(req.getVariablesMap().getEntryList());
      const configuration = configurationOf(variables, revealProps(fromStruct(req.getArgs())).values);
      setStackConfig(configuration.config);
      configured(configuration);
      const response = new providerPb.ConfigureResponse();
      response.setAcceptsecrets(true);
      // Without preview support the engine shows a new resource's checked inputs at preview, as it
      // does for the dynamic resources, and never calls Create or Update then.
      response.setSupportspreview(false);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      return response;
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
}
