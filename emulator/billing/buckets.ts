/** Billing buckets, aligned in UTC (weeks start on Monday, as ISO 8601 weeks do). */
import type { BucketSize } from "../vocabulary/schemas/billing";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "year":
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, size: BucketSize): number {
  const d = new Date(start);
  switch (size) {
    case "hour":
      return start + HOUR;
    case "day":
      return start + DAY;
    case "week":
      return start + 7 * DAY;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "year":
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** Calls `fn(bucket, overlapMs)` for each bucket that [fromMs, toMs) overlaps. */
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
