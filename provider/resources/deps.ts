// What a resource provider needs from the outside world, in one object so that tests can hand in a
// fake client, a recording log and a fast clock, while the registry wires the real ones.

import type { ManagementApi } from "../../model/backend/port";
import {
  connectionFailures,
  connectionProof,
  createWindowMs,
  currentBackend,
  managementClient,
  progressShown,
} from "../../model/connection";
import { fileJournal, type CreateJournal } from "./createJournal";
import type { Backend } from "../../model/fields/fieldTable";
import { pricesOf } from "../../model/cost/priceSheet";
import { ownPricesOf } from "../../model/cost/ownPrices";
import type { PriceSources } from "../../model/cost/attach";
import { getStackConfig } from "../../model/stackConfig";
import { pulumiSdkLog } from "../../model/pulumiSdkLog";
import { defaultLogNoteReader, type LogNoteReader } from "../logNotes";

export interface ProgressLog {
  /** Progress detail: shown with gpucloud:verbose only (pulumiLog). */
  info(message: string): void;
  warn(message: string): void;
  /** What the user reads at every preview without being asked to act (a plan's outline); absent: `info`. */
  notice?(message: string): void;
}

export interface PollSettings {
  /** First wait between readiness polls, in ms. */
  initialMs: number;
  /** Longest wait between polls, in ms. */
  maxMs: number;
  /** Growth of the wait per poll. */
  factor: number;
  /** A progress line at least this often while nothing changes, in ms. */
  progressEveryMs: number;
}

/** Also where cost estimates take their prices from (PriceSources: `prices`, `ownPrices`). */
export interface ProviderDeps extends PriceSources {
  /** Resolved at call time: configuration may arrive (configure) after the provider is built. */
  client(): ManagementApi;
  /** The API version the connection settings pick at call time (default v1). */
  backend?(): Backend;
  /** What is wrong with the connection settings in force, for check (absent: nothing checked). */
  connectionFailures?(): { property: string; reason: string }[];
  /** What the service's answer to the settings shows (one read per process), for check (absent: no call). */
  connectionProof?(): Promise<{ property: string; reason: string }[]>;
  log: ProgressLog;
  sleep(ms: number): Promise<void>;
  now(): number;
  poll: PollSettings;
  /** How long a create may take on the service, ms (absent: the transport's default create timeout). */
  createWindowMs?(): number;
  /** This machine's create journal (createJournal.ts); absent: none is kept (tests with fakes). */
  journal?(): CreateJournal | undefined;
  /** Reads the last lines of a pod's or worker's log for a failure message (logNotes.ts); absent: failures say nothing of logs. */
  logs?(): LogNoteReader | undefined;
}

/** Intervals of 1, 2, 4 and 8 s: doubling keeps every wait on one shared beat (waitFor.ts). */
export const DEFAULT_POLL: PollSettings = { initialMs: 1_000, maxMs: 8_000, factor: 2, progressEveryMs: 30_000 };

/**
 * What is always shown goes through Pulumi's log. In the provider process the engine address is
 * not set, so the SDK writes to stdout/stderr, which the engine shows; never pass secrets to these.
 */
export const shownLog: ProgressLog = {
  info: (message) =>
    void pulumiSdkLog()
      .info(message)
      .catch(() => undefined),
  warn: (message) =>
    void pulumiSdkLog()
      .warn(message)
      .catch(() => undefined),
};

/**
 * Progress: warnings always, progress detail (`info`: waits, updates, adoptions) only with
 * gpucloud:verbose / GPUCLOUD_VERBOSE, so that by default a user reads only what asks for action.
 */
export const pulumiLog: ProgressLog = {
  info: (message) => {
    if (progressShown()) shownLog.info(message);
  },
  warn: shownLog.warn,
  notice: shownLog.info,
};

export function defaultDeps(): ProviderDeps {
  return {
    client: managementClient,
    backend: currentBackend,
    prices: () => pricesOf(managementClient().account ?? {}),
    ownPrices: () => ownPricesOf(getStackConfig()),
    // Resources need the management API; the job URL is checked only when it is set (a mix-up).
    connectionFailures: () => connectionFailures("ifSet"),
    connectionProof: () => connectionProof("ifSet"),
    log: pulumiLog,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    poll: DEFAULT_POLL,
    createWindowMs,
    journal: () => fileJournal(),
    logs: () => defaultLogNoteReader,
  };
}
