/**
 * One read of sdk/reads.ts or sdk/billingV2.ts: the connection (options, else stack config, else
 * GPUCLOUD_* env), the read (model/lookup/reads.ts, loaded at the first call with zod and the
 * clients: a program that reads nothing never loads them), and a failure made one line.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ReadName } from "../model/lookup/readNames";
import { lookupConnection, type LookupOptions } from "./connection";
import type { LookupInputs } from "./lookups";

export async function read<R>(name: ReadName, args: unknown, options: LookupOptions): Promise<R> {
  const [{ runRead }, { callFailure, LookupError }, { LookupArgsError }, { BillingQueryError }, { ConfigError }, { LogReadOptionsError }] =
    await Promise.all([
      import("../model/lookup/reads"),
      import("./programError"),
      import("../model/lookup/lookupArgsError"),
      import("../client/billingQueryError"),
      import("../client/config"),
      import("../client/logs"),
    ]);
  try {
    return (await runRead(name, args, lookupConnection(options))) as R;
  } catch (error) {
    throw callFailure(name, [LookupArgsError, BillingQueryError, ConfigError, LogReadOptionsError, LookupError], error);
  }
}

/** A read taking Inputs (e.g. `{ endpointId: endpoint.id }`), as an Output. */
export function readOutput<A, R>(name: ReadName, args: LookupInputs<A> | pulumi.Input<A>, options: LookupOptions): pulumi.Output<R> {
  return pulumi.output(args as pulumi.Input<A>).apply((resolved) => read<R>(name, resolved, options)) as unknown as pulumi.Output<R>;
}
