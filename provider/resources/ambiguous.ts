// Creating without ever making a duplicate. A create whose answer is lost (connection dropped,
// timeout, 5xx) may or may not have happened; the client's createOnce resolves that by asking
// `findExisting` before it tries again. Pods, endpoints and network volumes have no unique name,
// so "existing" means: matches what we asked for AND was not there before we sent the create.
// The snapshot costs one list call per create; it needs no marker inside the user's resource.

import type { ApiError } from "../client/errors";
import type { CreateCallOptions } from "../client/management";
import type { ProgressLog } from "./deps";

export interface CreateOnceSpec<T extends { id: string }> {
  /** Names the resource in messages: `pod "trainer"`. */
  subject: string;
  /** Lists candidates (may be pre-filtered by the service, e.g. by name). */
  list(): Promise<T[]>;
  /** Whether a listed resource looks like the one being created. */
  matches(candidate: T): boolean;
  create(options: CreateCallOptions<T>): Promise<T>;
  log: ProgressLog;
}

export async function createWithoutDuplicates<T extends { id: string }>(spec: CreateOnceSpec<T>): Promise<T> {
  const before = new Set((await spec.list()).filter(spec.matches).map((r) => r.id));
  return spec.create({
    findExisting: async () => {
      const appeared = (await spec.list()).filter((r) => spec.matches(r) && !before.has(r.id));
      if (appeared.length <= 1) return appeared[0];
      // Someone else created a look-alike at the same moment: guessing could adopt their resource.
      const message =
        `${spec.subject}: the create's answer was lost and ${appeared.length} matching resources appeared since ` +
        `(${appeared.map((r) => r.id).join(", ")}); cannot tell which one is ours. Delete the extra ones and run \`pulumi up\` again.`;
      spec.log.warn(message);
      throw new Error(message);
    },
    onAmbiguous: ({ attempt, error, found }: { attempt: number; error: ApiError; found: boolean }) => {
      spec.log.warn(
        `${spec.subject}: create attempt ${attempt} got no clear answer (${error.message}); ` +
          (found ? "the service did create it: using that one." : "the service did not create it: trying again."),
      );
    },
  });
}
