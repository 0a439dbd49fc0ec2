/**
 * What each endpoint carries in a stack's state, split by where the bytes come from, so that the
 * dynamic path's state can be set against the plugin path's (scripts/bench-provider.ts): the
 * provider text (`__provider`, dynamic resources only), the inputs repeated among the outputs
 * (a dynamic resource's outputs hold its inputs again; a plugin resource's outputs do too, as the
 * engine records them), the cost estimate (in the checked inputs and again in the outputs), and the rest.
 */

type Props = Record<string, unknown>;

export interface CarriedBytes {
  /** Inputs plus outputs, as JSON, per endpoint. */
  total: number;
  /** `__provider` in the inputs and the outputs. */
  providerText: number;
  /** Outputs whose value is the input's of the same name (the cost estimate and the provider text aside). */
  inputsRepeated: number;
  /** `costEstimate` in the inputs and the outputs. */
  costEstimate: number;
}

const bytesOf = (value: unknown): number => (value === undefined ? 0 : JSON.stringify(value).length);

/** Per endpoint, the mean over the stack's endpoints. */
export function carriedPerEndpoint(deployment: unknown): CarriedBytes {
  const resources =
    (deployment as { deployment?: { resources?: Array<{ type: string; inputs?: Props; outputs?: Props }> } }).deployment?.resources ?? [];
  const endpoints = resources.filter((r) => r.type.endsWith(":Endpoint"));
  if (endpoints.length === 0) throw new Error("bench: no endpoint in the stack's state");
  const sum: CarriedBytes = { total: 0, providerText: 0, inputsRepeated: 0, costEstimate: 0 };
  for (const { inputs = {}, outputs = {} } of endpoints) {
    sum.total += bytesOf(inputs) + bytesOf(outputs);
    sum.providerText += bytesOf(inputs["__provider"]) + bytesOf(outputs["__provider"]);
    sum.costEstimate += bytesOf(inputs["costEstimate"]) + bytesOf(outputs["costEstimate"]);
    for (const [key, value] of Object.entries(outputs)) {
      if (key === "__provider" || key === "costEstimate" || !(key in inputs)) continue;
      if (JSON.stringify(inputs[key]) === JSON.stringify(value)) sum.inputsRepeated += key.length + 3 + bytesOf(value);
    }
  }
  const mean = (n: number): number => Math.round(n / endpoints.length);
  return {
    total: mean(sum.total),
    providerText: mean(sum.providerText),
    inputsRepeated: mean(sum.inputsRepeated),
    costEstimate: mean(sum.costEstimate),
  };
}
