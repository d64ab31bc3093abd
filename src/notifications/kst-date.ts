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
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}+09:00`;
  const parsed = new Date(iso);
  // Reject 20261332 and friends: Date rolls them over instead of failing.
  if (Number.isNaN(parsed.getTime())) return null;
  const back = new Date(parsed.getTime() + KST_OFFSET_MS).toISOString();
  return back.startsWith(`${y}-${mo}-${d}T${h}:${mi}:${s}`) ? iso : null;
}
