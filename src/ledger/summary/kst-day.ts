/**
 * The day's money is settled by the Korean calendar day (KST, UTC+9, no daylight saving): an
 * event at 23:59:59 KST belongs to its day, one a second later to the next, whatever the server's
 * time zone.
 */
const KST_OFFSET_MS = 9 * 3600_000;
const DAY_MS = 86_400_000;

/** `2026-11-27T15:00:00Z` (midnight in Korea) → `2026-11-28`. */
export function kstDay(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`not a time: ${JSON.stringify(iso)}`);
  return new Date(ms + KST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The days from `from` to `to`, both included (calendar days: `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += DAY_MS) days.push(new Date(ms).toISOString().slice(0, 10));
  return days;
}

/** The calendar day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
