// Type-level tests, checked by `npm run typecheck` (tsconfig.test.json), not run by vitest: each
// `@ts-expect-error` line must fail to compile, so a regression that lets a v2 wire path or body
// field the reference does not define through (a path typed as any string again) makes typecheck
// fail with "Unused '@ts-expect-error' directive".
import type { RequestOf } from "../../../client/operationsV2";
import type { Pod } from "../../../client/schemas";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import type { ComposedEndpointPathV2 } from "../../../model/kinds/endpoint/endpointFields";
import { rowsFor } from "../../../model/fields/fieldTable";
import { num } from "../../../model/fields/validation";

const { update, replace, output } = rowsFor<Pod, SentPathV2<"createPod" | "updatePod">, AnswerPathV2<"getPod">>();
const count = num({ min: 1, unit: "GPUs", example: "1" }).optional();

export const rowsThatCompile = [
  replace(count, { v2: { path: "gpu.count" } }),
  // A list item by index, and a field only the update body has.
  replace(count, { v2: { path: "mounts.network.0.volumeId" } }),
  update(count, { v2: { path: "locked" } }),
  // Outputs read the answer's paths, which bodies do not have.
  output(() => undefined, { v2: { path: "runtime.ports" } }),
];

export const rowsThatDoNot = [
  // @ts-expect-error -- a misspelt field of CreatePodRequest.gpu
  replace(count, { v2: { path: "gpu.poools" } }),
  // @ts-expect-error -- a v1 name: the v2 body calls it `image`
  update(count, { v2: { path: "imageName" } }),
  // @ts-expect-error -- env is a map: its keys are data, never a field path
  update(count, { v2: { path: "env.HF_TOKEN" } }),
  // @ts-expect-error -- `cost` is in the pod's answer, never in a body
  update(count, { v2: { path: "cost" } }),
  // @ts-expect-error -- not in the pod's answer
  output(() => undefined, { v2: { path: "costPerHr" } }),
];

// An endpoint's composed paths are named; anything else outside the reference is not.
export const composed: ComposedEndpointPathV2 = "scaling.value";
export const endpointPaths: Array<SentPathV2<"createEndpoint" | "updateEndpoint">> = [
  "gpu.pools",
  "scaling.queueDelay",
  // @ts-expect-error -- composed, not the reference's: only through ComposedEndpointPathV2
  "gpu.types",
  // @ts-expect-error -- the reference names it `workers.idleTimeout`
  "workers.idleTimeoutSeconds",
];

// The bodies themselves: a field the request type does not have is refused.
export const podBody: RequestOf<"createPod"> = {
  name: "trainer",
  gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 },
  // @ts-expect-error -- v1's name; v2 takes `image`
  imageName: "pytorch/pytorch",
};

// A table must say which operations its rows travel in.
// @ts-expect-error -- rowsFor needs the Sent and Read path types
rowsFor<Pod>();
