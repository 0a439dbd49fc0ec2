// The window arguments every billing lookup shares (v1's getBilling and v2's per-history reads):
// dates checked on the calendar, and enum errors that name the argument, the value and the choices.
import { z } from "zod";

export const enumOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: (i) => `${name} must be one of ${values.join(", ")} (got ${JSON.stringify(i.input)})` });

/** ISO 8601 date or date-time; `new Date()` alone would roll "2026-02-30" over into March. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function parseIsoDateTime(text: string): Date | undefined {
  const m = ISO_DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return undefined;
  if (Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59 || Number(m[6] ?? 0) > 59) return undefined;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A date-time argument: a Date or an ISO 8601 string, read as a Date. */
export const billingTime = (name: string) =>
  z.union([z.date(), z.string()]).transform((value, ctx) => {
    const date = value instanceof Date ? value : parseIsoDateTime(value);
    if (date === undefined || Number.isNaN(date.getTime())) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be an ISO 8601 date-time such as "2026-01-31T00:00:00Z" (got ${JSON.stringify(value)})`,
      });
      return z.NEVER;
    }
    return date;
  });
