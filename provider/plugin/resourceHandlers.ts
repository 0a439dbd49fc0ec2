// The engine's requests about resources (Check, Diff, Create, Read, Update, Delete), each for the
// resource its type names: secrets unwrapped on the way in and wrapped on the way out (the
// resource's sensitive fields, and whatever the inputs held as secrets), the diff's field-level
// detail passed on, and what the resource logs attached to it.

import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import { withInitFailure, unary } from "./calls";
import { forResource } from "./engineLog";
import { redactFailure, redactingErrors, secretTexts } from "./redaction";
import { fromStruct, nameOf, propertyDiff, toFailure, toStruct, typeOf } from "./messages";
import { detailedDiffOf, forEngine, revealProps, secretKeysOf, type Revealed } from "./protocol";
import type { PluginResource } from "./resources";
import { emptyPb, providerPb } from "./rpcModules";

type ResourceMethods = Pick<IResourceProviderServer, "check" | "diff" | "create" | "read" | "update" | "delete">;

export function resourceHandlers(resources: ReadonlyMap<string, PluginResource>): ResourceMethods {
  function resourceOf(req: { getType(): string; getUrn(): string }): PluginResource {
    const type = typeOf(req.getType(), req.getUrn());
    const resource = resources.get(type);
    if (!resource)
      throw new Error(`pulumi-gpucloud: the provider plugin has no resource type ${type}; it serves ${[...resources.keys()].join(", ")}`);
    return resource;
  }

  return {
    check: unary(async (req: ProviderPb.CheckRequest) => {
      const resource = resourceOf(req);
      const olds = revealProps(fromStruct(req.getOlds()));
      const news = revealProps(fromStruct(req.getNews()));
      const name = req.getName() || nameOf(req.getUrn());
      // What the check says of a value given as a secret is redacted (its warnings too, through the log).
      const secrets = secretTexts(news.values, news.secretKeys);
      const result = await forResource(req.getUrn(), () => resource.check(name, olds.values, news.values, req.getUrn()), secrets);
      const response = new providerPb.CheckResponse();
      response.setInputs(toStruct(forEngine(result.inputs ?? news.values, secretKeysOf(resource.sensitive, news))));
      response.setFailuresList((result.failures ?? []).map((f) => toFailure(redactFailure(f, news.secretKeys, secrets, news.values))));
      return response;
    }),

    diff: unary(async (req: ProviderPb.DiffRequest) => {
      const resource = resourceOf(req);
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
      const resource = resourceOf(req);
      const inputs = revealProps(fromStruct(req.getProperties()));
      const secret = secretKeysOf(resource.sensitive, inputs);
      const secrets = secretTexts(inputs.values, inputs.secretKeys);
      const result = await forResource(
        req.getUrn(),
        () => redactingErrors(secrets, () => withInitFailure(secret, () => resource.create(inputs.values))),
        secrets,
      );
      return new providerPb.CreateResponse().setId(result.id).setProperties(toStruct(forEngine(result.outs ?? {}, secret)));
    }),

    read: unary(async (req: ProviderPb.ReadRequest) => {
      const resource = resourceOf(req);
      // No properties: an import. The engine then checks and records the inputs returned.
      const props: Revealed | undefined = req.hasProperties() ? revealProps(fromStruct(req.getProperties())) : undefined;
      const inputs = revealProps(fromStruct(req.getInputs()));
      const result = await forResource(req.getUrn(), () => resource.read(req.getId(), props?.values));
      const response = new providerPb.ReadResponse();
      // No id: the resource is gone (a refresh drops it from the state; an import fails saying so).
      if (!result.id) return response;
      const secret = secretKeysOf(resource.sensitive, ...(props ? [props] : []), inputs);
      response.setId(result.id);
      response.setProperties(toStruct(forEngine(result.props ?? {}, secret)));
      if (result.inputs) response.setInputs(toStruct(forEngine(result.inputs, secret)));
      return response;
    }),

    update: unary(async (req: ProviderPb.UpdateRequest) => {
      const resource = resourceOf(req);
      const olds = revealProps(fromStruct(req.getOlds())).values;
      const news = revealProps(fromStruct(req.getNews()));
      const secret = secretKeysOf(resource.sensitive, news);
      const secrets = secretTexts(news.values, news.secretKeys);
      const result = await forResource(
        req.getUrn(),
        () => redactingErrors(secrets, () => withInitFailure(secret, () => resource.update(req.getId(), olds, news.values))),
        secrets,
      );
      return new providerPb.UpdateResponse().setProperties(toStruct(forEngine(result.outs ?? {}, secret)));
    }),

    delete: unary(async (req: ProviderPb.DeleteRequest) => {
      const resource = resourceOf(req);
      const props = revealProps(fromStruct(req.getProperties())).values;
      await forResource(req.getUrn(), () => resource.delete(req.getId(), props));
      return new emptyPb.Empty();
    }),
  };
}
