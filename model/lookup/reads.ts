/**
 * The reads of readNames.ts, each as one call: its arguments checked (a LookupArgsError or a
 * BillingQueryError naming the argument, the value and the fix, before any request), then one v2
 * client on the connection (a ConfigError on a /v1 URL, saying to use the /v2 one), then the
 * service's answer in its own field names. Loaded at a read's first call (SDK) or by the plugin.
 */
import { z } from "zod";
import { BILLING_HISTORIES_V2, billingQueryV2 } from "../../client/billingV2";
import type { RecentLogOptions } from "../../client/logs";
import type { ManagementClientV2 } from "../../client/managementV2";
import { LookupArgsError } from "./lookupArgsError";
import type { BillingRead, ReadName, ResourceRead } from "./readNames";
import { withV2Client } from "./v2Lookups";
import { isRecord, withoutUnset } from "../fields/values";

type Connection = { apiKey: string; apiUrl: string };
type Result = object;

const id = (what: string) =>
  z
    .string({
      error: (i) => (i.input === undefined ? `${what} is required` : `${what} must be an id string (got ${JSON.stringify(i.input)})`),
    })
    .min(1, { error: `${what} must not be empty: give the id` });
const logOptions = {
  lines: z.number().optional(),
  maxBytes: z.number().optional(),
  timeoutMs: z.number().optional(),
  source: z
    .enum(["container", "system"], { error: (i) => `source must be container or system (got ${JSON.stringify(i.input)})` })
    .optional(),
};

/** Each resource read: its arguments' schema and its call (the numeric log options are checked by the log reader). */
const RESOURCE_READS: { [N in ResourceRead]: { args: z.ZodType; call(c: ManagementClientV2, args: never): Promise<Result> } } = {
  getEndpointWorkers: {
    args: z.object({ endpointId: id("endpointId") }).strict(),
    call: (c, a: { endpointId: string }) => c.endpointWorkerList(a.endpointId),
  },
  getEndpointReleases: {
    args: z.object({ endpointId: id("endpointId") }).strict(),
    call: (c, a: { endpointId: string }) => c.endpointReleases(a.endpointId),
  },
  getPublicTemplates: {
    args: z
      .object({
        source: z
          .enum(["official", "verified", "community"], {
            error: (i) => `source must be official, verified or community (got ${JSON.stringify(i.input)})`,
          })
          .optional(),
      })
      .strict(),
    call: async (c, a: { source?: "official" | "verified" | "community" }) => ({ templates: await c.publicTemplates(a.source) }),
  },
  getPodLog: {
    args: z.object({ podId: id("podId"), ...logOptions }).strict(),
    call: (c, { podId, ...options }: { podId: string } & RecentLogOptions) => c.podLog(podId, options),
  },
  getWorkerLog: {
    args: z.object({ endpointId: id("endpointId"), workerId: id("workerId"), ...logOptions }).strict(),
    call: (c, { endpointId, workerId, ...options }: { endpointId: string; workerId: string } & RecentLogOptions) =>
      c.workerLog(endpointId, workerId, options),
  },
};

/** One read on the connection; arguments first, so bad input never reaches the service. */
export async function runRead(name: ReadName, args: unknown, connection: Connection): Promise<Result> {
  const given = args === undefined || args === null ? {} : isRecord(args) ? withoutUnset(args) : args;
  if (name in BILLING_HISTORIES_V2) {
    const read = name as BillingRead;
    const query = billingQueryV2(read, given);
    return withV2Client(name, connection, (c) => c.billingHistory(BILLING_HISTORIES_V2[read].operation, query));
  }
  const read = RESOURCE_READS[name as ResourceRead];
  const parsed = read.args.safeParse(given);
  if (!parsed.success)
    throw new LookupArgsError(`invalid ${name} arguments: ${parsed.error.issues.map((i) => issueText(name, i)).join("; ")}`);
  return withV2Client(name, connection, (c) => read.call(c, parsed.data as never));
}

function issueText(name: string, issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `${issue.keys.join(", ")}: not an argument of ${name}; remove it`;
  return issue.message;
}
