// How an account secret is read (v2 only: the port's secrets calls, or an error naming the fix).
import type { SecretV2 } from "../../../client/schemasV2";
import { secretsOf } from "../../backend/port";
import type { KindReader } from "../kindReader";
import { secretTable, type SecretArgs } from "./secretFields";

export const secretReader: KindReader<SecretV2, SecretArgs> = {
  table: secretTable,
  get: (api, id) => secretsOf(api).get(id),
  list: (api) => secretsOf(api).list(),
};
