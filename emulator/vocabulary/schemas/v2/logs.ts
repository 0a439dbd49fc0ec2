/**
 * The query of the two log streams, getPodLogs and getWorkerLogs (management-api-v2-paths.txt):
 * `source` (LogSource: "Omit to include both container and system logs"), `tail` ("integer
 * default=100 minimum=0 maximum=5000") and `since` ("RFC3339 timestamp to resume from"). The
 * header `Last-Event-ID` is read by the handler (management/v2/logs.ts).
 */
import { z } from "zod";

/** LogSource: "`container` — container stdout/stderr log stream; `system` — host lifecycle/userlogs stream". */
export const LogSource = z.enum(["container", "system"]);

/** The largest and default `tail`. */
export const LOG_TAIL_MAX = 5000;
export const LOG_TAIL_DEFAULT = 100;

/** RFC 3339 date-time, any number of fraction digits ("2026-12-02T07:54:51.123456Z"). */
export const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function last(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export const LogStreamQuery = z.object({
  source: z.preprocess(last, LogSource.optional()),
  tail: z.preprocess(
    (v) => (typeof last(v) === "string" ? Number(last(v)) : last(v)),
    z.int().min(0).max(LOG_TAIL_MAX).optional().meta({ default: LOG_TAIL_DEFAULT }),
  ),
  since: z.preprocess(
    last,
    z
      .string()
      .regex(RFC3339_DATE_TIME, 'must be an RFC 3339 date-time such as "2026-12-02T07:54:51.123456Z"')
      .optional()
      .meta({ format: "date-time" }),
  ),
});
export type LogStreamQuery = z.infer<typeof LogStreamQuery>;
