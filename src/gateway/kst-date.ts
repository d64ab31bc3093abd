const KST_OFFSET_MS = 9 * 3600_000;

/**
 * The calendar date in Korea (yyyyMMdd) at `at`, whatever the server's own time zone: the
 * gateway reads `cancelReqDate` as a Korean date. KST has no daylight saving.
 */
export function kstDate(at: Date): string {
  return new Date(at.getTime() + KST_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '');
}
