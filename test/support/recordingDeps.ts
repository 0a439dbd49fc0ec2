// Test doubles for the resource providers: a recording log and deps around any client.
import type { ManagementApi } from "../../model/backend/port";
import type { ProviderDeps } from "../../provider/resources/deps";

export interface RecordingLog {
  info: string[];
  warn: string[];
}

/** A fake of the port: the parts a test needs, each with the calls it needs. */
export type FakeApi = { -readonly [K in keyof ManagementApi]?: Partial<NonNullable<ManagementApi[K]>> };

export function recordingDeps(client: FakeApi = {}, overrides: Partial<ProviderDeps> = {}): ProviderDeps & { lines: RecordingLog } {
  const lines: RecordingLog = { info: [], warn: [] };
  let clock = 0;
  return {
    // The parts and calls a test leaves out are never reached by the code it tests.
    client: () => client as ManagementApi,
    log: { info: (m) => void lines.info.push(m), warn: (m) => void lines.warn.push(m) },
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    poll: { initialMs: 10, maxMs: 50, factor: 2, progressEveryMs: 1_000 },
    lines,
    ...overrides,
  };
}
