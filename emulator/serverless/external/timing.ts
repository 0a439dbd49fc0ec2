/**
 * Real workers and real clients live in real time: workers ping every whole second at best, their
 * HTTP client gives up on a job-take after 90 s, and clients poll results about once a second. The
 * windows the emulator applies to them are service time like every other duration, but bounded in
 * real time so they stay meaningful at any time scale.
 */
import type { Clock } from "../../clock";

/** Shortest real hold of a parked job-take / job-stop (ms), so idle workers do not spin. */
export const HOLD_REAL_MIN_MS = 250;
/** Longest real hold (ms): well under a worker's 90 s client timeout. */
export const HOLD_REAL_MAX_MS = 60_000;
/** A worker unseen for less than this (real ms) is never counted lost: 3 missed 1 s pings. */
export const LOST_REAL_MIN_MS = 3_000;
/** The external-serving window never ends sooner than this (real ms) after the last request. */
export const PRESENCE_REAL_MIN_MS = 5_000;

/**
 * Longest real hold of an empty /stream (ms): the service's job client reads /stream with a 10 s
 * timeout, so a hold of 10 s makes it time out and resend; this leaves it a 2 s margin.
 */
export const STREAM_HOLD_REAL_MAX_MS = 8_000;

/** A finished job's result is kept at least this long (real ms): a client polling once a second reads it. */
export const RETENTION_REAL_MIN_MS = 2_000;

/** Real ms to hold a long-poll asked for in service ms, within the bounds above. */
export function holdRealMs(clock: Clock, serviceMs: number): number {
  return Math.min(HOLD_REAL_MAX_MS, Math.max(HOLD_REAL_MIN_MS, clock.scaled(serviceMs)));
}

/** A service-time window that lasts at least `realFloorMs` of real time. */
export function withRealFloor(clock: Clock, serviceMs: number, realFloorMs: number): number {
  return Math.max(serviceMs, realFloorMs / clock.timeScale);
}

/** Service ms to hold an empty /stream asked for `serviceMs`, at most STREAM_HOLD_REAL_MAX_MS real. */
export function streamHoldMs(clock: Clock, serviceMs: number): number {
  return Math.min(serviceMs, STREAM_HOLD_REAL_MAX_MS / clock.timeScale);
}
