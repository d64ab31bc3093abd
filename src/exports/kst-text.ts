import { KST_OFFSET_MS } from '../notifications/kst-date';

/** Every time in an export is Korean time; the header says so, since a spreadsheet keeps no zone. */
export const KST_HEADER_SUFFIX = ' (KST, UTC+09:00)';

/** The instant's wall clock in Korea, as a Date whose UTC fields read it (a spreadsheet date has no zone). */
export function kstWallClock(iso: string): Date {
  return new Date(Date.parse(iso) + KST_OFFSET_MS);
}

/** `2026-11-27 21:05:09`: the instant in Korean time, to the second. */
export function kstText(iso: string): string {
  return kstWallClock(iso).toISOString().slice(0, 19).replace('T', ' ');
}
