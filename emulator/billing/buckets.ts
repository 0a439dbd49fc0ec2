/** Billing buckets, aligned in UTC (weeks start on Monday, as ISO 8601 weeks do). */
import type { BucketSize } from "../vocabulary/schemas/billing";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The first instant of a UTC month. Date.UTC reads the years 0..99 as 1900..1999, so the year is
 * set on its own: a window in the first century (a query may ask for one) stays where it was asked.
 */
function monthStart(year: number, month: number): number {
  return new Date(0).setUTCFullYear(year, month, 1);
}

/** Start of the bucket containing `ms`. */
export function bucketStart(ms: number, size: BucketSize): number {
  const d = new Date(ms);
  switch (size) {
    case "hour":
      return Math.floor(ms / HOUR) * HOUR;
    case "day":
      return Math.floor(ms / DAY) * DAY;
    case "week": {
      const day = Math.floor(ms / DAY) * DAY;
      const mondayOffset = (new Date(day).getUTCDay() + 6) % 7;
      return day - mondayOffset * DAY;
    }
    case "month":
      return monthStart(d.getUTCFullYear(), d.getUTCMonth());
    case "year":
      return monthStart(d.getUTCFullYear(), 0);
  }
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, size: BucketSize): number {
  return bucketsAfter(start, size, 1);
}

/**
 * Start of the bucket `n` buckets after the one starting at `start` (`n` may be negative): in one
 * step whatever `n`, so a window of many buckets costs no more to place than one.
 */
export function bucketsAfter(start: number, size: BucketSize, n: number): number {
  const d = new Date(start);
  switch (size) {
    case "hour":
      return start + n * HOUR;
    case "day":
      return start + n * DAY;
    case "week":
      return start + n * 7 * DAY;
    case "month":
      return monthStart(d.getUTCFullYear(), d.getUTCMonth() + n);
    case "year":
      return monthStart(d.getUTCFullYear() + n, 0);
  }
}

/**
 * Calls `fn(bucket, overlapMs)` for each bucket that [fromMs, toMs) overlaps. Callers pass a usage
 * interval clipped to the window, so the work is the records the interval makes, never the
 * window's buckets.
 */
export function forEachBucket(fromMs: number, toMs: number, size: BucketSize, fn: (bucket: number, overlapMs: number) => void): void {
  for (let bucket = bucketStart(fromMs, size); bucket < toMs; ) {
    const next = nextBucket(bucket, size);
    const overlap = Math.min(toMs, next) - Math.max(fromMs, bucket);
    if (overlap > 0) fn(bucket, overlap);
    bucket = next;
  }
}

/** "2023-01-01T00:00:00Z": the service's timestamp style for bucket starts (no milliseconds). */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
