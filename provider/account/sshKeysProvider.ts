/**
 * The dynamic provider behind AccountSshKeys: the account's registered SSH public keys as one
 * resource, the whole list (reference updateSshKeys: "Replaces the account's full set of
 * registered SSH public keys. Existing keys not present in the request are removed"). Keys reach
 * only pods created afterwards with `startSsh` ("running pods are not updated").
 *
 * Create reads the keys in force first and records them (`replacedKeys`), then puts the declared
 * list; delete puts the recorded list back, so a destroy leaves the account as it found it. The
 * keys found are noted in this machine's create journal (resources/createJournal.ts) before the
 * put: a create run again after the deploying process was killed restores what was there before
 * the first one, not the keys that one put. v2 only: the v1 API has no SSH key operations, so
 * check fails naming the fix.
 */
import type * as pulumi from "@pulumi/pulumi";
import { randomBytes } from "node:crypto";
import { argsOf } from "../componentArgs";
import type { ProgressLog } from "../resources/deps";
import type { CreateJournal } from "../resources/createJournal";
import { ownerOf } from "../resources/ownership";
import type { Account } from "../../model/backend/port";
import { OWNER_INPUT } from "../../model/kinds";
import { failure } from "../../model/fields/validation";
import { containsUnknown, deepEqual, type Props } from "../../model/fields/values";

/** UpdateSshKeysRequest.keys[]: `<type> <base64-key> [comment]`, as in `~/.ssh/id_ed25519.pub`. */
const KEY_LINE = /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/;

/** The account's key calls of the management port (v2). */
export type SshKeysApi = Pick<Account, "sshKeys" | "replaceSshKeys">;

export interface SshKeysDeps {
  /** The account's key operations, or the reason there are none (the v1 API). */
  api(): SshKeysApi | string;
  /** The API version the settings in force pick. */
  backend(): "v1" | "v2";
  log: ProgressLog;
  /** This machine's create journal (absent: none kept). */
  journal?(): CreateJournal | undefined;
}

const NOUN = "account SSH keys";

/** Keys compared as a set: the service keeps the list, but its order carries no meaning. */
function sameKeys(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort() : v);
  return deepEqual(sorted(a), sorted(b));
}

function apiOf(deps: SshKeysDeps): SshKeysApi {
  const api = deps.api();
  if (typeof api === "string") throw new Error(api);
  return api;
}

function keysOf(props: Props, field: string): string[] {
  const value = props[field];
  return Array.isArray(value) ? value.map(String) : [];
}

export function accountSshKeysProviderWith(deps: SshKeysDeps): pulumi.dynamic.ResourceProvider {
  return {
    async check(_olds: Props, news: Props) {
      const failures = [];
      if (deps.backend() !== "v2") {
        failures.push(
          failure(
            ["keys"],
            "account SSH keys need the service's v2 API (PUT /v2/account/ssh-keys): set gpucloud:apiUrl to the /v2 URL; on v1 every pod gets the account's key as PUBLIC_KEY",
          ),
        );
      }
      const keys = news["keys"];
      if (!containsUnknown(keys)) {
        if (!Array.isArray(keys))
          failures.push(
            failure(["keys"], 'is required: the whole list of public keys, e.g. ["ssh-ed25519 AAAA... me@laptop"] ([] for none)'),
          );
        else {
          keys.forEach((key, i) => {
            if (typeof key !== "string" || !KEY_LINE.test(key.trim())) {
              failures.push(
                failure(
                  ["keys", i],
                  'is not an authorized_keys line "<type> <base64-key> [comment]"; paste the contents of a .pub file, e.g. ~/.ssh/id_ed25519.pub',
                ),
              );
            }
          });
          if (new Set(keys.map((k) => String(k).trim())).size !== keys.length)
            failures.push(failure(["keys"], "lists a key twice; remove the duplicate"));
        }
      }
      const inputs = Array.isArray(keys) ? { ...news, keys: keys.map((k) => (typeof k === "string" ? k.trim() : k)) } : news;
      return { inputs, failures };
    },

    async diff(id: string, olds: Props, news: Props) {
      // The engine holds this resource: its create's journal entry is spent.
      const owner = ownerOf(news);
      if (owner !== undefined) deps.journal?.()?.forget(owner, id);
      const changes = containsUnknown(news["keys"]) || !sameKeys(olds["keys"], news["keys"]);
      return { changes, replaces: [] as string[] };
    },

    async create(inputs: Props) {
      const api = apiOf(deps);
      const owner = ownerOf(inputs);
      const journal = owner !== undefined ? deps.journal?.() : undefined;
      // An earlier create of this resource that never reached the stack: what it found is what was there before.
      const earlier = owner !== undefined ? journal?.read(owner) : undefined;
      const replacedKeys = earlier ? earlier.matchedBefore : await api.sshKeys();
      if (earlier) deps.log.info(`${NOUN}: an earlier, interrupted create found ${replacedKeys.length} key(s): destroy puts those back`);
      const id = earlier?.createdId ?? `account-ssh-keys-${randomBytes(6).toString("hex")}`;
      const entry = { noun: NOUN, startedAt: earlier?.startedAt ?? Date.now(), matchedBefore: replacedKeys, createdId: id };
      try {
        if (owner !== undefined) journal?.write(owner, entry);
      } catch (error) {
        // As for the other kinds (createOnce.ts): the journal only strengthens a rerun after a crash.
        deps.log.warn(
          `${NOUN}: could not note the create in this machine's create journal (${String(error)}); set GPUCLOUD_CACHE_DIR to a writable folder`,
        );
      }
      const keys = await api.replaceSshKeys(keysOf(inputs, "keys"));
      deps.log.info(
        `${NOUN}: ${keys.length} registered (replacing ${replacedKeys.length}; destroy puts those back); pods created from now on with startSsh get them`,
      );
      // The owner rides in the outputs so that delete can drop the journal entry (a later create must read the keys anew).
      return { id, outs: { ...argsOf(inputs), keys, replacedKeys, ...(owner !== undefined ? { [OWNER_INPUT]: owner } : {}) } };
    },

    async read(id: string, props?: Props) {
      const keys = await apiOf(deps).sshKeys();
      // An import (no recorded properties, provider plugin only): the keys as declared, and as the
      // keys found, so that a destroy leaves the account as the import found it.
      if (props === undefined) return { id, props: { keys, replacedKeys: keys }, inputs: { keys } };
      const recorded = props;
      // The order the service answers in is not a change: keep the recorded order when the set is the same.
      const same = sameKeys(recorded["keys"], keys);
      return { id, props: { ...recorded, keys: same ? recorded["keys"] : keys } };
    },

    async update(_id: string, olds: Props, news: Props) {
      const keys = await apiOf(deps).replaceSshKeys(keysOf(news, "keys"));
      deps.log.info(`account SSH keys: ${keys.length} registered; running pods keep the keys they were created with`);
      const owner = ownerOf(news);
      return {
        outs: { ...argsOf(news), keys, replacedKeys: olds["replacedKeys"] ?? [], ...(owner !== undefined ? { [OWNER_INPUT]: owner } : {}) },
      };
    },

    async delete(id: string, props: Props) {
      const restored = keysOf(props, "replacedKeys");
      await apiOf(deps).replaceSshKeys(restored);
      const owner = ownerOf(props);
      if (owner !== undefined) deps.journal?.()?.forget(owner, id);
      deps.log.info(`account SSH keys: restored the ${restored.length} key(s) registered before this resource`);
    },
  };
}
