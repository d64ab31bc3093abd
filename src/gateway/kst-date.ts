import { kstStamp } from '../notifications/kst-date';

/**
 * The calendar date in Korea (yyyyMMdd) at `at`, whatever the server's own time zone: the
 * gateway reads `cancelReqDate` as a Korean date.
 */
export function kstDate(at: Date): string {
  return kstStamp(at).slice(0, 8);
}
