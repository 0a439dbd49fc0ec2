/**
 * An answer held back from its client (the faults `late=P@D` and `lost=P@D`): the operation runs
 * at once and writes its answer as usual, but what it writes is kept here until the hold ends, then
 * sent (late) or thrown away with the connection (lost). Holding the response itself, rather than
 * each surface's way of answering, serves every surface alike, the job API's streamed answers too.
 *
 * The hold ends D after the request arrived (past any latency fault), independent of the client: a
 * client that closed the connection or timed out meanwhile gets nothing more, and what the
 * operation did stays done.
 */
import type { ServerResponse } from "node:http";

/** The response methods that put bytes on the wire; each is held while the answer is. */
const WRITERS = ["writeHead", "write", "end", "flushHeaders"] as const;
type Writer = (typeof WRITERS)[number];

export type HoldMode = "late" | "lost";

/** An answer being held: `cut` ends it at once without sending (the emulator is closing). */
export interface HeldAnswer {
  cut(): void;
}

function destroy(res: ServerResponse): void {
  res.socket?.destroy();
  res.destroy();
}

/**
 * Holds what `res` is asked to write for `delayMs`; then sends it (`late`) or destroys the
 * connection (`lost`). `done` is called once the hold is over, however it ended.
 */
export function holdAnswer(res: ServerResponse, mode: HoldMode, delayMs: number, done: () => void): HeldAnswer {
  const calls: { writer: Writer; args: unknown[] }[] = [];
  const target = res as unknown as Record<Writer, unknown>;
  const own = new Map(WRITERS.map((writer) => [writer, Object.getOwnPropertyDescriptor(res, writer)]));
  for (const writer of WRITERS) {
    Object.defineProperty(res, writer, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        calls.push({ writer, args });
        // As the real ones answer: write accepts more, the others return the response (chaining).
        return writer === "write" ? true : res;
      },
    });
  }
  const restore = (): void => {
    for (const writer of WRITERS) {
      const descriptor = own.get(writer);
      if (descriptor) Object.defineProperty(res, writer, descriptor);
      else delete target[writer];
    }
  };
  let over = false;
  const finish = (): boolean => {
    if (over) return false;
    over = true;
    clearTimeout(timer);
    res.off("close", clientLeft);
    restore();
    done();
    return true;
  };
  // The client left first: nothing is left to send, and nothing of the operation is undone.
  const clientLeft = (): void => {
    finish();
  };
  const timer = setTimeout(() => {
    if (!finish()) return;
    if (mode === "lost" || res.destroyed) {
      destroy(res);
      return;
    }
    for (const { writer, args } of calls) (target[writer] as (...a: unknown[]) => unknown).apply(res, args);
  }, delayMs);
  res.once("close", clientLeft);
  return {
    cut() {
      if (finish()) destroy(res);
    },
  };
}
