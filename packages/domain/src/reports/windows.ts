const DAY_MS = 24 * 3600 * 1000;

/** Midnight UTC of the day `now` falls in. */
function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The `count` whole UTC days that end with today's: `[from, to)` and each day as YYYY-MM-DD,
 * oldest first. Today counts in full, so a day's bar always covers the same 24 hours.
 */
export function utcDays(now: Date, count: number): { from: Date; to: Date; days: string[] } {
  const to = new Date(startOfUtcDay(now).getTime() + DAY_MS);
  const from = new Date(to.getTime() - count * DAY_MS);
  const days = Array.from({ length: count }, (_, i) => dayKey(new Date(from.getTime() + i * DAY_MS)));
  return { from, to, days };
}

/**
 * The `count` calendar months (UTC) that end with the current one: `[from, to)` as dates and
 * each month as YYYY-MM, oldest first.
 */
export function utcMonths(now: Date, count: number): { from: string; to: string; months: string[] } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const first = (offset: number) => new Date(Date.UTC(year, month + offset, 1));
  const months = Array.from({ length: count }, (_, i) => dayKey(first(i - count + 1)).slice(0, 7));
  return { from: dayKey(first(1 - count)), to: dayKey(first(1)), months };
}

/** YYYY-MM-DD of an instant, in UTC. */
function dayKey(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** `part` in percent of `whole` to 0.1, or null when there is nothing to divide. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((1000 * part) / whole) / 10;
}
