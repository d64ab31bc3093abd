/** Korea Standard Time is UTC+9 all year (no daylight saving), so a fixed offset is exact. */
export const KST_OFFSET_MS = 9 * 3600_000;

/** `at` as the gateway stamps it: Korean local time, `yyyyMMddHHmmss`, whatever the server's zone. */
export function kstStamp(at: Date = new Date()): string {
  return new Date(at.getTime() + KST_OFFSET_MS).toISOString().slice(0, 19).replace(/[-T:]/g, '');
}

/**
 * The gateway stamps events in Korea Standard Time without a zone (`yyyyMMddHHmmss`).
 * KST has no daylight saving, so a fixed +09:00 offset is exact.
 */
export function kstTimestamp(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?(\d{2}):?(\d{2}):?(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  // Reject 20261332 and friends, which Date would roll over instead of failing. Checked by
  // arithmetic: a Date built, parsed and printed again cost each notification ~2 us.
  if (!isCalendarTime(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s))) return null;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}+09:00`;
}

/** A real day of the proleptic Gregorian calendar (Date's) and a time from 00:00:00 to 23:59:59. */
function isCalendarTime(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}
