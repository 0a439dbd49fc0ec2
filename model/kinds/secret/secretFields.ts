// An account secret's field table (v2 only). The name is fixed at create (a change replaces; names
// are unique, so a replacement that keeps it deletes first). The value is write-only: the service
// never returns it, so a rotation is seen from the inputs alone (the recorded value, which the SDK
// makes a Pulumi secret, so state holds it encrypted only). The description changes in place.

import type { SecretCreateBody } from "../../../client/managementV2";
import type { SecretV2 } from "../../../client/schemasV2";
import {
  SECRET_DESCRIPTION_MAX_BYTES,
  SECRET_NAME_MAX_LENGTH,
  SECRET_NAME_PATTERN,
  SECRET_VALUE_MAX_BYTES,
  SERVICE_ENV_PREFIX,
} from "../../../client/secrets";
import type { AnswerPathV2, SentPathV2 } from "../../../client/wirePathsV2";
import {
  adoptIdRow,
  defineTable,
  rowsFor,
  type ArgsOf,
  type Backend,
  type CrossCheckResult,
  type OutputArgumentKeys,
} from "../../fields/fieldTable";
import { field, type Verdict } from "../../fields/validation";
import { kindOf, quote, type Props } from "../../fields/values";

const { update, replace, output } = rowsFor<SecretV2, SentPathV2<"createSecret" | "updateSecret">, AnswerPathV2<"getSecret">>();

const bad = (message: string): Verdict<never> => ({ ok: false, message });

const secretName = field<string>((value) => {
  const example = 'e.g. "HF_TOKEN"';
  if (value === undefined) return bad(`is required; set it, ${example}`);
  if (typeof value !== "string") return bad(`expected a string, got ${quote(value)}; ${example}`);
  if (value.length === 0 || value.length > SECRET_NAME_MAX_LENGTH)
    return bad(`is ${value.length} characters long; the service takes 1 to ${SECRET_NAME_MAX_LENGTH}`);
  if (!SECRET_NAME_PATTERN.test(value))
    return bad(`${quote(value)} must start with a letter or _ and hold only letters, digits, _ . - /; ${example}`);
  if (value.toUpperCase().startsWith(SERVICE_ENV_PREFIX))
    return bad(`${quote(value)} starts with ${SERVICE_ENV_PREFIX}, a prefix the service reserves (in any case); choose another name`);
  return { ok: true, value };
});

// Never echoes the value: only its kind and size.
const secretValue = field<string>((value) => {
  if (value === undefined) return bad('is required; set it, e.g. config.requireSecret("hfToken")');
  if (typeof value !== "string") return bad(`expected a string, got ${kindOf(value)}`);
  if (value.length === 0) return bad("must not be empty (the service takes 1 character or more)");
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes >= SECRET_VALUE_MAX_BYTES)
    return bad(`is ${bytes} bytes of UTF-8; the service takes less than ${SECRET_VALUE_MAX_BYTES} (16 MiB)`);
  return { ok: true, value };
});

const secretDescription = field<string>((value) => {
  if (typeof value !== "string") return bad(`expected a string, got ${quote(value)}; e.g. "model hub read token"`);
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > SECRET_DESCRIPTION_MAX_BYTES)
    return bad(`is ${bytes} bytes of UTF-8; the service takes at most ${SECRET_DESCRIPTION_MAX_BYTES}`);
  return { ok: true, value };
});

const rows = {
  name: replace(secretName, { observe: (s) => s.name, v2: { path: "name" } }),
  // No observe: the service never returns it, so the recorded value stands (and drift is invisible).
  value: update(secretValue, { sensitive: true, v2: { path: "value" } }),
  // "" clears it; the service then reports none, which compares equal to "".
  description: update(secretDescription.optional(), { default: "", observe: (s) => s.description ?? "", v2: { path: "description" } }),
  adoptId: adoptIdRow,
  createdAt: output((s) => s.createdAt, { v2: { path: "createdAt" } }),
  valueLastUpdatedAt: output((s) => s.valueLastUpdatedAt, { v2: { path: "valueLastUpdatedAt" } }),
};

/** Account secrets exist on the v2 API only: on v1, check fails saying so and how to switch. */
function crossCheck(_args: Props, _olds: Props, backend: Backend = "v1"): CrossCheckResult {
  if (backend === "v2") return { failures: [], warnings: [] };
  return {
    failures: [
      {
        property: "",
        reason:
          "account secrets need the service's v2 API, but the management URL ends in /v1 (the retired API): " +
          "set it to the /v2 URL, e.g. `pulumi config set gpucloud:apiUrl https://<api host>/v2` (or GPUCLOUD_API_URL; the local emulator serves v2 at http://<host>:<port>/api/v2)",
      },
    ],
    warnings: [],
  };
}

export const secretTable = defineTable<SecretCreateBody, SecretV2>()({
  noun: "secret",
  rows,
  // Names are unique per account, compared without regard to case (the list filter is; uniqueness
  // itself is unverified, so the safe order is taken).
  deleteBeforeReplaceWhenSame: ["name"],
  uniqueNamesIgnoreCase: true,
  crossCheck,
});
export type SecretArgs = ArgsOf<typeof rows>;
export type { SecretOutputArguments } from "../../fields/outputArguments";
/** The rows registered as outputs; the generated list (outputLists.ts) is held equal to it by `npm run typecheck` (test/model/fields/outputLists.types.ts). */
export type SecretRowOutputArguments = OutputArgumentKeys<typeof rows>;
